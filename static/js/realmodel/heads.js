// „Am echten Modell“ on the attention page (py/probierlabor/pageblocks/heads_block.py): the site's language
// model reads the reader's sentence in the tab's Python worker (static/py/realmodel_run.py →
// py/probierlabor/realmodel/heads.py) and returns the attention of every layer and head; this file draws the
// one the reader picks as a heatmap, a table with a query token per row and a key token per column.
//
// frame.js imports it when the reader opens the block. A new sentence asks the worker again;
// a new layer or head only draws anew. The sentence, layer and head live in the page's query under „m.“.
import { de } from "../fmt.js";
import { REAL_MODEL as PREFIX, read, write } from "../url-state.js";
import { $, TEXT as SHARED, notes, runInWorker, visible } from "./frame.js";

// block → { data, link: the layer and head the address gave that the block does not offer (the worker clamps
// them with a note, as it does every setting out of range) }
const state = new WeakMap();
const TYPING_MS = 400;
const TEXT = {
  ...SHARED,
  ready: (d) => `${d.tokens.length} Tokens, alle ${d.layers * d.heads} Köpfe gerechnet in ${de(d.compute_seconds * 1000, 0)} ms.`,
  title: (layer, head) => `Schicht ${layer}, Kopf ${head}: Zeile = fragendes Token, Spalte = Token davor`,
  cell: (q, k, p) => `„${q}“ schaut auf „${k}“: ${de(p, 2)}`,
  summary: (layer, head, q, k, p, own) => `Schicht ${layer}, Kopf ${head}: Das letzte Token „${q}“ gibt „${k}“ ` +
    `das meiste Gewicht (${de(p, 2)}). Im Mittel bleiben ${de(own * 100, 0)} % des Gewichts eines Tokens bei ihm selbst.`,
};

const field = (block, name) => block.querySelector(`[data-realmodel-field="${name}"]`);
const NAMES = ["prompt", "layer", "head"];
const values = (block) => Object.fromEntries(NAMES.map((name) => [name, field(block, name).value]));

// Puts the given values into the fields; returns those a select does not offer.
function setValues(block, given) {
  const unknown = {};
  for (const name of NAMES) {
    const el = field(block, name);
    if (!(name in given)) continue;
    if (el.tagName === "SELECT" && ![...el.options].some((o) => o.value === given[name])) unknown[name] = given[name];
    else el.value = given[name];
  }
  return unknown;
}

// The address keeps the sentence as the map shows it (the model's cut: a pasted book does not go into
// the link, where every later change of head would write it again), and the layer and head shown.
function remember(block) {
  const s = state.get(block);
  write(PREFIX, NAMES, { ...values(block), prompt: s.data.settings.prompt });
}

// The heatmap of one head: a cell's colour is its weight (0 white, 1 the full colour), above the
// diagonal nothing (the causal mask), the token names on both sides.
function heatmap(data, layer, head) {
  const rows = data.maps[layer - 1][head - 1];
  const names = data.tokens.map((t) => visible(t.text));
  const table = document.createElement("table");
  table.className = "pl-heads-table";
  const top = table.createTHead().insertRow();
  top.append(document.createElement("th"));
  for (const name of names) top.append(Object.assign(document.createElement("th"), { scope: "col", textContent: name }));
  const body = table.createTBody();
  rows.forEach((row, i) => {
    const tr = body.insertRow();
    tr.append(Object.assign(document.createElement("th"), { scope: "row", textContent: names[i] }));
    names.forEach((name, j) => {
      const td = tr.insertCell();
      if (j >= row.length) {
        td.dataset.kind = "masked";
        return;
      }
      td.style.setProperty("--p", String(row[j]));
      td.title = TEXT.cell(names[i], name, row[j]);
      td.setAttribute("aria-label", td.title);
    });
  });
  return table;
}

// The sentence under the map's title: where the last token looks, and how much each token keeps for itself.
function summary(data, layer, head) {
  const rows = data.maps[layer - 1][head - 1];
  const last = rows[rows.length - 1];
  const best = last.indexOf(Math.max(...last));
  const own = rows.reduce((sum, row) => sum + row[row.length - 1], 0) / rows.length;
  const name = (i) => visible(data.tokens[i].text);
  return TEXT.summary(layer, head, name(rows.length - 1), name(best), last[best], own);
}

function draw(block) {
  const data = state.get(block).data;
  if (!data) return;
  const layer = Number(field(block, "layer").value), head = Number(field(block, "head").value);
  $(block, "heads-title").textContent = TEXT.title(layer, head);
  $(block, "heads-summary").textContent = summary(data, layer, head);
  $(block, "heads-map").replaceChildren(heatmap(data, layer, head));
  remember(block);
}

function compute(block) {
  const s = state.get(block);
  runInWorker(block, () => ({ ...values(block), ...s.link }), TEXT, {
    shown: (data) => {
      s.data = data;
      setValues(block, Object.fromEntries(Object.keys(s.link).map((name) => [name, data.settings[name]])));
      s.link = {};
      notes(block, data.notes);
      $(block, "result").hidden = false;
      draw(block);
      return TEXT.ready(data);
    },
    failed: () => {
      notes(block, [], "");
      s.data = null;
    },
  });
}

function mount(block) {
  if (state.has(block)) return;
  state.set(block, { data: null, link: {} });
  state.get(block).link = setValues(block, read(PREFIX, NAMES));
  let typing = null;
  field(block, "prompt").addEventListener("input", () => {
    clearTimeout(typing);
    typing = setTimeout(() => compute(block), TYPING_MS);
  });
  for (const name of ["layer", "head"]) {
    field(block, name).addEventListener("change", () => {
      delete state.get(block).link[name];  // the reader's own pick wins over the link's
      draw(block);
    });
  }
  compute(block);
}

// The block is open: wire it and run the sentence its field (or the link) holds.
export const open = mount;
