// Views of recorded runs for the memory pages (static/js/replay/core.js is the core):
//   blocks  – the block pool, each sequence's block table and this step's block events
//             (PagedAttention, prefix caching);
//   cache   – how one sequence's KV cache grows, step by step (Decode, KV cache);
//   kvbytes – the bytes the cache holds with MHA, GQA and MQA on the same workload.
// Everything a step needs is derived once in init(); render() only joins strings, so stepping the
// largest trace stays far below a frame.
import { fmt, registerView } from "./core.js";

const esc = fmt.esc;

// ---- shared bits -----------------------------------------------------------------------

const OPS = ["allocate", "hit", "cache", "evict", "free", "unref"];
const OP_MARK = { allocate: "+", hit: "✓", cache: "#", evict: "✕", free: "−", unref: "−1" };
const OP_LABEL = {
  allocate: "neu belegt", hit: "Treffer im Cache", cache: "in den Cache eingetragen",
  evict: "aus dem Cache verdrängt", free: "freigegeben", unref: "Referenz abgegeben",
};
// The outline of a block shows the one event that matters most when several happen in a step.
const OP_RANK = { evict: 5, hit: 4, allocate: 3, free: 2, unref: 2, cache: 1 };
const PALETTE = 8;
const BYTES = { float64: 8, float32: 4, float16: 2, bfloat16: 2 };

const plural = (n, one, many) => `${fmt.num(n)} ${n === 1 ? one : many}`;

function bytesText(b) {
  if (b < 1024) return `${fmt.num(b)} Byte`;
  return `${fmt.num(b)} Byte (${fmt.num(b / 1024, 1)} KiB)`;
}

// Short keys for the pool cells: the request ids where they are short, else their number.
function seqInfo(model) {
  const short = model.ids.every((id) => id.length <= 6);
  const info = {};
  model.ids.forEach((id, k) => {
    info[id] = { key: short ? id : String(k + 1), label: short ? id : `${k + 1} · ${id}`, cls: `pl-rm-c${k % PALETTE}` };
  });
  return info;
}

