// Views for the scheduling pages' recorded runs (continuous batching, TTFT, prefill), drawn by
// static/js/replay/core.js: "slots" (who ran what in which engine step, beside the static-batching twin),
// "ttft" (each request's wait, prefill and token rhythm in the measured milliseconds) and "prefill"
// (the running-mean example in one pass or in chunks; a long prompt's chunks sharing the token
// budget with decodes). Everything a view needs is derived once per trace; a render only builds
// strings, so stepping a 16-request, 216-step replay stays far below a frame.
import { fmt, registerView } from "./core.js";

const esc = fmt.esc;
const LABEL_W = 46; // room for row labels such as "r15" or "kurz 3"
let uid = 0;

// ---- shared ----------------------------------------------------------------------------

const memo = new WeakMap();
function derived(m, key, make) {
  let slot = memo.get(m);
  if (!slot) memo.set(m, (slot = {}));
  if (!(key in slot)) slot[key] = make(m);
  return slot[key];
}

const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
function median(xs) {
  if (!xs.length) return NaN;
  const s = xs.slice().sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2;
}
const list = (xs) => (xs.length ? xs.join(", ") : "–");
const steps = (k) => `${fmt.num(k)} ${k === 1 ? "Schritt" : "Schritten"}`;
const tokens = (k, word) => `${k} ${word}${k === 1 ? "" : "s"}`;
const n1 = (x) => fmt.num(x, Number.isInteger(x) ? 0 : 2);

function policyName(m) {
  return m.trace.config.policy === "static" ? "Feste Gruppe (statisches Batching)" : "Continuous Batching";
}

const policyShort = (m) => (m.trace.config.policy === "static" ? "Feste Gruppe" : "Continuous");

// Width of the stage, kept current so figures are laid out for the screen they are on (text
// stays at 12 px; only the step scale shrinks on a phone).
function track(stage, model, view) {
  stage.plrsWidth = stage.clientWidth || 680;
  if (typeof ResizeObserver !== "function") return;
  new ResizeObserver(() => {
    const w = stage.clientWidth;
    if (!w || Math.abs(w - stage.plrsWidth) < 12) return;
    stage.plrsWidth = w;
    if (stage.plrsIndex !== undefined) view.render(stage, model, stage.plrsIndex);
  }).observe(stage);
}

// Patterns carry the meaning besides colour (colour-blind safe): hatched = prompt work,
// solid = decode, dotted = waiting. Ids are per panel; colours come from CSS classes.
function defs(p) {
  return `<svg class="pl-rs-defs" width="0" height="0" aria-hidden="true" focusable="false"><defs>
<pattern id="${p}-pre" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" class="pl-rs-pat-pre-bg"/><rect width="2.4" height="6" class="pl-rs-pat-pre-fg"/></pattern>
<pattern id="${p}-chunk" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(-45)"><rect width="6" height="6" class="pl-rs-pat-chunk-bg"/><rect width="2" height="6" class="pl-rs-pat-pre-fg"/></pattern>
<pattern id="${p}-other" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(-45)"><rect width="6" height="6" class="pl-rs-pat-other-bg"/><rect width="2" height="6" class="pl-rs-pat-other-fg"/></pattern>
<pattern id="${p}-wait" width="5" height="5" patternUnits="userSpaceOnUse"><rect width="5" height="5" class="pl-rs-pat-wait-bg"/><circle cx="2.5" cy="2.5" r="1" class="pl-rs-pat-wait-fg"/></pattern>
</defs></svg>`;
}
const FILL = { pre: "pre", chunk: "chunk", wait: "wait", other: "other" };
const fillAttr = (p, kind) => (FILL[kind] ? ` fill="url(#${p}-${FILL[kind]})"` : "");

function swatch(p, kind) {
  return `<svg class="pl-rs-swatch" width="22" height="14" aria-hidden="true"><rect x="0.5" y="0.5" width="21" height="13" rx="2" class="pl-rs-k-${kind}"${fillAttr(p, kind)}/></svg>`;
}

function niceTick(pxPerUnit, minPx, choices) {
  for (const c of choices) if (c * pxPerUnit >= minPx) return c;
  return choices[choices.length - 1];
}

// ---- the schedule of one trace: per request and step what it did ---------------------------

const KIND = { prefill: "pre", prefill_chunk: "chunk", decode: "dec" };
const KIND_LABEL = { pre: "Prefill", chunk: "Prefill-Stück", dec: "Decode", wait: "wartet" };
const KIND_SHORT = { pre: "P", chunk: "S", dec: "D", wait: "" };

