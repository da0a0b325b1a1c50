// The schedule of a recorded run as the scheduling views read it (replay/slots.js, ttft.js, prefill.js):
// per request and step what it did, derived once per run.
import { derived } from "./derived.js";

export const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);

const KIND = { prefill: "pre", prefill_chunk: "chunk", decode: "dec" };

export function schedule(m) {
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