// Token texts per position (prompt, then generated); numbers where the trace has no text.
function tokenTexts(model) {
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
function stepTables(model, i) {
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

function marks(opList) {
  const seen = [];
  for (const op of opList) if (!seen.includes(op)) seen.push(op);
  return seen;
}

function strongest(opList) {
  let best = null;
  for (const op of opList) if (!best || OP_RANK[op] > OP_RANK[best]) best = op;
  return best;
}

function markSpan(opList) {
  const list = marks(opList);
  if (!list.length) return "";
  return `<span class="pl-rm-marks" title="${esc(list.map((o) => OP_LABEL[o]).join(", "))}">${list.map((o) => `<span class="pl-rm-m pl-rm-m-${o}">${OP_MARK[o]}</span>`).join("")}</span>`;
}

function legend(ops) {
  return `<ul class="pl-rm-legend" aria-label="Legende">${ops.map((o) =>
    `<li><span class="pl-rm-key pl-rm-ev-${o}"><span class="pl-rm-m pl-rm-m-${o}">${OP_MARK[o]}</span></span>${OP_LABEL[o]}</li>`).join("")}</ul>`;
}

function eventsOf(model, i) {
  return i >= 1 && i <= model.n ? model.at(i).events : [];
}

// ---- blocks -------------------------------------------------------------------------------

function prepareBlocks(model) {
  const steps = [];
  // Per request: how many tokens its latest admission found in the prefix cache, and of how many.
  const hits = {};
  const hitRows = [];
  let anyHit = false;
  for (let i = 0; i <= model.n; i++) {
    const st = model.at(i);
    const prev = i ? model.at(i - 1) : st;
    for (const e of eventsOf(model, i)) {
      if (e.type === "schedule" && e.num_cached_tokens !== undefined) {
        const total = model.requests[e.seq].prompt.length + prev.outputs[e.seq].length;
        hits[e.seq] = { cached: e.num_cached_tokens, total, step: i, recompute: e.recompute };
        if (e.num_cached_tokens > 0) anyHit = true;
      }
    }
    hitRows.push(Object.assign({}, hits));
    steps.push(stepTables(model, i));
  }
  // A large pool of which the run touches only the start: the untouched tail becomes one cell.
  let touched = -1;
  for (const step of model.trace.steps) for (const e of step.events) if (e.type === "block") touched = Math.max(touched, e.block);
  const shownBlocks = model.numBlocks - 1 - touched >= 4 ? touched + 1 : model.numBlocks;
  return { steps, hitRows, anyHit, shownBlocks, info: seqInfo(model), texts: tokenTexts(model) };
}

function renderPool(model, data, st, ops) {
  const owners = {};
  for (const [seq, table] of Object.entries(st.tables)) for (const b of table) (owners[b] || (owners[b] = [])).push(seq);
  const cells = [];
  for (let b = 0; b < data.shownBlocks; b++) {
    const refs = st.refs[b];
    const hash = st.cached[b];
    const own = owners[b] || [];
    const evs = (ops[b] || []).map((e) => e.op);
    const top = strongest(evs);
    let cls = "pl-rm-block";
    let who = "";
    let state;
    if (refs > 0) {
      if (own.length === 1) {
        const s = data.info[own[0]];
        cls += ` pl-rm-owned ${s.cls}`;
        who = `<span class="pl-rm-owner">${esc(s.key)}</span>`;
        state = `gehört ${own[0]}`;
      } else {
        cls += " pl-rm-owned pl-rm-shared";
        who = `<span class="pl-rm-owner">${esc(data.info[own[0]].key)}${own.length > 1 ? ` +${own.length - 1}` : ""}</span>`;
        state = `geteilt von ${own.join(", ")}`;
      }
    } else if (hash !== undefined) {
      cls += " pl-rm-cachedfree";
      who = `<span class="pl-rm-owner pl-rm-free-label">Cache</span>`;
      state = "frei, Inhalt im Cache";
    } else {
      cls += " pl-rm-empty";
      state = "frei";
    }
    if (top) cls += ` pl-rm-ev-${top}`;
    const foot = [];
    if (refs > 1) foot.push(`<span class="pl-rm-refs">×${refs}</span>`);
    if (hash !== undefined) foot.push(`<span class="pl-rm-hash">#${esc(hash.slice(0, 4))}</span>`);
    const tip = `Block ${b}: ${state}${refs > 1 ? `, ${refs} Referenzen` : ""}${hash !== undefined ? `, Hash ${hash}` : ""}` +
      `${evs.length ? ` – ${marks(evs).map((o) => OP_LABEL[o]).join(", ")}` : ""}`;
    cells.push(`<li class="${cls}" data-block="${b}" data-refs="${refs}"${hash !== undefined ? ` data-hash="${esc(hash)}"` : ""} title="${esc(tip)}">` +
      `<span class="pl-rm-top"><span class="pl-rm-bid">${b}</span>${markSpan(evs)}</span>${who}<span class="pl-rm-foot">${foot.join("")}</span></li>`);
  }
  if (data.shownBlocks < model.numBlocks) {
    cells.push(`<li class="pl-rm-block pl-rm-empty pl-rm-rest" data-rest="${data.shownBlocks}">` +
      `<span class="pl-rm-bid">${data.shownBlocks}–${model.numBlocks - 1}</span><span class="pl-rm-free-label">in diesem Lauf nie belegt</span></li>`);
  }
  return `<ol class="pl-rm-pool" aria-label="Block-Pool mit ${model.numBlocks} Blöcken">${cells.join("")}</ol>`;
}

function scheduleText(e) {
  const [a, b] = e.positions;
  const where = b - a === 1 ? `Position ${a}` : `Positionen ${a}–${b - 1}`;
  const kind = e.recompute ? "rechnet neu" : e.kind === "decode" ? "Decode" : "Prefill";
  return `${kind}: ${where}`;
}

function renderTables(model, data, i, st, rows) {
  const events = eventsOf(model, i);
  const sched = {};
  const preempted = new Set();
  for (const e of events) {
    if (e.type === "schedule") sched[e.seq] = e;
    if (e.type === "preempt") preempted.add(e.seq);
  }
  const shown = model.ids.filter((id) => (rows[id] && rows[id].length) || preempted.has(id) || (st.end.running || []).includes(id));
  if (!shown.length) return `<p class="pl-rm-none">Keine Sequenz hält gerade Blöcke.</p>`;
  const B = model.trace.config.block_size;
  const out = shown.map((id) => {
    const s = data.info[id];
    const row = rows[id] || [];
    let status = "läuft";
    if (preempted.has(id)) status = "verdrängt";
    else if (st.finishedAt[id] === i - 1) status = "fertig";
    const slots = row.map((r, k) => {
      const top = strongest(r.ops);
      return `<li class="pl-rm-slot${r.gone ? " pl-rm-gone" : ""}${top ? ` pl-rm-ev-${top}` : ""}" data-logical="${k}" data-block="${r.b}" ` +
        `title="logischer Block ${k} (Positionen ${k * B}–${k * B + B - 1}) → physischer Block ${r.b}${r.ops.length ? ` – ${marks(r.ops).map((o) => OP_LABEL[o]).join(", ")}` : ""}">` +
        `<span class="pl-rm-lid">L${k}</span><span class="pl-rm-arrow" aria-hidden="true">→</span><span class="pl-rm-pid">${r.b}</span>${markSpan(r.ops)}</li>`;
    }).join("");
    const bits = [];
    if (sched[id]) bits.push(scheduleText(sched[id]));
    if (sched[id] && sched[id].num_cached_tokens > 0) bits.push(`${plural(sched[id].num_cached_tokens, "Token", "Tokens")} aus dem Cache`);
    if (preempted.has(id)) bits.push("Blöcke zurück in den Pool, wartet auf einen neuen Anlauf");
    const held = row.filter((r) => !r.gone).length;
    return `<div class="pl-rm-table ${s.cls}${preempted.has(id) ? " pl-rm-preempted" : ""}" data-seq="${esc(id)}" data-blocks="${held}">` +
      `<div class="pl-rm-seqhead"><span class="pl-rm-swatch" aria-hidden="true"></span><span class="pl-rm-seqname">${esc(s.label)}</span>` +
      `<span class="pl-rm-status pl-rm-status-${status === "verdrängt" ? "pre" : status === "fertig" ? "done" : "run"}">${status}</span>` +
      `<span class="pl-rm-count">${plural(held, "Block", "Blöcke")}</span></div>` +
      (bits.length ? `<p class="pl-rm-seqmeta">${esc(bits.join(" · "))}</p>` : "") +
      `<ol class="pl-rm-slots" aria-label="Blocktabelle von ${esc(id)}">${slots}</ol></div>`;
  }).join("");
  return out;
}

function renderWaiting(model, data, i, st) {
  const waiting = (st.end.waiting || []).filter((id) => id in st.arrivedAt);
  if (!waiting.length) return "";
  const items = waiting.map((id) => {
    const n = st.preemptions[id];
    return `<li class="${data.info[id].cls}${n ? " pl-rm-was-preempted" : ""}"><span class="pl-rm-swatch" aria-hidden="true"></span>${esc(data.info[id].label)}` +
      `${n ? ` <span class="pl-rm-prebadge">${n}× verdrängt</span>` : ""}</li>`;
  }).join("");
  return `<div class="pl-rm-waiting"><span class="pl-rm-h">Warteschlange:</span><ul>${items}</ul></div>`;
}

function renderHits(model, data, i) {
  const hits = data.hitRows[Math.min(i, model.n)];
  const ids = model.ids.filter((id) => id in hits);
  if (!ids.length) return `<p class="pl-rm-none">Noch keine Anfrage aufgenommen.</p>`;
  const B = model.trace.config.block_size;
  const rows = ids.map((id) => {
    const h = hits[id];
    const texts = data.texts[id];
    const cells = [];
    const letters = h.total <= 16;
    for (let p = 0; p < h.total; p++) {
      const t = texts[p];
      cells.push(`<span class="pl-rm-tc${p < h.cached ? " pl-rm-tc-hit" : ""}${p % B === 0 ? " pl-rm-tc-start" : ""}">${letters && t && !t.id ? esc(fmt.tok(t.t)) : ""}</span>`);
    }
    const now = h.step === i ? " pl-rm-hitnow" : "";
    return `<li class="pl-rm-hitrow${now}" data-seq="${esc(id)}" data-cached="${h.cached}" data-total="${h.total}">` +
      `<span class="pl-rm-seqname">${esc(data.info[id].label)}${h.recompute ? " (neu gerechnet)" : ""}</span>` +
      `<span class="pl-rm-strip" style="--n:${h.total}" aria-hidden="true">${cells.join("")}</span>` +
      `<span class="pl-rm-hitnum"><b>${fmt.num(h.cached)}</b> von ${fmt.num(h.total)} aus dem Cache</span></li>`;
  }).join("");
  return `<ol class="pl-rm-hits">${rows}</ol>`;
}

function blocksSummary(model, data, i, st, ops) {
  const used = st.end.blocks_used;
  const parts = [i === 0 ? "Vor dem ersten Schritt" : `Nach Schritt ${i}`];
  parts[0] += `: ${fmt.num(used)} von ${fmt.num(model.numBlocks)} Blöcken belegt, ${fmt.num(st.end.blocks_cached)} mit Inhalt im Präfix-Cache.`;
  const count = {};
  for (const list of Object.values(ops)) for (const e of list) count[e.op] = (count[e.op] || 0) + 1;
  const said = OPS.filter((o) => count[o]).map((o) => `${OP_LABEL[o]}: ${fmt.num(count[o])}`);
  if (said.length) parts.push(`Blockereignisse – ${said.join(", ")}.`);
  const pre = eventsOf(model, i).filter((e) => e.type === "preempt").map((e) => e.seq);
  if (pre.length) parts.push(`Verdrängt: ${pre.join(", ")} – ihre Blöcke gehen zurück in den Pool.`);
  for (const e of eventsOf(model, i)) {
    if (e.type === "schedule" && e.num_cached_tokens !== undefined && (data.anyHit || e.num_cached_tokens)) {
      parts.push(`${e.seq}: ${fmt.num(e.num_cached_tokens)} Tokens aus dem Cache.`);
    }
  }
  return parts.join(" ");
}

registerView("blocks", {
  init(stage, model) {
    model.rmemBlocks = prepareBlocks(model);
  },
  render(stage, model, i) {
    const data = model.rmemBlocks || (model.rmemBlocks = prepareBlocks(model));
    const st = model.at(i);
    const { rows, ops } = data.steps[Math.min(i, model.n)];
    const pre = eventsOf(model, i).filter((e) => e.type === "preempt").map((e) => e.seq);
    const free = model.numBlocks - st.end.blocks_used - Object.keys(st.cached).filter((b) => st.refs[b] === 0).length;
    const banner = pre.length
      ? `<p class="pl-rm-banner" data-preempted="${esc(pre.join(","))}"><b>Verdrängt:</b> ${esc(pre.join(", "))} – es fehlen freie Blöcke. ` +
        `Die zuletzt aufgenommene Anfrage gibt alle ihre Blöcke ab, wartet und rechnet später ihren Text neu.</p>`
      : "";
    stage.innerHTML =
      `<div class="pl-rm pl-rm-blocks">${banner}` +
      `<div class="pl-rm-section"><h4 class="pl-rm-h">Block-Pool <span class="pl-rm-sub">${fmt.num(st.end.blocks_used)} belegt · ` +
      `${fmt.num(Object.keys(st.cached).filter((b) => st.refs[b] === 0).length)} frei mit Inhalt im Cache · ${fmt.num(free)} leer</span></h4>` +
      renderPool(model, data, st, ops) + legend(OPS) + `</div>` +
      `<div class="pl-rm-section"><h4 class="pl-rm-h">Blocktabellen <span class="pl-rm-sub">logischer Block → physischer Block</span></h4>` +
      renderTables(model, data, i, st, rows) + renderWaiting(model, data, i, st) + `</div>` +
      (data.anyHit ? `<div class="pl-rm-section"><h4 class="pl-rm-h">Tokens aus dem Präfix-Cache <span class="pl-rm-sub">je Anfrage bei ihrer Aufnahme</span></h4>${renderHits(model, data, i)}</div>` : "") +
      `</div>`;
    return blocksSummary(model, data, i, st, ops);
  },
});

// ---- cache --------------------------------------------------------------------------------

function perPositionBytes(trace) {
  const m = trace.model || {};
  const per = BYTES[m.dtype || (trace.recorded && trace.recorded.dtype)] || 0;
  if (!(m.num_layers && m.num_kv_heads && m.head_dim && per)) return null;
  return { layers: m.num_layers, kvHeads: m.num_kv_heads, headDim: m.head_dim, per, total: m.num_layers * 2 * m.num_kv_heads * m.head_dim * per };
}

function prepareCache(model) {
  const counters = []; // per step: {seq: {cache, full}}
  const run = {};
  model.ids.forEach((id) => (run[id] = { cache: 0, full: 0 }));
  for (let i = 0; i <= model.n; i++) {
    for (const e of eventsOf(model, i)) {
      if (e.type === "schedule") {
        run[e.seq].cache += e.positions[1] - e.positions[0];
        run[e.seq].full += e.positions[1];
      }
    }
    counters.push(JSON.parse(JSON.stringify(run)));
  }
  const tables = [];
  for (let i = 0; i <= model.n; i++) tables.push(stepTables(model, i).rows);
  const finalFull = Math.max(1, ...model.ids.map((id) => counters[model.n][id].full));
  return { counters, tables, finalFull, texts: tokenTexts(model), info: seqInfo(model), bytes: perPositionBytes(model.trace) };
}

function renderSeqCache(model, data, i, id) {
  const st = model.at(i);
  const B = model.trace.config.block_size;
  const texts = data.texts[id];
  const promptLen = model.requests[id].prompt.length;
  const length = st.arrivedAt[id] === undefined ? 0 : promptLen + st.outputs[id].length;
  const computed = st.computed[id];
  const sched = eventsOf(model, i).find((e) => e.type === "schedule" && e.seq === id);
  const [a, b] = sched ? sched.positions : [-1, -1];
  const table = data.tables[Math.min(i, model.n)][id] || [];
  const groups = [];
  const numGroups = Math.max(Math.ceil(length / B), table.length);
  for (let g = 0; g < numGroups; g++) {
    const cells = [];
    for (let p = g * B; p < (g + 1) * B; p++) {
      if (p >= length) {
        cells.push(`<span class="pl-rm-pos pl-rm-pos-slot" title="Position ${p}: noch leer"><span class="pl-rm-tok"></span><span class="pl-rm-pnum">${p}</span></span>`);
        continue;
      }
      const t = texts[p] || { t: "?" };
      let cls = "pl-rm-pos";
      let what;
      if (p >= a && p < b) { cls += " pl-rm-pos-now"; what = "K/V in diesem Schritt berechnet"; }
      else if (p < computed) { cls += " pl-rm-pos-kv"; what = "K/V liegt im Cache"; }
      else { cls += " pl-rm-pos-pending"; what = "gewählt, noch nicht verarbeitet (K/V fehlt)"; }
      cls += p < promptLen ? " pl-rm-pos-prompt" : " pl-rm-pos-gen";
      cells.push(`<span class="${cls}" data-pos="${p}" title="Position ${p} (${p < promptLen ? "Prompt" : "erzeugt"}): ${what}">` +
        `<span class="pl-rm-tok${t.id ? " pl-rm-tok-id" : ""}">${esc(fmt.tok(t.t))}</span><span class="pl-rm-pnum">${p}</span></span>`);
    }
    const slot = table[g];
    const label = slot ? `Block ${slot.b}` : "noch kein Block";
    groups.push(`<span class="pl-rm-group${slot ? "" : " pl-rm-group-none"}${slot && slot.gone ? " pl-rm-gone" : ""}${slot && slot.ops.includes("allocate") ? " pl-rm-group-new" : ""}">` +
      `<span class="pl-rm-cells">${cells.join("")}</span><span class="pl-rm-glabel">${label}${slot ? markSpan(slot.ops) : ""}</span></span>`);
  }
  const c = data.counters[Math.min(i, model.n)][id];
  const w = (x) => `${(100 * x / data.finalFull).toFixed(2)}%`;
  const bytes = data.bytes ? `<p class="pl-rm-bytes">Im Cache: <b>${fmt.num(computed)}</b> ${computed === 1 ? "Position" : "Positionen"} × ${fmt.num(data.bytes.total)} Byte ` +
    `<span class="pl-rm-sub">(${esc(data.bytes.layers)} ${data.bytes.layers === 1 ? "Schicht" : "Schichten"} · 2 für K und V · ${esc(data.bytes.kvHeads)} K/V-${data.bytes.kvHeads === 1 ? "Kopf" : "Köpfe"} · ${esc(data.bytes.headDim)} Zahlen · ${esc(data.bytes.per)} Byte)</span> = <b class="pl-rm-bytesval">${bytesText(computed * data.bytes.total)}</b></p>` : "";
  const held = table.filter((r) => !r.gone).length;
  return `<div class="pl-rm-seq" data-seq="${esc(id)}" data-computed="${computed}" data-kv="${c.cache}" data-full="${c.full}">` +
    (model.ids.length > 1 ? `<h4 class="pl-rm-h">${esc(id)}</h4>` : "") +
    `<div class="pl-rm-row" aria-label="Tokens von ${esc(id)}">${groups.join("") || `<span class="pl-rm-none">noch nicht angekommen</span>`}</div>` +
    `<p class="pl-rm-cachestat">K/V im Cache: <b class="pl-rm-computed">${fmt.num(computed)}</b> ${computed === 1 ? "Position" : "Positionen"} in ${plural(held, "Block", "Blöcken")}` +
    `${sched ? ` · in diesem Schritt neu: ${b - a === 1 ? `Position ${a}` : `Positionen ${a}–${b - 1}`}` : ""}</p>` +
    `<div class="pl-rm-counter">` +
    `<div class="pl-rm-bar pl-rm-bar-cache"><span class="pl-rm-barlabel">K/V berechnet mit Cache</span><span class="pl-rm-track"><span class="pl-rm-fill" style="width:${w(c.cache)}"></span></span><b class="pl-rm-kv">${fmt.num(c.cache)}</b></div>` +
    `<div class="pl-rm-bar pl-rm-bar-full"><span class="pl-rm-barlabel">ohne Cache (jedes Mal alles neu)</span><span class="pl-rm-track"><span class="pl-rm-fill" style="width:${w(c.full)}"></span></span><b class="pl-rm-full">${fmt.num(c.full)}</b></div>` +
    `</div>${bytes}</div>`;
}

const CACHE_LEGEND = `<ul class="pl-rm-legend" aria-label="Legende">` +
  `<li><span class="pl-rm-key pl-rm-pos-kv"></span>K/V im Cache</li>` +
  `<li><span class="pl-rm-key pl-rm-pos-now"></span>K/V in diesem Schritt berechnet</li>` +
  `<li><span class="pl-rm-key pl-rm-pos-pending"></span>gewählt, noch nicht verarbeitet</li>` +
  `<li><span class="pl-rm-key pl-rm-pos-gen pl-rm-pos-kv"></span>erzeugtes Token (Linie oben)</li></ul>`;

registerView("cache", {
  init(stage, model) {
    model.rmemCache = prepareCache(model);
  },
  render(stage, model, i) {
    const data = model.rmemCache || (model.rmemCache = prepareCache(model));
    const ids = model.ids.slice(0, 4);
    const numbers = ids.some((id) => data.texts[id].some((t) => t && t.id))
      ? `<p class="pl-rm-sub">Die Aufzeichnung enthält keine Zeichen, nur Token-Nummern; sie stehen in den Kästchen.</p>` : "";
    stage.innerHTML = `<div class="pl-rm pl-rm-cache">${ids.map((id) => renderSeqCache(model, data, i, id)).join("")}${CACHE_LEGEND}${numbers}</div>`;
    const id = ids[0];
    const st = model.at(i);
    const c = data.counters[Math.min(i, model.n)][id];
    const sched = eventsOf(model, i).find((e) => e.type === "schedule" && e.seq === id);
    const parts = [i === 0 ? "Vor dem ersten Schritt" : `Nach Schritt ${i}`];
    parts[0] += `: ${plural(st.computed[id], "Position", "Positionen")} mit K/V im Cache`;
    if (sched) parts[0] += `, davon in diesem Schritt neu ${sched.positions[1] - sched.positions[0]}`;
    parts[0] += ".";
    parts.push(`K/V-Berechnungen bisher ${fmt.num(c.cache)}, ohne Cache wären es ${fmt.num(c.full)}.`);
    if (data.bytes) parts.push(`Der Cache hält ${fmt.num(st.computed[id] * data.bytes.total)} Byte.`);
    if (st.finishedAt[id] !== undefined) parts.push("Die Anfrage ist fertig, ihre Blöcke sind wieder frei.");
    return parts.join(" ");
  },
});

// ---- kvbytes --------------------------------------------------------------------------------

function configOf(m, isMain) {
  const t = m.trace;
  const mc = t.model;
  const per = BYTES[mc.dtype] || 8;
  const perToken = mc.num_layers * 2 * mc.num_kv_heads * mc.head_dim * per;
  const B = t.config.block_size;
  return {
    m, isMain, name: mc.attention || `${mc.num_kv_heads} K/V`, heads: mc.num_heads, kvHeads: mc.num_kv_heads,
    layers: mc.num_layers, headDim: mc.head_dim, per, perToken, B,
    bytesAt: (i) => m.at(i).end.blocks_used * B * perToken,
  };
}

function headsSvg(c) {
  const W = 120, H = 58, qy = 10, ky = 46;
  const qx = (k) => 12 + (k * (W - 24)) / Math.max(1, c.heads - 1);
  const kx = (k) => (c.kvHeads === 1 ? W / 2 : 18 + (k * (W - 36)) / (c.kvHeads - 1));
  const group = c.heads / c.kvHeads;
  const parts = [`<svg class="pl-rm-heads" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${esc(c.heads)} Query-Köpfe teilen sich ${esc(c.kvHeads)} K/V-${c.kvHeads === 1 ? "Kopf" : "Köpfe"}">`];
  for (let q = 0; q < c.heads; q++) {
    const k = Math.floor(q / group);
    parts.push(`<line class="pl-rm-link" x1="${qx(q)}" y1="${qy + 6}" x2="${kx(k)}" y2="${ky - 7}"/>`);
  }
  for (let q = 0; q < c.heads; q++) parts.push(`<circle class="pl-rm-qhead" cx="${qx(q)}" cy="${qy}" r="6"/>`);
  for (let k = 0; k < c.kvHeads; k++) parts.push(`<rect class="pl-rm-kvhead" x="${kx(k) - 7}" y="${ky - 7}" width="14" height="14" rx="2"/>`);
  parts.push("</svg>");
  return parts.join("");
}

function prepareKv(model) {
  const configs = [configOf(model, true)].concat(model.twins.map((t) => configOf(t, false)));
  configs.sort((x, y) => y.kvHeads - x.kvHeads); // MHA, GQA, MQA from left to right
  let max = 1;
  for (const c of configs) for (let i = 0; i <= model.length; i++) max = Math.max(max, c.bytesAt(i));
  return { configs, max };
}

registerView("kvbytes", {
  init(stage, model) {
    model.rmemKv = prepareKv(model);
  },
  render(stage, model, i) {
    const data = model.rmemKv || (model.rmemKv = prepareKv(model));
    const cards = data.configs.map((c) => {
      const st = c.m.at(i);
      const bytes = c.bytesAt(i);
      const h = (100 * bytes) / data.max;
      return `<figure class="pl-rm-kvcard${c.isMain ? " pl-rm-main" : ""}" data-config="${esc(c.name)}" data-bytes="${bytes}" data-per-token="${c.perToken}">` +
        `<figcaption><b>${esc(c.name)}</b>${c.isMain ? ` <span class="pl-rm-sub">(diese Seite)</span>` : ""}<br>` +
        `<span class="pl-rm-sub">${esc(c.heads)} Query-Köpfe, ${esc(c.kvHeads)} K/V-${c.kvHeads === 1 ? "Kopf" : "Köpfe"}</span></figcaption>` +
        headsSvg(c) +
        `<div class="pl-rm-kvbar" aria-hidden="true"><span class="pl-rm-kvfill" style="height:${h.toFixed(2)}%"></span></div>` +
        `<p class="pl-rm-kvval"><b class="pl-rm-kvbytes">${fmt.num(bytes)}</b> Byte</p>` +
        `<p class="pl-rm-kvsmall">${fmt.num(st.end.blocks_used)} Blöcke × ${esc(c.B)} Plätze</p>` +
        `<p class="pl-rm-kvsmall">je Token: <b class="pl-rm-kvtok">${fmt.num(c.perToken)}</b> Byte</p></figure>`;
    }).join("");
    const first = data.configs[0];
    stage.innerHTML = `<div class="pl-rm pl-rm-kv"><div class="pl-rm-kvcards" style="--k:${data.configs.length}">${cards}</div>` +
      `<p class="pl-rm-kvnote"><span class="pl-rm-legendq" aria-hidden="true"></span> Query-Kopf <span class="pl-rm-legendkv" aria-hidden="true"></span> K/V-Kopf · ` +
      `Byte = belegte Blöcke × ${esc(first.B)} Plätze × ${esc(first.layers)} Schichten × 2 (K und V) × K/V-Köpfe × ${esc(first.headDim)} Zahlen × ${esc(first.per)} Byte</p></div>`;
    const blocks = data.configs.map((c) => c.m.at(i).end.blocks_used);
    const lead = i === 0 ? "Vor dem ersten Schritt" : `Nach Schritt ${i}`;
    const same = blocks.every((b) => b === blocks[0]) ? `${lead} belegen alle ${plural(blocks[0], "Block", "Blöcke")}` : `${lead}`;
    return `${same}; der Cache hält ${data.configs.map((c) => `bei ${c.name} ${fmt.num(c.bytesAt(i))} Byte`).join(", ")}. ` +
      `Je Token: ${data.configs.map((c) => `${c.name} ${fmt.num(c.perToken)}`).join(", ")} Byte.`;
  },
});