function schedule(m) {
  return derived(m, "schedule", () => {
    const last = m.states[m.n];
    const rows = m.ids.map((id) => ({
      id, arrival: m.requests[id].arrival_step, promptLen: m.requests[id].prompt.length,
      cells: new Array(m.n).fill(null), emits: [],
      admitted: last.admittedAt[id], first: last.firstTokenAt[id], finished: last.finishedAt[id],
    }));
    const byId = {};
    rows.forEach((r) => (byId[r.id] = r));
    const perStep = []; // per step: [{seq, kind, from, to, tokens}]
    for (let s = 0; s < m.n; s++) {
      const work = [];
      for (const e of m.states[s + 1].events) {
        if (e.type === "schedule") {
          const c = { seq: e.seq, kind: KIND[e.kind] || "dec", from: e.positions[0], to: e.positions[1], tokens: e.num_tokens };
          byId[e.seq].cells[s] = c;
          work.push(c);
        } else if (e.type === "emit") byId[e.seq].emits.push(s);
      }
      perStep.push(work);
    }
    for (const row of rows) {
      const end = row.finished === undefined ? m.n : row.finished + 1;
      for (let s = row.arrival; s < end; s++) if (!row.cells[s]) row.cells[s] = { kind: "wait" };
      row.segs = [];
      row.cells.forEach((c, s) => {
        if (!c) return;
        const prev = row.segs[row.segs.length - 1];
        if (prev && prev.kind === c.kind && prev.to === s) prev.to = s + 1;
        else row.segs.push({ kind: c.kind, from: s, to: s + 1 });
      });
      // latency in steps: from arrival to the end of the step with the last token
      row.latency = row.finished === undefined ? null : row.finished + 1 - row.arrival;
    }
    const finished = rows.filter((r) => r.finished !== undefined);
    return {
      rows, byId, perStep,
      makespan: finished.length === rows.length ? Math.max(...finished.map((r) => r.finished + 1)) : null,
      meanLatency: mean(finished.map((r) => r.latency)),
    };
  });
}

// ---- view "slots": a Gantt chart per strategy on one step scale ---------------------------

function slotsFigure(p, m, sch, i, L, width) {
  const ii = Math.min(i, m.n);
  const rows = sch.rows;
  const cw = Math.max(1, Math.min(56, (width - LABEL_W - 10) / L));
  const big = cw >= 18;
  const rh = big ? 28 : rows.length > 8 ? 14 : 18;
  const AX = 20;
  const W = Math.ceil(LABEL_W + L * cw + 10);
  const H = AX + rows.length * rh + 6;
  const x = (s) => LABEL_W + s * cw;
  const out = [];
  out.push(`<svg class="pl-rs-svg pl-rs-gantt" data-trace="${esc(m.name)}" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(`${policyName(m)}: Zeitplan der Anfragen bis Schritt ${ii}`)}">`);
  // step axis: boundaries between steps, so "2 bis 4" reads off the bar's ends
  const every = niceTick(cw, 10 + 7 * String(L).length, [1, 2, 5, 10, 20, 25, 50, 100]); // room for the widest label
  for (let s = 0; s <= L; s += every) {
    out.push(`<line class="pl-rs-grid" x1="${x(s)}" y1="${AX - 4}" x2="${x(s)}" y2="${H - 4}"/>`);
    out.push(`<text class="pl-rs-tick" x="${x(s)}" y="${AX - 7}" text-anchor="middle">${s}</text>`);
  }
  // this trace's end, once the clock runs past it (the twin may run longer)
  if (m.n < L) out.push(`<line class="pl-rs-end" x1="${x(m.n)}" y1="${AX - 4}" x2="${x(m.n)}" y2="${H - 4}"/>`);
  if (ii > 0 && i <= m.n) {
    out.push(`<rect class="pl-rs-now" x="${x(ii - 1)}" y="${AX - 3}" width="${Math.max(cw, 3)}" height="${rows.length * rh + 4}"/>`);
  }
  rows.forEach((row, r) => {
    const y = AX + r * rh;
    const label = row.id.length > 6 ? row.id.slice(0, 6) : row.id;
    out.push(`<text class="pl-rs-label" x="${LABEL_W - 6}" y="${y + rh / 2 + 4}" text-anchor="end">${esc(label)}</text>`);
    out.push(`<line class="pl-rs-row" x1="${LABEL_W}" y1="${y + rh}" x2="${x(L)}" y2="${y + rh}"/>`);
    if (row.arrival < ii) {
      out.push(`<path class="pl-rs-arrive" d="M${x(row.arrival)} ${y + 2}v${rh - 4}"/>`);
    }
    for (const seg of row.segs) {
      if (seg.from >= ii) break;
      const to = Math.min(seg.to, ii);
      const what = KIND_LABEL[seg.kind];
      const tip = to - seg.from === 1 ? `${row.id}, Schritt ${seg.from}: ${what}` : `${row.id}, Schritte ${seg.from} bis ${to - 1}: ${what}`;
      out.push(`<rect class="pl-rs-k-${seg.kind}" data-seq="${esc(row.id)}" data-kind="${seg.kind}" data-from="${seg.from}" data-to="${to}"` +
        ` x="${x(seg.from) + 0.5}" y="${y + 3}" width="${Math.max(0.8, (to - seg.from) * cw - 1)}" height="${rh - 6}"${fillAttr(p, seg.kind)}><title>${esc(tip)}</title></rect>`);
      if (big && KIND_SHORT[seg.kind]) {
        for (let s = seg.from; s < to; s++) {
          out.push(`<text class="pl-rs-cell pl-rs-cell-${seg.kind}" x="${x(s) + cw / 2}" y="${y + rh / 2 + 4}" text-anchor="middle">${KIND_SHORT[seg.kind]}</text>`);
        }
      }
    }
    if (row.finished !== undefined && row.finished < ii) {
      const fx = x(row.finished + 1);
      out.push(`<path class="pl-rs-finish" d="M${fx} ${y + 1}v${rh - 2}"/>`);
      if (big) out.push(`<text class="pl-rs-check" x="${fx + 3}" y="${y + rh / 2 + 4}">✓</text>`);
    }
  });
  if (i <= m.n) out.push(`<path class="pl-rs-clock" d="M${x(ii)} ${AX - 4}V${H - 2}"/>`);
  out.push("</svg>");
  return out.join("");
}

