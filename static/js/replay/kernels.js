// Replay views for the kernel pages: "tiles" (FlashAttention's online softmax, tile by tile) and
// "speculative" (speculative decoding, one verification round per step). Both read only what the
// trace recorded (tile and verify events); the arithmetic shown (rescaling factors, tile shares,
// acceptance rates) is derived from those numbers, never recomputed from a model.
import { de as num, pct } from "../fmt.js";
import { fmt, registerView, tokenText } from "./core.js";
import { derived } from "./derived.js";

const textsOf = (model) => derived(model, "texts", (m) => tokenText(m.trace));

function register() {
  const { esc, tok } = fmt;

  // ---------------------------------------------------------------- tiles (FlashAttention)

  // Bars of a vector: up for positive, down for negative (sign readable without colour).
  function bars(vec, scale, cls, label) {
    const w = 14, h = 22, gap = 2;
    const width = vec.length * (w + gap);
    const parts = vec.map((x, j) => {
      const len = scale > 0 ? Math.min(1, Math.abs(x) / scale) * (h - 1) : 0;
      const y = x >= 0 ? h - len : h;
      return `<rect class="${x >= 0 ? "plk-pos" : "plk-neg"}" x="${j * (w + gap)}" y="${y.toFixed(2)}" width="${w}" height="${Math.max(len, 0.5).toFixed(2)}"><title>${j + 1}. Komponente: ${num(x, 3)}</title></rect>`;
    });
    return `<svg class="plk-bars ${cls || ""}" viewBox="0 0 ${width} ${2 * h}" width="${width}" height="${2 * h}" role="img" aria-label="${esc(label)}">` +
      `<line class="plk-zero" x1="0" x2="${width}" y1="${h}" y2="${h}"/>${parts.join("")}</svg>`;
  }

  const tiles = {
    init(stage, model) {
      textsOf(model);
    },
    render(stage, model, i) {
      const text = textsOf(model);
      const req = model.trace.workload.requests[0];
      const seq = req.id;
      const tileSize = (model.trace.config.kernel || "").replace(/^tiled_/, "");
      if (i === 0) {
        const keys = req.prompt.map((t, p) => `<span class="plk-key" title="Position ${p}">${esc(tok(text(t)))}</span>`).join("");
        stage.innerHTML = `<div class="plk-tiles"><p class="plk-head">Noch nichts gerechnet. Der Prompt hat ${req.prompt.length} Tokens; ` +
          `Schritt 1 ist sein Prefill, danach folgt je ein Decode-Schritt. In jedem Schritt zeigt die Ansicht, wie die ` +
          `letzte Query ihre Keys in Kacheln zu ${esc(tileSize || "?")} abarbeitet.</p>` +
          `<div class="plk-keys"><div class="plk-tile plk-tile-idle">${keys}</div></div></div>`;
        return `Vor dem ersten Schritt: ${req.prompt.length} Prompt-Tokens, noch keine Kachel gerechnet.`;
      }
      const st = model.at(i);
      const before = model.at(i - 1);
      const events = st.events.filter((e) => e.type === "tile");
      const sched = st.events.find((e) => e.type === "schedule");
      if (!events.length) {
        stage.innerHTML = `<p class="plk-head">In diesem Schritt wurde keine Kachel aufgezeichnet.</p>`;
        return `Schritt ${i}: keine Kachel aufgezeichnet.`;
      }
      const q = events[0].query;
      const nKeys = events[events.length - 1].keys[1];
      const tokens = req.prompt.concat(before.outputs[seq] || []);
      const emitted = st.events.find((e) => e.type === "emit");

      // Per tile: rescaling factor α = e^{m_old − m_new}, the tile's own sum Σ e^{s − m_new} = l − α·l_old,
      // and its share of the final weight (that sum brought to the final maximum, over the final l).
      let mOld = -Infinity, lOld = 0;
      const rows = events.map((e, t) => {
        const alpha = t === 0 ? 0 : Math.exp(mOld - e.m);
        const own = e.l - alpha * lOld;
        const row = { e, t, mOld, lOld, alpha, own, rose: t > 0 && e.m > mOld };
        mOld = e.m; lOld = e.l;
        return row;
      });
      const last = events[events.length - 1];
      rows.forEach((r) => (r.share = (r.own * Math.exp(r.e.m - last.m)) / last.l));
      const uScale = Math.max(1e-12, ...events.flatMap((e) => e.u.map(Math.abs)));
      const ratio = last.u.map((x) => x / last.l);
      const out = last.out || ratio;
      const deviation = Math.max(...out.map((x, j) => Math.abs(x - ratio[j])));

      const kind = sched ? ({ prefill: "Prefill", prefill_chunk: "Prefill-Stück", decode: "Decode" }[sched.kind] || sched.kind) : "";
      const range = sched ? (sched.positions[1] - sched.positions[0] > 1 ? `der Positionen ${sched.positions[0]}–${sched.positions[1] - 1}` : `an Position ${sched.positions[0]}`) : "";
      const head = `<p class="plk-head"><strong>Schritt ${i}: ${esc(kind)} ${range}.</strong> Gezeigt: Schicht ${esc(events[0].layer + 1)}, ` +
        `Kopf ${esc(events[0].head + 1)}, die Query an Position ${esc(q)}. Sie sieht ${nKeys} Keys (Positionen 0–${nKeys - 1}), ` +
        `abgearbeitet in ${events.length} Kacheln.</p>`;

      const keyRow = rows.map((r) => {
        const [a, b] = r.e.keys;
        const cells = [];
        for (let p = a; p < b; p += 1) {
          const isQuery = p === q ? " plk-self" : "";
          cells.push(`<span class="plk-key${isQuery}" title="Position ${p}${p === q ? " (die Query selbst)" : ""}">${esc(tok(text(tokens[p])))}</span>`);
        }
        return `<div class="plk-tile${r.rose ? " plk-tile-rise" : ""}" style="--share:${r.share.toFixed(4)}">` +
          `<span class="plk-tile-n">Kachel ${r.t + 1}</span><span class="plk-cells">${cells.join("")}</span>` +
          `<span class="plk-share" title="Anteil dieser Kachel an den Gewichten">${pct(r.share, r.share < 0.1 ? 1 : 0)}</span></div>`;
      }).join("");

      const list = rows.map((r) => {
        const [a, b] = r.e.keys;
        let scaleLine, lLine;
        if (r.t === 0) {
          scaleLine = `<span class="plk-alpha">erste Kachel: noch nichts umzuskalieren</span>`;
          lLine = `l = ${num(r.own, 3)}`;
        } else if (r.rose) {
          scaleLine = `<span class="plk-alpha plk-rescale"><span aria-hidden="true">↑</span> m steigt: Faktor ` +
            `e<sup>${num(r.mOld, 3)} − ${num(r.e.m, 3)}</sup> = <strong>${num(r.alpha, 3)}</strong> auf altes l und u</span>`;
          lLine = `l = ${num(r.alpha, 3)} · ${num(r.lOld, 3)} + ${num(r.own, 3)} = <strong>${num(r.e.l, 3)}</strong>`;
        } else {
          scaleLine = `<span class="plk-alpha">m bleibt: Faktor e<sup>0</sup> = 1</span>`;
          lLine = `l = ${num(r.lOld, 3)} + ${num(r.own, 3)} = <strong>${num(r.e.l, 3)}</strong>`;
        }
        if (r.t === 0) lLine = `l = <strong>${num(r.e.l, 3)}</strong>`;
        return `<li class="plk-row${r.rose ? " plk-row-rise" : ""}" style="--i:${r.t}" data-tile="${r.t + 1}">` +
          `<div class="plk-row-head"><strong>Kachel ${r.t + 1}</strong> <span class="plk-range">Keys ${a}–${b - 1}</span></div>` +
          `<div class="plk-vals"><span class="plk-m">m = <strong>${num(r.e.m, 3)}</strong></span>${scaleLine}` +
          `<span class="plk-l">${lLine}</span></div>` +
          `<div class="plk-u"><span class="plk-u-label">u</span>${bars(r.e.u, uScale, "", `u nach Kachel ${r.t + 1}: ${r.e.u.map((x) => num(x, 2)).join("; ")}`)}</div>` +
          `</li>`;
      }).join("");

      const outScale = Math.max(1e-12, ...out.map(Math.abs));
      const result = `<div class="plk-out"><div class="plk-out-head"><strong>Ergebnis u/l</strong> ` +
        `<span class="plk-muted">(u geteilt durch l = ${num(last.l, 3)})</span></div>` +
        `<div class="plk-out-body">${bars(out, outScale, "plk-bars-out", "Attention-Ausgabe u/l")}` +
        `<span class="plk-out-nums">[${out.map((x) => num(x, 3)).join("; ")}]</span></div>` +
        `<p class="plk-dense">Das ist genau die dichte Attention dieser Query: Softmax über alle ${nKeys} Scores auf einmal ` +
        `gäbe dieselben Zahlen, bis auf Rundung in den letzten Stellen (die Tests der Engine rechnen das nach). u/l aus der letzten Kachel ` +
        `${deviation === 0 ? "ist Zahl für Zahl die Ausgabe der Engine." : `weicht von der Ausgabe der Engine nur in der Rundung ab (höchstens ${deviation.toExponential(0).replace(/e(.*)$/, (m, ex) => ` · 10<sup>${ex.replace("-", "−")}</sup>`)}).`}` +
        `${emitted ? ` Das Modell wählt danach das Token „${esc(tok(text(emitted.token)))}“ (Position ${emitted.position}).` : ""}</p></div>`;

      stage.innerHTML = `<div class="plk-tiles">${head}` +
        `<div class="plk-keys" role="img" aria-label="${nKeys} Keys in ${events.length} Kacheln, mit Anteil am Gewicht">${keyRow}</div>` +
        `<ol class="plk-rows">${list}</ol>${result}` +
        `<p class="plk-legend">m: größter Score bisher · l: Summe der e<sup>s − m</sup> · u: Summe der e<sup>s − m</sup>·v ` +
        `(Balken nach oben positiv, nach unten negativ) · Prozent: Anteil der Kachel am Gewicht am Ende · ` +
        `<span class="plk-self-key">Q</span>-Rahmen: der Key der Query selbst</p></div>`;
      const rises = rows.filter((r) => r.rose).length;
      return `Schritt ${i}: Query an Position ${q}, ${events.length} Kacheln, m am Ende ${num(last.m, 3)}, l am Ende ${num(last.l, 3)}` +
        `${rises ? `, ${rises}-mal umskaliert` : ", nie umskaliert"}; u/l ist die dichte Attention.`;
    },
  };

  // ---------------------------------------------------------------- speculative decoding

  // The target's and the draft's probabilities, and the running totals up to each step, so scrubbing back
  // and forth only reads them.
  function rounds(model) {
    const cfg = model.trace.config || {};
    const p = model.trace.model && model.trace.model.probs;
    const qd = cfg.draft && cfg.draft.probs;
    const pq = Array.isArray(p) && Array.isArray(qd) && p.length === qd.length ? { p, q: qd } : null;
    const totals = [{ rounds: 0, tokens: 0, accepted: 0, examined: 0, counts: (p || []).map(() => 0) }];
    for (let s = 1; s <= model.n; s += 1) {
      const prev = totals[s - 1];
      const cur = { rounds: prev.rounds, tokens: prev.tokens, accepted: prev.accepted, examined: prev.examined, counts: prev.counts.slice() };
      for (const e of model.at(s).events) {
        if (e.type !== "verify") continue;
        cur.rounds += 1;
        cur.tokens += e.emitted.length;
        cur.accepted += e.accepted;
        cur.examined += e.accept_probs.length;
        e.emitted.forEach((t) => { if (t < cur.counts.length) cur.counts[t] += 1; });
      }
      totals.push(cur);
    }
    return { pq, totals };
  }

  const speculative = {
    init(stage, model) {
      textsOf(model);
      derived(model, "rounds", rounds);
    },
    render(stage, model, i) {
      const text = textsOf(model);
      const trace = model.trace;
      const req = trace.workload.requests[0];
      const seq = req.id;
      const greedy = Boolean(trace.config.sampling && trace.config.sampling.greedy);
      const k = trace.config.k;
      const st = model.at(Math.min(i, model.n));
      const before = model.at(Math.max(0, Math.min(i, model.n) - 1));
      const v = i > 0 ? st.events.find((e) => e.type === "verify") : null;
      const tot = derived(model, "rounds", rounds).totals[Math.min(i, model.n)];
      const chip = (t, cls, title) => `<span class="plk-tok ${cls || ""}"${title ? ` title="${esc(title)}"` : ""}>${esc(tok(text(t)))}</span>`;

      // the text so far: prompt, earlier output, this round's tokens marked
      const prev = before.outputs[seq] || [];
      const now = (i > 0 ? st.outputs[seq] : prev) || [];
      const fresh = now.slice(prev.length);
      const tail = 48; // a long run keeps its last characters; the whole text is in the trace's result
      const shown = prev.length > tail ? prev.slice(-tail) : prev;
      const textLine = `<p class="plk-text"><span class="plk-label">Text</span> <span class="plk-prompt">${esc(req.prompt_text !== undefined ? req.prompt_text : req.prompt.map(text).join(""))}</span>` +
        `${prev.length > tail ? "<span class=\"plk-muted\">…</span>" : ""}<span class="plk-old">${esc(shown.map(text).join(""))}</span>` +
        `${i > 0 ? `<span class="plk-new">${esc(fresh.map(text).join(""))}</span>` : ""}</p>`;

      let round = "";
      let summary;
      if (!v) {
        round = `<p class="plk-head">Noch keine Runde. In jeder Runde schlägt der Entwurf bis zu k = ${esc(k)} Tokens vor; ` +
          `ein einziger Aufruf des Zielmodells prüft sie alle. ${greedy ? "Greedy: angenommen wird ein Vorschlag, wenn das Zielmodell an seiner Stelle dasselbe Token wählen würde." : "Angenommen wird ein Vorschlag x, wenn eine gleichverteilte Zufallszahl u kleiner ist als min(1, p(x)/q(x))."}</p>`;
        summary = `Vor der ersten Runde; Prompt „${req.prompt_text || ""}“.`;
      } else {
        const cards = v.proposals.map((t, j) => {
          const examined = j < v.accept_probs.length;
          const ok = j < v.accepted;
          let cls, verdict, lines = "";
          if (ok) { cls = "plk-acc"; verdict = `<span aria-hidden="true">✓</span> angenommen`; }
          else if (examined) { cls = "plk-rej"; verdict = `<span aria-hidden="true">✗</span> abgelehnt`; }
          else { cls = "plk-skip"; verdict = "verworfen"; }
          if (examined && greedy) {
            lines = ok ? `<span>Ziel wählt auch „${esc(tok(text(t)))}“</span>`
              : `<span>Ziel wählt „${esc(tok(text(v.correction)))}“</span>`;
          } else if (examined) {
            const a = v.accept_probs[j], u = v.uniforms[j];
            lines = `<span>q = ${num(v.draft_probs[j], 3, true)} · p = ${num(v.target_probs[j], 3, true)}</span>` +
              `<span class="plk-a" title="Annahmewahrscheinlichkeit">min(1, p/q) = <strong>${num(a, 3, true)}</strong></span>` +
              `<span>u = ${num(u, 3)} ${u < a ? "&lt;" : "≥"} ${num(a, 3, true)}</span>`;
          } else {
            lines = `<span>nicht mehr geprüft</span>`;
          }
          return `<li class="plk-card ${cls}" data-verdict="${cls.slice(4)}"><span class="plk-slot">Vorschlag ${j + 1}</span>` +
            `${chip(t, cls)}<span class="plk-verdict">${verdict}</span>${lines}</li>`;
        });
        if (v.correction !== null && v.correction !== undefined) {
          cards.push(`<li class="plk-card plk-fix" data-verdict="correction"><span class="plk-slot">Korrektur</span>${chip(v.correction, "plk-fix")}` +
            `<span class="plk-verdict">vom Zielmodell</span><span>${greedy ? "sein argmax hier" : "aus max(0, p − q)"}</span></li>`);
        } else if (v.bonus !== null && v.bonus !== undefined) {
          cards.push(`<li class="plk-card plk-bonus" data-verdict="bonus"><span class="plk-slot">Bonus</span>${chip(v.bonus, "plk-bonus")}` +
            `<span class="plk-verdict">vom Zielmodell</span><span>${v.proposals.length ? "alles angenommen: ein Token extra" : "nur noch 1 Token fehlte"}${greedy ? " (argmax)" : ", aus p"}</span></li>`);
        }
        const tpc = v.emitted.length;
        const what = v.proposals.length
          ? `Der Entwurf schlägt ${v.proposals.length === 1 ? "1 Token" : `${v.proposals.length} Tokens`} vor, das Zielmodell prüft sie in einem Aufruf ` +
            `und liefert ${tpc === 1 ? "1 Token" : `${tpc} Tokens`}:`
          : "Es fehlt nur noch ein Token: kein Vorschlag, das Zielmodell zieht es in einem Aufruf selbst:";
        round = `<p class="plk-head"><strong>Runde ${i}: Position ${v.position}.</strong> ${what} ${v.emitted.map((t) => chip(t, "plk-small")).join("")}</p>` +
          `<ol class="plk-cards">${cards.join("")}</ol>`;
        summary = `Runde ${i}: ${v.proposals.length ? `${v.accepted} von ${v.proposals.length} Vorschlägen angenommen` : "kein Vorschlag"}` +
          `${v.correction !== null ? `, Korrektur „${text(v.correction)}“` : v.bonus !== null ? `, Bonus „${text(v.bonus)}“` : ""}; ` +
          `bisher ${num(tot.tokens / tot.rounds, 2)} Tokens pro Aufruf, Annahmerate ${pct(tot.accepted / Math.max(1, tot.examined))}.`;
      }

      // running totals
      let totals = `<dl class="plk-totals">` +
        `<div><dt>Aufrufe des Zielmodells</dt><dd>${tot.rounds}</dd></div>` +
        `<div><dt>Tokens erzeugt</dt><dd>${tot.tokens}</dd></div>` +
        `<div><dt>Tokens pro Aufruf</dt><dd class="plk-tpc">${tot.rounds ? num(tot.tokens / tot.rounds, 2) : "–"}</dd></div>` +
        `<div><dt>Annahmerate</dt><dd class="plk-rate">${tot.examined ? `${pct(tot.accepted / tot.examined)} <small>(${tot.accepted} von ${tot.examined} geprüften)</small>` : "–"}</dd></div>` +
        `</dl>`;
      const { pq } = derived(model, "rounds", rounds);
      if (pq) {
        const alpha = pq.p.reduce((s, x, j) => s + Math.min(x, pq.q[j]), 0);
        const expect = alpha < 1 ? (1 - alpha ** (k + 1)) / (1 - alpha) : k + 1;
        totals += `<p class="plk-muted plk-expect">Erwartet auf lange Sicht: Annahmerate Σ min(p, q) = ${num(alpha, 2, true)}, ` +
          `also (1 − α<sup>${k + 1}</sup>)/(1 − α) = ${num(expect, 2)} Tokens pro Aufruf.</p>`;
        const n = tot.counts.reduce((s, c) => s + c, 0);
        const W = 100;
        const rows = pq.p.map((p, j) => {
          const share = n ? tot.counts[j] / n : 0;
          return `<div class="plk-hrow" data-token="${esc(text(j))}"><span class="plk-hname">${esc(tok(text(j)))}</span>` +
            `<svg class="plk-hbar" viewBox="0 0 ${W} 14" preserveAspectRatio="none" aria-hidden="true">` +
            `<rect class="plk-hfill" x="0" y="2" width="${(W * share).toFixed(2)}" height="10"/>` +
            `<line class="plk-hp" x1="${(W * p).toFixed(2)}" x2="${(W * p).toFixed(2)}" y1="0" y2="14"/></svg>` +
            `<span class="plk-hnum">${tot.counts[j]} von ${n} = ${n ? num(share, 3) : "–"} <span class="plk-muted">(p = ${num(p, 2, true)})</span></span></div>`;
        }).join("");
        totals += `<div class="plk-hist"><p class="plk-hist-head"><strong>Erzeugte Tokens gegen p</strong> ` +
          `<span class="plk-muted">Balken: Anteil bisher · Strich: p des Zielmodells</span></p>${rows}</div>`;
      }
      stage.innerHTML = `<div class="plk-spec">${round}${textLine}${totals}</div>`;
      if (i >= model.n && i > 0) {
        summary += ` Fertig: ${tot.tokens} Tokens aus ${tot.rounds} Aufrufen des Zielmodells.`;
      }
      return summary;
    },
  };

  registerView("tiles", tiles);
  registerView("speculative", speculative);
}

register();
