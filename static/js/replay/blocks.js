// View "blocks" of recorded runs (PagedAttention, prefix caching): the block pool, each sequence's block
// table and this step's block events. Everything a step needs is derived once in init(); render() only
// joins strings, so stepping the largest trace stays far below a frame.
import { fmt, registerView } from "./core.js";
import { derived } from "./derived.js";
import { OPS, OP_LABEL, eventsOf, legend, markSpan, marks, plural, seqInfo, stepTables, strongest, tokenTexts } from "./memory.js";

const esc = fmt.esc;

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
    derived(model, "blocks", prepareBlocks);
  },
  render(stage, model, i) {
    const data = derived(model, "blocks", prepareBlocks);
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