function slotsBlock(p, m, i, L, width) {
  const sch = schedule(m);
  const ii = Math.min(i, m.n);
  const work = ii > 0 && i <= m.n ? sch.perStep[ii - 1] : [];
  const running = work.map((c) => c.seq);
  const last = m.at(ii);
  const waiting = sch.rows.filter((r) => r.arrival < ii && !(r.id in last.finishedAt) && !running.includes(r.id)).map((r) => r.id);
  const done = sch.rows.filter((r) => r.id in last.finishedAt).map((r) => r.id);
  let now;
  if (ii === 0) now = "Noch kein Schritt gerechnet.";
  else if (i > m.n) now = `Fertig nach ${steps(m.n)}.`;
  else now = `Schritt ${ii - 1}: im Batch ${list(running)} · wartet ${list(waiting)} · fertig ${done.length} von ${sch.rows.length}`;
  const cfg = m.trace.config;
  return {
    html: `<figure class="pl-rs-timeline" data-trace="${esc(m.name)}" data-policy="${esc(cfg.policy)}">` +
      `<figcaption><strong>${esc(policyName(m))}</strong> <span class="pl-rs-muted">· höchstens ${esc(cfg.max_num_seqs)} Anfragen zugleich, ${esc(cfg.max_num_batched_tokens)} Tokens pro Schritt</span><br>` +
      `<span class="pl-rs-now-text">${esc(now)}</span></figcaption>` +
      `<div class="pl-rs-scroll">${slotsFigure(p, m, sch, i, L, width)}</div></figure>`,
    sentence: `${policyName(m)}: ${ii === 0 ? "noch nichts gerechnet" : i > m.n ? `fertig nach ${steps(m.n)}` : `im Batch ${list(running)}, wartend ${list(waiting)}, fertig ${list(done)}`}`,
    done: done.length,
  };
}

function slotsStats(models, i) {
  const rows = models.map((m) => {
    const sch = schedule(m);
    const doneNow = sch.rows.filter((r) => r.finished !== undefined && r.finished < Math.min(i, m.n)).length;
    return `<tr data-trace="${esc(m.name)}"><th scope="row">${esc(policyShort(m))}</th>` +
      `<td data-col="makespan">${sch.makespan === null ? "–" : `${fmt.num(sch.makespan)} Schritte`}</td>` +
      `<td data-col="latency">${isNaN(sch.meanLatency) ? "–" : `${n1(sch.meanLatency)} Schritte`}</td>` +
      `<td data-col="done">${doneNow} von ${sch.rows.length}</td></tr>`;
  });
  return `<p class="pl-rs-note">Ganze Aufzeichnung in Engine-Schritten. Makespan: bis die letzte Anfrage fertig ist; Latenz: von der Ankunft einer Anfrage bis zu ihrem letzten Token.</p>` +
    `<div class="pl-rs-scroll"><table class="pl-rs-table pl-rs-stats">` +
    `<thead><tr><th scope="col">Strategie</th><th scope="col">Makespan</th>` +
    `<th scope="col">mittlere Latenz</th><th scope="col">jetzt fertig</th></tr></thead>` +
    `<tbody>${rows.join("")}</tbody></table></div>`;
}

registerView("slots", {
  init(stage, model) {
    const p = `plrs${++uid}`;
    stage.plrsId = p;
    stage.innerHTML = defs(p) + '<div class="pl-rs-body"></div>' +
      `<p class="pl-rs-legend">${swatch(p, "pre")} Prefill (P) ${swatch(p, "chunk")} Prefill-Stück (S) ${swatch(p, "dec")} Decode (D) ` +
      `${swatch(p, "wait")} wartet <span class="pl-rs-legend-mark pl-rs-legend-arrive" aria-hidden="true"></span> Ankunft ` +
      `<span class="pl-rs-legend-mark pl-rs-legend-finish" aria-hidden="true"></span> fertig · Die Zahlen an der Achse sind die Grenzen zwischen den Schritten; ` +
      `der umrahmte Schritt ist der gerade gerechnete.</p>`;
    track(stage, model, this);
  },
  render(stage, model, i) {
    stage.plrsIndex = i;
    const models = [model].concat(model.twins);
    const width = stage.plrsWidth || 680;
    const blocks = models.map((m) => slotsBlock(stage.plrsId, m, i, model.length, width));
    stage.querySelector(".pl-rs-body").innerHTML = blocks.map((b) => b.html).join("") + slotsStats(models, i);
    return `Schritt ${i} von ${model.length}. ` + blocks.map((b) => b.sentence).join("; ") + ".";
  },
});

// ---- view "ttft": queue wait, prefill and token gaps in measured milliseconds -----------------

function latencies(m) {
  return derived(m, "ttft", () => {
    const T = (k) => m.states[Math.max(0, Math.min(m.n, k))].time; // seconds before step k starts
    const rows = schedule(m).rows.map((r) => {
      const tokens = r.emits.map((s) => T(s + 1)); // a step's tokens are there at its end
      const o = { id: r.id, arrival: r.arrival, first: r.first, admitted: r.admitted, emits: r.emits, tokens };
      o.tA = T(r.arrival);
      if (r.admitted !== undefined) o.tS = T(r.admitted);
      if (r.first !== undefined) {
        o.tF = T(r.first + 1);
        o.ttft = o.tF - o.tA;
        o.queue = o.tS - o.tA;
        o.prefill = o.tF - o.tS;
      }
      o.gaps = tokens.slice(1).map((t, j) => t - tokens[j]);
      o.meanGap = o.gaps.length ? mean(o.gaps) : null;
      return o;
    });
    return { rows, T, total: T(m.n) };
  });
}

