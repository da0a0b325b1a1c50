// What the memory views of recorded runs read alike (replay/blocks.js, kv-cache.js, kvbytes.js): the
// block events of a step and the tables they leave, their marks and words, and the bytes per number.
import { fmt } from "./core.js";

const esc = fmt.esc;

export const OPS = ["allocate", "hit", "cache", "evict", "free", "unref"];
const OP_MARK = { allocate: "+", hit: "✓", cache: "#", evict: "✕", free: "−", unref: "−1" };
export const OP_LABEL = {
  allocate: "neu belegt", hit: "Treffer im Cache", cache: "in den Cache eingetragen",
  evict: "aus dem Cache verdrängt", free: "freigegeben", unref: "Referenz abgegeben",
};
// The outline of a block shows the one event that matters most when several happen in a step.
const OP_RANK = { evict: 5, hit: 4, allocate: 3, free: 2, unref: 2, cache: 1 };
const PALETTE = 8;
export const BYTES = { float64: 8, float32: 4, float16: 2, bfloat16: 2 };

export const plural = (n, one, many) => `${fmt.num(n)} ${n === 1 ? one : many}`;

export function bytesText(b) {
  if (b < 1024) return `${fmt.num(b)} Byte`;
  return `${fmt.num(b)} Byte (${fmt.num(b / 1024, 1)} KiB)`;
}

// Short keys for the pool cells: the request ids where they are short, else their number.
export function seqInfo(model) {
  const short = model.ids.every((id) => id.length <= 6);
  const info = {};
  model.ids.forEach((id, k) => {
    info[id] = { key: short ? id : String(k + 1), label: short ? id : `${k + 1} · ${id}`, cls: `pl-rm-c${k % PALETTE}` };
  });
  return info;
}

// Token texts per position (prompt, then generated); numbers where the trace has no text.
export function tokenTexts(model) {
  const out = {};
  // the trace's own table of token texts (recorder/tracer.py with_token_texts)
  const table = (model.trace.model && model.trace.model.tokens) || {};
  const known = (t) => (t in table ? { t: table[t] } : { t: String(t), id: true });
  for (const id of model.ids) out[id] = model.requests[id].prompt.map(known);
  for (const step of model.trace.steps) {
    for (const e of step.events) {
      if (e.type === "emit") out[e.seq][e.position] = e.text !== undefined ? { t: e.text } : known(e.token);
    }
  }
  return out;
}

// The block tables as they stood *during* step i: the tables before it plus what the step took,
// with what it gave back marked `gone` (a finished request frees everything in its last step, so
// the end-of-step tables alone would show nothing for it). Also each block's events of the step.
export function stepTables(model, i) {
  const rows = {};
  const ops = {};
  if (i === 0 || i > model.n) return { rows, ops };
  const before = model.at(i - 1).tables;
  for (const [seq, table] of Object.entries(before)) rows[seq] = table.map((b) => ({ b, ops: [], gone: false }));
  for (const e of model.at(i).events) {
    if (e.type !== "block") continue;
    (ops[e.block] || (ops[e.block] = [])).push(e);
    if (e.op === "evict") continue; // the block was in nobody's table
    const row = rows[e.seq] || (rows[e.seq] = []);
    if (e.op === "allocate" || e.op === "hit") {
      row.push({ b: e.block, ops: [e.op], gone: false });
    } else {
      for (let k = row.length - 1; k >= 0; k--) {
        if (row[k].b === e.block && !row[k].gone) {
          row[k].ops.push(e.op);
          if (e.op !== "cache") row[k].gone = true;
          break;
        }
      }
    }
  }
  return { rows, ops };
}

export function marks(opList) {
  const seen = [];
  for (const op of opList) if (!seen.includes(op)) seen.push(op);
  return seen;
}

export function strongest(opList) {
  let best = null;
  for (const op of opList) if (!best || OP_RANK[op] > OP_RANK[best]) best = op;
  return best;
}

export function markSpan(opList) {
  const list = marks(opList);
  if (!list.length) return "";
  return `<span class="pl-rm-marks" title="${esc(list.map((o) => OP_LABEL[o]).join(", "))}">${list.map((o) => `<span class="pl-rm-m pl-rm-m-${o}">${OP_MARK[o]}</span>`).join("")}</span>`;
}

export function legend(ops) {
  return `<ul class="pl-rm-legend" aria-label="Legende">${ops.map((o) =>
    `<li><span class="pl-rm-key pl-rm-ev-${o}"><span class="pl-rm-m pl-rm-m-${o}">${OP_MARK[o]}</span></span>${OP_LABEL[o]}</li>`).join("")}</ul>`;
}

export function eventsOf(model, i) {
  return i >= 1 && i <= model.n ? model.at(i).events : [];
}
