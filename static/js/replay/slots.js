// View "slots" of the scheduling pages (continuous batching): a Gantt chart per strategy on one step
// scale – who ran what in which engine step, beside the static-batching twin.
import { fmt, registerView } from "./core.js";
import { schedule } from "./schedule.js";
import { LABEL_W, defs, fillAttr, frameAt, frameId, list, niceTick, policyName, policyShort, steps, swatch, track } from "./schedule-draw.js";

const esc = fmt.esc;
const KIND_LABEL = { pre: "Prefill", chunk: "Prefill-Stück", dec: "Decode", wait: "wartet" };
const KIND_SHORT = { pre: "P", chunk: "S", dec: "D", wait: "" };
const n1 = (x) => fmt.num(x, Number.isInteger(x) ? 0 : 2);

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
    const p = frameId();
    stage.innerHTML = defs(p) + '<div class="pl-rs-body"></div>' +
      `<p class="pl-rs-legend">${swatch(p, "pre")} Prefill (P) ${swatch(p, "chunk")} Prefill-Stück (S) ${swatch(p, "dec")} Decode (D) ` +
      `${swatch(p, "wait")} wartet <span class="pl-rs-legend-mark pl-rs-legend-arrive" aria-hidden="true"></span> Ankunft ` +
      `<span class="pl-rs-legend-mark pl-rs-legend-finish" aria-hidden="true"></span> fertig · Die Zahlen an der Achse sind die Grenzen zwischen den Schritten; ` +
      `der umrahmte Schritt ist der gerade gerechnete.</p>`;
    track(stage, model, this, p);
  },
  render(stage, model, i) {
    const { id, width } = frameAt(stage, i);
    const models = [model].concat(model.twins);
    const blocks = models.map((m) => slotsBlock(id, m, i, model.length, width));
    stage.querySelector(".pl-rs-body").innerHTML = blocks.map((b) => b.html).join("") + slotsStats(models, i);
    return `Schritt ${i} von ${model.length}. ` + blocks.map((b) => b.sentence).join("; ") + ".";
  },
});