function ttftFigure(p, m, lat, i, tMax, width) {
  const ii = Math.min(i, m.n);
  const now = lat.T(ii);
  const rows = lat.rows;
  const rh = 14;
  const AX = 20;
  const plotW = Math.max(220, width - LABEL_W - 14);
  const W = Math.ceil(LABEL_W + plotW + 14);
  const H = AX + rows.length * rh + 6;
  const x = (t) => LABEL_W + (t / tMax) * plotW;
  const out = [`<svg class="pl-rs-svg pl-rs-ttft-fig" data-trace="${esc(m.name)}" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(`${policyName(m)}: Wartezeit, Prefill und Tokens jeder Anfrage in Millisekunden`)}">`];
  const tickMs = niceTick(plotW / (tMax * 1000), 44, [0.5, 1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000]);
  for (let t = 0; t <= tMax * 1000 + 1e-9; t += tickMs) {
    out.push(`<line class="pl-rs-grid" x1="${x(t / 1000)}" y1="${AX - 4}" x2="${x(t / 1000)}" y2="${H - 4}"/>`);
    out.push(`<text class="pl-rs-tick" x="${x(t / 1000)}" y="${AX - 7}" text-anchor="middle">${fmt.num(t, tickMs < 1 ? 1 : 0)}</text>`);
  }
  out.push(`<text class="pl-rs-tick" x="${LABEL_W - 6}" y="${AX - 7}" text-anchor="end">ms</text>`);
  rows.forEach((r, k) => {
    const y = AX + k * rh;
    const fresh = r.first !== undefined && r.first === ii - 1 && i <= m.n;
    out.push(`<text class="pl-rs-label${fresh ? " pl-rs-fresh-label" : ""}" x="${LABEL_W - 6}" y="${y + rh / 2 + 4}" text-anchor="end">${esc(r.id)}</text>`);
    if (r.arrival >= ii) return;
    const qEnd = r.admitted !== undefined && r.admitted < ii ? r.tS : now;
    if (qEnd > r.tA) out.push(`<rect class="pl-rs-k-wait" x="${x(r.tA)}" y="${y + 3}" width="${x(qEnd) - x(r.tA)}" height="${rh - 6}"${fillAttr(p, "wait")}/>`);
    if (r.admitted !== undefined && r.admitted < ii) {
      const pEnd = r.first !== undefined && r.first < ii ? r.tF : now;
      out.push(`<rect class="pl-rs-k-pre" x="${x(r.tS)}" y="${y + 2}" width="${Math.max(0.8, x(pEnd) - x(r.tS))}" height="${rh - 4}"${fillAttr(p, "pre")}/>`);
    }
    if (r.first !== undefined && r.first < ii) {
      const shown = r.emits.filter((s) => s < ii).length;
      const lastT = r.tokens[shown - 1];
      out.push(`<rect class="pl-rs-decode-line" x="${x(r.tF)}" y="${y + rh / 2 - 1}" width="${Math.max(0, x(lastT) - x(r.tF))}" height="2"/>`);
      let ticks = "";
      for (let j = 1; j < shown; j++) ticks += `M${x(r.tokens[j]).toFixed(1)} ${y + 3}v${rh - 6}`;
      if (ticks) out.push(`<path class="pl-rs-token" d="${ticks}"/>`);
      out.push(`<path class="pl-rs-first${fresh ? " pl-rs-fresh" : ""}" d="M${x(r.tF)} ${y + 1}l${rh / 2 - 1} ${rh / 2 - 1}l${-(rh / 2 - 1)} ${rh / 2 - 1}l${-(rh / 2 - 1)} ${-(rh / 2 - 1)}z"><title>${esc(`${r.id}: erstes Token nach ${fmt.ms(r.ttft, 2)}`)}</title></path>`);
    }
  });
  out.push(`<path class="pl-rs-clock" d="M${x(now)} ${AX - 4}V${H - 2}"/>`);
  out.push("</svg>");
  return out.join("");
}

const msCell = (s) => (s === undefined || s === null ? "…" : fmt.ms(s, 2));

function ttftStats(m, lat, i) {
  const ii = Math.min(i, m.n);
  const got = lat.rows.filter((r) => r.first !== undefined && r.first < ii);
  const ttfts = got.map((r) => r.ttft);
  const gaps = [];
  lat.rows.forEach((r) => r.emits.forEach((s, j) => { if (j > 0 && s < ii) gaps.push(r.gaps[j - 1]); }));
  const v = (x) => (isNaN(x) ? "…" : fmt.ms(x, 2));
  return `<tr data-trace="${esc(m.name)}"><th scope="row">${esc(policyShort(m))}</th><td data-col="mean">${v(mean(ttfts))}</td>` +
    `<td data-col="median">${v(median(ttfts))}</td><td data-col="max">${v(ttfts.length ? Math.max(...ttfts) : NaN)}</td>` +
    `<td data-col="gap">${v(mean(gaps))}</td><td data-col="count">${got.length} von ${lat.rows.length}</td></tr>`;
}

