// View "kvbytes" of recorded runs (MHA, GQA, MQA): the bytes the KV cache holds with each attention on
// the same workload, and how the query heads share the K/V heads.
import { fmt, registerView } from "./core.js";
import { derived } from "./derived.js";
import { BYTES, plural } from "./memory.js";

const esc = fmt.esc;

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
    derived(model, "kvbytes", prepareKv);
  },
  render(stage, model, i) {
    const data = derived(model, "kvbytes", prepareKv);
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
