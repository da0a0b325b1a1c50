// „Am echten Modell“ on the cross-entropy page (py/probierlabor/pageblocks/realmodel_loss_block.py): the
// reader's sentence through the site's language model (py/probierlabor/realmodel/loss.py), run in the tab's
// Python worker (static/py/realmodel_run.py). For every token after the first: the probability the
// model gave it before it came, its loss −ln p, and the sentence's mean and perplexity beside the model's
// figures on held-out text. The run in the worker, the model's files, the chips and the status lines are
// every view's (frame.js); only the view differs.
//
// frame.js imports this file when the reader opens the block (or a link with m.… opens it).
// The sentence lives in the page's query as m.text, so a link gives the same result.
import { de, pct } from "../fmt.js";
import { REAL_MODEL as PREFIX, read, write } from "../url-state.js";
import { $, TEXT as LINES, chip, notes, runInWorker, visible } from "./frame.js";

const mounted = new WeakSet();
const TYPING_MS = 400;  // the sentence is run once the reader pauses
const TEXT = { ...LINES, ready: (d) => `${tokens(d.tokens.length + 1)}, gerechnet in ${de(d.compute_seconds * 1000, 0)} ms.` };
const HEAD = ["Token", "p davor", "−ln p (Nat)", "am ehesten erwartet"];

const tokens = (n) => `${de(n, 0)} ${n === 1 ? "Token" : "Tokens"}`;
const input = (block) => block.querySelector('[data-realmodel-field="text"]');

// A probability in percent, with as many places as it needs to be more than 0 (a loss of 10 Nat is p ≈ 0,005 %).
function percent(p) {
  for (const digits of [1, 2, 3, 4]) if (p * 100 >= 10 ** -digits || digits === 4) return `≈ ${pct(p, digits)}`;
  return "";
}

// a perplexity is a whole number only where the text says so; the model's never is, so name the two around it
function between(perplexity) {
  const low = Math.floor(perplexity);
  return `${de(low, 0)} und ${de(low + 1, 0)}`;
}

function summary(data) {
  const worst = data.tokens[data.worst];
  const compared = data.mean > data.heldout.loss ? "mehr als" : "weniger als";
  // the held-out figure is a mean over long stretches (up to 256 tokens before each): a short sentence,
  // with little before its tokens, is expected to cost more
  return `${tokens(data.tokens.length)} bewertet (das erste hat nichts davor). Verlust im Mittel ` +
    `≈ ${de(data.mean, 3)} Nat (≈ ${de(data.bits, 2)} Bit), Perplexität ≈ ${de(data.perplexity, 1)}: so unsicher wie ` +
    `zwischen ${between(data.perplexity)} gleich guten Tokens. Dein Satz kostet im Mittel ${compared} lange Abschnitte ` +
    `zurückgehaltenen Textes, den das Modell nie gesehen hat (≈ ${de(data.heldout.loss, 3)} Nat, Perplexität ` +
    `≈ ${de(data.heldout.perplexity, 1)}); ein kurzer Satz hat vor seinen Tokens wenig, woraus das Modell raten kann. ` +
    `Am teuersten ist „${visible(worst.text)}“ mit p ${percent(worst.p)}.`;
}

function lossTable(data) {
  const table = document.createElement("table");
  table.className = "pl-table pl-realmodel-loss-table";
  const head = table.createTHead().insertRow();
  for (const text of HEAD) head.append(Object.assign(document.createElement("th"), { textContent: text, scope: "col" }));
  const body = table.createTBody();
  const first = body.insertRow();
  first.insertCell().append(chip(data.first));
  Object.assign(first.insertCell(), { colSpan: 3, textContent: "– (nichts davor)" });
  const top = Math.max(...data.tokens.map((t) => t.loss));
  data.tokens.forEach((t, i) => {
    const row = body.insertRow();
    if (i === data.worst) row.dataset.kind = "chosen";
    row.insertCell().append(chip(t));
    row.insertCell().textContent = percent(t.p);
    const cell = row.insertCell();
    const track = Object.assign(document.createElement("span"), { className: "pl-realmodel-bar-track" });
    const fill = Object.assign(document.createElement("span"), { className: "pl-realmodel-bar-fill" });
    fill.style.width = `${(t.loss / top) * 100}%`;
    track.append(fill);
    cell.append(Object.assign(document.createElement("span"), { textContent: de(t.loss, 2) }), track);
    const best = row.insertCell();
    best.append(chip(t.best), ` ${percent(t.best.p)}`);
  });
  const wrap = Object.assign(document.createElement("div"), { className: "pl-realmodel-scroll" });
  wrap.append(table);
  return wrap;
}

function show(block, data) {
  write(PREFIX, ["text"], { text: data.settings.text });
  $(block, "summary").textContent = summary(data);
  $(block, "losses").replaceChildren(lossTable(data));
  $(block, "result").hidden = false;
  notes(block, data.notes);
  return TEXT.ready(data);
}

// The run with the field's sentence.
function compute(block) {
  write(PREFIX, ["text"], { text: input(block).value });
  runInWorker(block, () => ({ text: input(block).value }), TEXT, {
    shown: (data) => show(block, data),
    failed: () => notes(block, []),
  });
}

function mount(block) {
  if (mounted.has(block)) return;
  mounted.add(block);
  const given = read(PREFIX, ["text"]);
  if ("text" in given) input(block).value = given.text;
  let typing = null;
  input(block).addEventListener("input", () => {
    clearTimeout(typing);
    typing = setTimeout(() => compute(block), TYPING_MS);
  });
  compute(block);
}

// The block is open: wire it and run what its field (or the link) says.
export const open = mount;