registerView("ttft", {
  init(stage, model) {
    const p = `plrs${++uid}`;
    stage.plrsId = p;
    const rec = model.trace.recorded || {};
    stage.innerHTML = defs(p) +
      `<p class="pl-rs-note">Alle Zeiten in Millisekunden, <strong>gemessen auf ${esc(rec.device || "unbekannt")}</strong> (Backend ${esc(rec.backend || "?")}); ` +
      `auf einem anderen Rechner sind sie anders. Die Uhr addiert die gemessenen Schrittzeiten: Die Tokens eines Schritts stehen an seinem Ende bereit.</p>` +
      '<div class="pl-rs-body"></div>' +
      `<p class="pl-rs-legend">${swatch(p, "wait")} Warteschlange (Ankunft bis zur ersten Einplanung) ${swatch(p, "pre")} Prefill (bis zum ersten Token) ` +
      `<span class="pl-rs-legend-mark pl-rs-legend-first" aria-hidden="true"></span> erstes Token ` +
      `<span class="pl-rs-legend-mark pl-rs-legend-token" aria-hidden="true"></span> weitere Tokens (Abstand = Inter-Token-Latenz)</p>`;
    track(stage, model, this);
  },
  render(stage, model, i) {
    stage.plrsIndex = i;
    const p = stage.plrsId;
    const width = stage.plrsWidth || 680;
    const models = [model].concat(model.twins);
    const lats = models.map(latencies);
    const tMax = Math.max(...lats.map((l) => l.total)) || 1e-3;
    const main = lats[0];
    const ii = Math.min(i, model.n);
    const fresh = i <= model.n && ii > 0 ? main.rows.filter((r) => r.first === ii - 1) : [];
    let head;
    if (ii === 0) head = "Noch kein Schritt gerechnet.";
    else if (i > model.n) head = `${policyName(model)} ist fertig; der Zwilling läuft weiter.`;
    else {
      head = `Schritt ${ii - 1} dauerte ${fmt.ms(model.at(ii).wall, 2)} (Uhr: ${fmt.ms(main.T(ii), 2)}). `;
      head += fresh.length ? `Erstes Token für ${fresh.map((r) => `${r.id} (TTFT ${fmt.ms(r.ttft, 2)})`).join(", ")}.` : "Keine Anfrage bekam in diesem Schritt ihr erstes Token.";
    }
    const figs = models.map((m, k) => `<figure class="pl-rs-timeline" data-trace="${esc(m.name)}"><figcaption><strong>${esc(policyName(m))}</strong>` +
      ` <span class="pl-rs-muted">· Uhr ${fmt.ms(lats[k].T(Math.min(i, m.n)), 2)} von ${fmt.ms(lats[k].total, 2)}</span></figcaption>` +
      `<div class="pl-rs-scroll">${ttftFigure(p, m, lats[k], i, tMax, width)}</div></figure>`);
    const twin = lats[1];
    const rows = main.rows.map((r) => {
      const known = r.first !== undefined && r.first < ii;
      const tw = twin && twin.rows.find((o) => o.id === r.id);
      const twKnown = tw && tw.first !== undefined && tw.first < Math.min(i, models[1].n);
      const f = fresh.includes(r);
      return `<tr data-seq="${esc(r.id)}"${f ? ' class="pl-rs-fresh-row"' : ""}><th scope="row">${esc(r.id)}${f ? " ◆" : ""}</th><td data-col="arrival">${r.arrival}</td>` +
        `<td data-col="queue">${known ? msCell(r.queue) : "…"}</td><td data-col="prefill">${known ? msCell(r.prefill) : "…"}</td>` +
        `<td data-col="ttft"><strong>${known ? msCell(r.ttft) : "…"}</strong></td><td data-col="first-at">${known ? `Schritt ${r.first} · ${msCell(r.tF)}` : "…"}</td>` +
        `<td data-col="gap">${known && r.emits.filter((s) => s < ii).length > 1 ? msCell(mean(r.gaps.slice(0, r.emits.filter((s) => s < ii).length - 1))) : "…"}</td>` +
        (tw ? `<td data-col="twin-ttft">${twKnown ? msCell(tw.ttft) : "…"}</td>` : "") + "</tr>";
    });
    const table = `<p class="pl-rs-note">Je Anfrage (${esc(policyName(model))}${twin ? "; ganz rechts die TTFT derselben Anfrage mit fester Gruppe" : ""}). „…“ heißt: noch nicht so weit.</p>` +
      `<div class="pl-rs-scroll"><table class="pl-rs-table pl-rs-requests">` +
      `<thead><tr><th scope="col">Anfrage</th><th scope="col">Ankunft (Schritt)</th><th scope="col">Warten</th><th scope="col">Prefill</th>` +
      `<th scope="col">TTFT</th><th scope="col">erstes Token bei</th><th scope="col">Ø Abstand</th>${twin ? `<th scope="col">TTFT ${esc(policyShort(models[1]))}</th>` : ""}</tr></thead>` +
      `<tbody>${rows.join("")}</tbody></table></div>`;
    const stats = `<p class="pl-rs-note">TTFT der Anfragen, die ihr erstes Token schon haben, und der mittlere Abstand zwischen zwei Tokens derselben Anfrage:</p>` +
      `<div class="pl-rs-scroll"><table class="pl-rs-table pl-rs-stats">` +
      `<thead><tr><th scope="col">Strategie</th><th scope="col">TTFT Mittel</th><th scope="col">Median</th><th scope="col">Maximum</th>` +
      `<th scope="col">Ø Tokenabstand</th><th scope="col">Anfragen</th></tr></thead><tbody>${models.map((m, k) => ttftStats(m, lats[k], i)).join("")}</tbody></table></div>`;
    stage.querySelector(".pl-rs-body").innerHTML = `<p class="pl-rs-now-text" data-fresh="${esc(fresh.map((r) => r.id).join(","))}">${esc(head)}</p>` + figs.join("") + stats + table;
    return `Schritt ${i} von ${model.length}. ${head}`;
  },
});

