// View "ttft" of the scheduling pages (TTFT): each request's queue wait, prefill and token rhythm in the
// measured milliseconds.
import { fmt, registerView } from "./core.js";
import { derived } from "./derived.js";
import { mean, schedule } from "./schedule.js";
import { LABEL_W, defs, fillAttr, frameAt, frameId, niceTick, policyName, policyShort, swatch, track } from "./schedule-draw.js";

const esc = fmt.esc;

function median(xs) {
  if (!xs.length) return NaN;
  const s = xs.slice().sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2;
}

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
    const p = frameId();
    const rec = model.trace.recorded || {};
    stage.innerHTML = defs(p) +
      `<p class="pl-rs-note">Alle Zeiten in Millisekunden, <strong>gemessen auf ${esc(rec.device || "unbekannt")}</strong> (Backend ${esc(rec.backend || "?")}); ` +
      `auf einem anderen Rechner sind sie anders. Die Uhr addiert die gemessenen Schrittzeiten: Die Tokens eines Schritts stehen an seinem Ende bereit.</p>` +
      '<div class="pl-rs-body"></div>' +
      `<p class="pl-rs-legend">${swatch(p, "wait")} Warteschlange (Ankunft bis zur ersten Einplanung) ${swatch(p, "pre")} Prefill (bis zum ersten Token) ` +
      `<span class="pl-rs-legend-mark pl-rs-legend-first" aria-hidden="true"></span> erstes Token ` +
      `<span class="pl-rs-legend-mark pl-rs-legend-token" aria-hidden="true"></span> weitere Tokens (Abstand = Inter-Token-Latenz)</p>`;
    track(stage, model, this, p);
  },
  render(stage, model, i) {
    const { id: p, width } = frameAt(stage, i);
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
