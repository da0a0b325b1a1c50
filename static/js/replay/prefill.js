// View "prefill" of the scheduling pages (prefill, chunked prefill): the running-mean example in one pass
// or in chunks, and a long prompt's chunks sharing the token budget with decodes.
import { fmt, registerView } from "./core.js";
import { derived } from "./derived.js";
import { schedule } from "./schedule.js";
import { defs, fillAttr, frameAt, frameId, list, steps, swatch, track } from "./schedule-draw.js";

const esc = fmt.esc;
const tokens = (k, word) => `${k} ${word}${k === 1 ? "" : "s"}`;

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
    for (const [kind, count, label] of parts) {
      if (!count) continue;
      const h = count * unit;
      y -= h;
      const cls = kind === "chunk-other" ? "other" : kind === "chunk" ? "pre" : "dec";
      s.push(`<rect class="pl-rs-k-${cls}" data-step="${k}" data-part="${kind}" data-tokens="${count}" x="${X}" y="${y + 0.5}" width="${bw}" height="${h - 1}"${fillAttr(p, cls)}><title>${esc(`Schritt ${k}: ${count} ${label}`)}</title></rect>`);
      if (h >= 14 && bw >= 14) s.push(`<text class="pl-rs-barnum" x="${X + bw / 2}" y="${y + h / 2 + 4}" text-anchor="middle">${count}</text>`);
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
    const p = frameId();
    const legend = isMean(model)
      ? `${swatch(p, "pre")} K/V in diesem Schritt neu berechnet <span class="pl-rs-legend-box pl-rs-cv-cache"></span> aus dem Cache gelesen ` +
        `<span class="pl-rs-legend-box pl-rs-cv-done"></span> schon früher berechnet <span class="pl-rs-legend-box pl-rs-cv-mask">×</span> Maske: spätere Position, unsichtbar. Positionen zählt die Engine ab 0.`
      : `${swatch(p, "pre")} Prefill-Stück des langen Prompts ${swatch(p, "other")} Prefill anderer Anfragen ${swatch(p, "dec")} Decode (1 Token je Anfrage)`;
    stage.innerHTML = `${defs(p)}<div class="pl-rs-body"></div><p class="pl-rs-legend">${legend}</p>`;
    track(stage, model, this, p);
  },
  render(stage, model, i) {
    const { id: p, width } = frameAt(stage, i);
    const body = stage.querySelector(".pl-rs-body");
    if (!isMean(model)) {
      const b = interleavedBlock(p, model, i, width);
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