// ---- view "prefill" ---------------------------------------------------------------------------

// A value as the article writes it: exact fractions with small denominators, else decimals.
function exact(v) {
  for (let d = 1; d <= 12; d++) {
    const n = Math.round(v * d);
    if (Math.abs(v * d - n) < 1e-9) return d === 1 ? fmt.num(n) : `${n}/${d} ≈ ${fmt.num(v, 3)}`;
  }
  return fmt.num(v, 3);
}

function outputsOf(m) {
  return derived(m, "outputs", () => {
    const out = [];
    m.states.forEach((st, k) => st.events.forEach((e) => { if (e.type === "output") out.push({ step: k - 1, pos: e.position, value: e.value }); }));
    return out;
  });
}

const isMean = (m) => m.trace.steps.some((s) => s.events.some((e) => e.type === "output"));

function meanBlock(p, m, i) {
  const ii = Math.min(i, m.n);
  const seq = m.ids[0];
  const values = m.requests[seq].prompt;
  const n = values.length;
  const sch = schedule(m);
  const cur = ii > 0 && i <= m.n ? sch.perStep[ii - 1].find((c) => c.seq === seq) : null;
  const outs = outputsOf(m).filter((o) => o.step < ii);
  const byPos = {};
  outs.forEach((o) => (byPos[o.pos] = o));
  const computed = m.at(ii).computed[seq] || 0;
  const c = 40;
  const LX = 64, TY = 40;
  const W = LX + n * c + 110, H = TY + n * c + 8;
  const s = [`<svg class="pl-rs-svg pl-rs-causal" data-trace="${esc(m.name)}" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc("Kausale Sichtbarkeit: Zeile = Position, deren Ausgabe gerechnet wird; Spalte = Position, deren K/V sie liest")}">`];
  s.push(`<text class="pl-rs-tick" x="${LX + (n * c) / 2}" y="12" text-anchor="middle">liest K/V von Position (Wert)</text>`);
  for (let j = 0; j < n; j++) s.push(`<text class="pl-rs-tick" x="${LX + j * c + c / 2}" y="${TY - 8}" text-anchor="middle">${j} (${esc(values[j])})</text>`);
  s.push(`<text class="pl-rs-tick" x="${W - 104}" y="${TY - 8}">Ausgabe</text>`);
  for (let r = 0; r < n; r++) {
    const y = TY + r * c;
    const inStep = cur && r >= cur.from && r < cur.to;
    const done = byPos[r] !== undefined;
    s.push(`<text class="pl-rs-label${inStep ? " pl-rs-fresh-label" : ""}" x="${LX - 8}" y="${y + c / 2 + 4}" text-anchor="end">Pos. ${r}</text>`);
    for (let j = 0; j < n; j++) {
      const X = LX + j * c;
      let kind, text;
      if (j > r) { kind = "mask"; text = "×"; }
      else if (inStep) { kind = j < cur.from ? "cache" : "new"; text = String(values[j]); }
      else if (done) { kind = "done"; text = String(values[j]); }
      else { kind = "todo"; text = ""; }
      const fill = kind === "new" ? fillAttr(p, "pre") : "";
      s.push(`<rect class="pl-rs-cv pl-rs-cv-${kind}" data-row="${r}" data-col="${j}" data-kind="${kind}" x="${X + 1}" y="${y + 1}" width="${c - 2}" height="${c - 2}" rx="3"${fill}/>`);
      if (text) s.push(`<text class="pl-rs-cvt pl-rs-cvt-${kind}" x="${X + c / 2}" y="${y + c / 2 + 5}" text-anchor="middle">${text}</text>`);
    }
    if (done) s.push(`<text class="pl-rs-out${inStep ? " pl-rs-fresh-label" : ""}" data-pos="${r}" x="${W - 104}" y="${y + c / 2 + 5}">= ${esc(exact(byPos[r].value))}</text>`);
  }
  s.push("</svg>");
  // the cache strip: which positions have K/V after this step
  const cache = [];
  for (let j = 0; j < n; j++) {
    const kind = j >= computed ? "todo" : cur && j >= cur.from ? "new" : "cache";
    cache.push(`<span class="pl-rs-kv pl-rs-kv-${kind}" data-pos="${j}" data-kind="${kind}">${j}</span>`);
  }
  let text;
  if (ii === 0) text = "Noch nichts gerechnet.";
  else if (!cur) text = `Fertig nach ${steps(m.n)}.`;
  else {
    const reads = cur.from ? `liest Position${cur.from > 1 ? "en" : ""} 0${cur.from > 1 ? `–${cur.from - 1}` : ""} aus dem Cache` : "liest nichts aus dem Cache";
    text = `Schritt ${ii - 1}: rechnet Position${cur.to - cur.from > 1 ? "en" : ""} ${cur.from}${cur.to - cur.from > 1 ? `–${cur.to - 1}` : ""} neu und ${reads}.`;
  }
  const finished = seq in m.at(ii).finishedAt;
  const cfg = m.trace.config;
  const html = `<figure class="pl-rs-timeline pl-rs-mean" data-trace="${esc(m.name)}"><figcaption><strong>${esc(m.trace.scenario.title)}</strong>` +
    ` <span class="pl-rs-muted">· Token-Budget ${cfg.max_num_batched_tokens} pro Schritt</span><br><span class="pl-rs-now-text">${esc(text)}</span></figcaption>` +
    `<div class="pl-rs-scroll">${s.join("")}</div>` +
    `<p class="pl-rs-kvrow"><span class="pl-rs-muted">K/V im Cache nach diesem Schritt:</span> ${cache.join("")}${finished ? ' <span class="pl-rs-muted">(danach ist die Anfrage fertig, und die Engine gibt ihre Blöcke frei)</span>' : ""}</p>` +
    `<p class="pl-rs-outputs" data-trace="${esc(m.name)}">Ausgaben: ${outs.length ? outs.sort((a, b) => a.pos - b.pos).map((o) => `<span data-pos="${o.pos}">o<sub>${o.pos}</sub> = ${esc(exact(o.value))}</span>`).join("; ") : "noch keine"}</p></figure>`;
  return { html, outs, text, finished };
}

