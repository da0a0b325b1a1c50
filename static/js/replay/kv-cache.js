// View "cache" of recorded runs (Decode, KV cache): how one sequence's KV cache grows, step by step,
// against what a run without a cache would compute.
import { fmt, registerView } from "./core.js";
import { derived } from "./derived.js";
import { BYTES, bytesText, eventsOf, markSpan, plural, seqInfo, stepTables, tokenTexts } from "./memory.js";

const esc = fmt.esc;

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
    derived(model, "cache", prepareCache);
  },
  render(stage, model, i) {
    const data = derived(model, "cache", prepareCache);
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
