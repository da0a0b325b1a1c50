// German numbers in the browser: the rules of py/probierlabor/kit/fmt.py that the scripts need, so that a
// number in a replay panel or the offline note reads like one under the figure (1536, 123 456, −3,5).
// tests/golden/numbers.json holds both implementations to the same answers (tests/js/fmt.test.cjs).
const MINUS = "\u2212";
const THIN_NBSP = "\u202f"; // groups thousands without letting the number break
const KIB = 1024, MIB = 1024 ** 2, GIB = 1024 ** 3;

// Intl rounds the decimal as written (0.15, not the binary 0.1499…), halves away from zero – Python's
// rule too. en-US without grouping only delivers the digits; comma, grouping and minus come below.
const plain = new Map();
function digitsOf(x, digits, style) {
  const key = `${style}${digits}`;
  if (!plain.has(key)) {
    plain.set(key, new Intl.NumberFormat("en-US", {
      style, useGrouping: false, minimumFractionDigits: digits, maximumFractionDigits: digits,
      roundingMode: "halfExpand",
    }));
  }
  return plain.get(key).format(Math.abs(x)).replace("%", "");
}

function group(whole) {
  if (whole.length <= 4) return whole; // German typesetting groups 10 000 and up, leaves 1234 alone
  return whole.replace(/\B(?=(\d{3})+$)/g, THIN_NBSP);
}

function join(text, negative, trim) {
  const [whole, digits = ""] = text.split(".");
  const frac = trim ? digits.replace(/0+$/, "") : digits;
  const zero = !/[1-9]/.test(whole + frac);
  return (negative && !zero ? MINUS : "") + group(whole) + (frac ? "," + frac : "");
}

function nonFinite(x) {
  return x > 0 ? "∞" : x < 0 ? MINUS + "∞" : "–";
}

// `digits` decimals (integers without, other numbers 2 if not given); trim drops trailing zeros.
function de(x, digits, trim = false) {
  x = Number(x);
  if (!Number.isFinite(x)) return nonFinite(x);
  if (digits === undefined) digits = Number.isInteger(x) ? 0 : 2;
  return join(digitsOf(x, digits, "decimal"), x < 0, trim);
}

// A share as percent, shifted by two places rather than multiplied (0.145 → 14,5 %, never 14,499…).
function pct(x, digits = 1) {
  x = Number(x);
  if (!Number.isFinite(x)) return nonFinite(x) + THIN_NBSP + "%";
  return join(digitsOf(x, digits, "percent"), x < 0, false) + THIN_NBSP + "%";
}

// A token as a reader can see it in a chip or a figure: every space as ␣, a line break as ↵, another
// control character by its byte as ‹1F› (as engine/bpe.py writes a byte of an unfinished character).
const hex = (ch) => `‹${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}›`;
// eslint-disable-next-line no-control-regex -- the control characters are what this replaces
const token = (text) => text.replace(/ /g, "\u2423").replace(/\n/g, "\u21b5").replace(/[\u0000-\u001f\u007f]/g, hex);

export { MINUS, THIN_NBSP, KIB, MIB, GIB, de, pct, token };