function interleavedBlock(p, m, i, width) {
  const ii = Math.min(i, m.n);
  const sch = schedule(m);
  const budget = m.trace.config.max_num_batched_tokens;
  const long = sch.rows.reduce((a, b) => (b.promptLen > a.promptLen ? b : a));
  const L = m.n;
  const bw = Math.max(10, Math.min(40, (width - 60) / L - 4));
  const unit = 16;
  const LX = 40, TY = 16;
  const W = Math.ceil(LX + L * (bw + 4) + 10), H = TY + budget * unit + 34;
  const s = [`<svg class="pl-rs-svg pl-rs-budget" data-trace="${esc(m.name)}" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(`Token-Budget ${budget} je Schritt, aufgeteilt auf Prefill und Decode`)}">`];
  const y0 = TY + budget * unit;
  for (let t = 0; t <= budget; t += budget > 8 ? 4 : 2) {
    s.push(`<line class="pl-rs-grid" x1="${LX}" y1="${y0 - t * unit}" x2="${W - 6}" y2="${y0 - t * unit}"/><text class="pl-rs-tick" x="${LX - 6}" y="${y0 - t * unit + 4}" text-anchor="end">${t}</text>`);
  }
  s.push(`<line class="pl-rs-budgetline" x1="${LX}" y1="${TY}" x2="${W - 6}" y2="${TY}"/>`);
  for (let k = 0; k < L; k++) {
    const X = LX + 2 + k * (bw + 4);
    s.push(`<text class="pl-rs-tick" x="${X + bw / 2}" y="${y0 + 16}" text-anchor="middle">${k}</text>`);
    if (k >= ii) continue;
    const work = sch.perStep[k];
    const parts = [
      ["dec", work.filter((c) => c.kind === "dec").reduce((a, c) => a + c.tokens, 0), "Decode"],
      ["chunk-other", work.filter((c) => c.kind !== "dec" && c.seq !== long.id).reduce((a, c) => a + c.tokens, 0), "Prefill der anderen"],
      ["chunk", work.filter((c) => c.kind !== "dec" && c.seq === long.id).reduce((a, c) => a + c.tokens, 0), `Prefill ${long.id}`],
    ];
    let y = y0;
    for (const [kind, tokens, label] of parts) {
      if (!tokens) continue;
      const h = tokens * unit;
      y -= h;
      const cls = kind === "chunk-other" ? "other" : kind === "chunk" ? "pre" : "dec";
      s.push(`<rect class="pl-rs-k-${cls}" data-step="${k}" data-part="${kind}" data-tokens="${tokens}" x="${X}" y="${y + 0.5}" width="${bw}" height="${h - 1}"${fillAttr(p, cls)}><title>${esc(`Schritt ${k}: ${tokens} ${label}`)}</title></rect>`);
      if (h >= 14 && bw >= 14) s.push(`<text class="pl-rs-barnum" x="${X + bw / 2}" y="${y + h / 2 + 4}" text-anchor="middle">${tokens}</text>`);
    }
    if (k === ii - 1 && i <= m.n) s.push(`<rect class="pl-rs-now" x="${X - 2}" y="${TY - 3}" width="${bw + 4}" height="${budget * unit + 6}"/>`);
  }
  s.push(`<text class="pl-rs-tick" x="${W - 8}" y="${TY - 4}" text-anchor="end">Budget ${budget}</text>`);
  s.push(`<text class="pl-rs-tick" x="${LX}" y="${H - 2}">Schritt</text>`);
  s.push("</svg>");
  // the long prompt's progress, one mark per position, chunks told apart by alternating shade
  const plen = long.promptLen;
  const pw = Math.max(3, Math.min(12, (width - 20) / plen));
  const PW = Math.ceil(plen * pw + 2);
  const prog = [`<svg class="pl-rs-svg pl-rs-progress" width="${PW}" height="22" viewBox="0 0 ${PW} 22" aria-hidden="true">`];
  let chunkNo = 0, doneTo = 0, curChunk = null;
  for (let k = 0; k < ii; k++) {
    const c = long.cells[k];
    if (!c || c.kind === "dec" || c.kind === "wait") continue;
    const cls = k === ii - 1 && i <= m.n ? "pl-rs-prog-now" : chunkNo % 2 ? "pl-rs-prog-b" : "pl-rs-prog-a";
    prog.push(`<rect class="${cls}" data-step="${k}" x="${1 + c.from * pw}" y="2" width="${(c.to - c.from) * pw - 1}" height="18"${cls === "pl-rs-prog-now" ? fillAttr(p, "pre") : ""}><title>${esc(`Schritt ${k}: Positionen ${c.from} bis ${c.to - 1}`)}</title></rect>`);
    chunkNo++;
    doneTo = c.to;
    if (k === ii - 1) curChunk = c;
  }
  prog.push(`<rect class="pl-rs-prog-frame" x="0.5" y="1.5" width="${plen * pw + 1}" height="19"/></svg>`);
  const work = ii > 0 && i <= m.n ? sch.perStep[ii - 1] : [];
  const pre = work.filter((c) => c.kind !== "dec").reduce((a, c) => a + c.tokens, 0);
  const dec = work.filter((c) => c.kind === "dec");
  let text;
  if (ii === 0) text = "Noch kein Schritt gerechnet.";
  else if (i > m.n) text = `Fertig nach ${steps(m.n)}.`;
  else {
    const span = (c) => (c.to - c.from === 1 ? `Position ${c.from}` : `Positionen ${c.from}–${c.to - 1}`);
    text = `Schritt ${ii - 1}: ${tokens(pre, "Prefill-Token")} (${list(work.filter((c) => c.kind !== "dec").map((c) => `${c.seq}: ${span(c)}`))}) + ` +
      `${tokens(dec.length, "Decode-Token")} (${list(dec.map((c) => c.seq))}) = ${pre + dec.length} von ${budget}.`;
  }
  const firstTok = long.first !== undefined && long.first < ii ? ` Erstes Token von „${long.id}“ in Schritt ${long.first}.` : "";
  const progText = `„${long.id}“: ${doneTo} von ${plen} Prompt-Positionen verarbeitet` + (curChunk ? `, in diesem Schritt ${curChunk.from}–${curChunk.to - 1}.` : ".") + firstTok;
  const html = `<figure class="pl-rs-timeline" data-trace="${esc(m.name)}"><figcaption><span class="pl-rs-now-text">${esc(text)}</span></figcaption>` +
    `<div class="pl-rs-scroll">${s.join("")}</div>` +
    `<p class="pl-rs-progress-text" data-done="${doneTo}" data-total="${plen}">${esc(progText)}</p><div class="pl-rs-scroll">${prog.join("")}</div></figure>`;
  return { html, text: `${text} ${progText}` };
}

registerView("prefill", {
  init(stage, model) {
    const p = `plrs${++uid}`;
    stage.plrsId = p;
    const legend = isMean(model)
      ? `${swatch(p, "pre")} K/V in diesem Schritt neu berechnet <span class="pl-rs-legend-box pl-rs-cv-cache"></span> aus dem Cache gelesen ` +
        `<span class="pl-rs-legend-box pl-rs-cv-done"></span> schon früher berechnet <span class="pl-rs-legend-box pl-rs-cv-mask">×</span> Maske: spätere Position, unsichtbar. ` +
        "Positionen zählt die Engine ab 0."
      : `${swatch(p, "pre")} Prefill-Stück des langen Prompts ${swatch(p, "other")} Prefill anderer Anfragen ${swatch(p, "dec")} Decode (1 Token je Anfrage)`;
    stage.innerHTML = defs(p) + '<div class="pl-rs-body"></div>' + `<p class="pl-rs-legend">${legend}</p>`;
    track(stage, model, this);
  },
  render(stage, model, i) {
    stage.plrsIndex = i;
    const p = stage.plrsId;
    const body = stage.querySelector(".pl-rs-body");
    if (!isMean(model)) {
      const b = interleavedBlock(p, model, i, stage.plrsWidth || 680);
      body.innerHTML = b.html;
      return `Schritt ${i} von ${model.length}. ${b.text}`;
    }
    const models = [model].concat(model.twins);
    const blocks = models.map((m) => meanBlock(p, m, i));
    let verdict = "";
    if (blocks.length > 1 && blocks.every((b) => b.finished)) {
      const key = (b) => b.outs.slice().sort((a, c) => a.pos - c.pos).map((o) => o.value);
      const ref = key(blocks[0]);
      const same = blocks.every((b) => { const k = key(b); return k.length === ref.length && k.every((v, j) => Math.abs(v - ref[j]) < 1e-12); });
      verdict = same
        ? `<p class="pl-rs-verdict" data-same="true">✓ Beide Läufe liefern dieselben Ausgaben: ${ref.map(exact).join("; ")}.</p>`
        : `<p class="pl-rs-verdict" data-same="false">Die Läufe liefern verschiedene Ausgaben.</p>`;
    }
    body.innerHTML = `<div class="pl-rs-pair">${blocks.map((b) => b.html).join("")}</div>${verdict}`;
    return `Schritt ${i} von ${model.length}. ` + blocks.map((b, k) => `${models[k].trace.scenario.title}: ${b.text}`).join(" ") +
      (verdict ? " Beide Läufe liefern dieselben Ausgaben." : "");
  },
});
