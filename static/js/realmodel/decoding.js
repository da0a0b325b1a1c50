// „Am echten Modell“ on a decoding page (py/probierlabor/pageblocks/realmodel_block.py): the reader's prompt
// through the site's language model (py/probierlabor/realmodel/methods.py) with the page's decoding method, run
// in the tab's Python worker by frame.js, which imports this view when the reader opens the block.
//
// A run is a function of its settings: the prompt, the page's settings and how many steps were taken („steps“).
// They live in the page's query under „m.“, so a link gives the same text; „Nächstes Token“ asks for the same
// run with one step more, which the worker takes from the run it holds.
import { de, pct } from "../fmt.js";
import { REAL_MODEL as PREFIX, read, write } from "../url-state.js";
import { $, TEXT as FRAME, chip, notes, runInWorker, visible } from "./frame.js";

const state = new WeakMap();  // block → { data, selected, typing: the timer of a prompt being typed }
const TYPING_MS = 400;  // the prompt is run once the reader pauses
const TEXT = {
  ...FRAME,
  ready: (d) => `${d.tokens.length} von höchstens ${d.max} neuen Tokens, gerechnet in ${de(d.compute_seconds * 1000, 0)} ms.`,
  full: (max) => `Fertig: Mehr als ${max} neue Tokens schreibt das Modell hier nicht. „Von vorn“ fängt neu an.`,
  next: (shown) => `Nächstes Token: ${shown}`,
  chosen: (i, text, shown) => `Vor Token ${i + 1} („${text}“): ${shown}`,
  rest: (n) => `übrige ${tokens(n)}`,
  cut: (n) => `abgeschnitten: ${tokens(n)}`,
  none: "Noch nichts erzeugt. „Nächstes Token“ rechnet einen Schritt.",
};

const fields = (block) => [...block.querySelectorAll("[data-realmodel-field]")];

// In the address a decimal keeps its point, as the experiments write theirs (0.7, not 0,7).
function values(block) {
  const out = {};
  for (const el of fields(block)) {
    out[el.dataset.realmodelField] = el.inputMode === "decimal" ? el.value.replace(/^(-?\d+),(\d+)$/, "$1.$2") : el.value;
  }
  return out;
}

function setValues(block, given) {
  for (const el of fields(block)) {
    const key = el.dataset.realmodelField;
    if (key in given) el.value = el.inputMode === "decimal" ? String(given[key]).replace(/^(-?\d+)\.(\d+)$/, "$1,$2") : String(given[key]);
  }
}

function field(block, name) {
  return block.querySelector(`[data-realmodel-field="${name}"]`);
}

function bar(label, p, kind) {
  const row = document.createElement("div");
  row.className = "pl-realmodel-bar";
  row.setAttribute("role", "listitem");
  if (kind) row.dataset.kind = kind;
  const name = document.createElement("span");
  name.className = "pl-realmodel-bar-label";
  name.append(label);
  const track = document.createElement("span");
  track.className = "pl-realmodel-bar-track";
  const fill = document.createElement("span");
  fill.className = "pl-realmodel-bar-fill";
  fill.style.width = `${Math.max(0, Math.min(1, p)) * 100}%`;
  track.append(fill);
  const value = document.createElement("span");
  value.className = "pl-realmodel-bar-value";
  value.textContent = kind === "cut" ? pct(0, 0) : pct(p, 1);
  row.append(name, track, value);
  return row;
}

function showDistribution(block, dist, title, chosen) {
  $(block, "dist-title").textContent = title;
  const rows = dist.top.map((t) => bar(chip(t), t.p, t.id === chosen ? "chosen" : ""));
  if (dist.rest_count) rows.push(bar(TEXT.rest(dist.rest_count), dist.rest, "rest"));
  // what top-k or top-p cut away can never be drawn: exactly 0, and not counted with the rest
  if (dist.cut) rows.push(bar(TEXT.cut(dist.cut), 0, "cut"));
  $(block, "bars").replaceChildren(...rows);
}

// Which step made generated token i (a speculative round makes several; beam search's step i is its
// beam after i + 1 tokens).
function stepOf(data, i) {
  if (data.method === "beam") return data.steps[i];
  let seen = 0;
  for (const step of data.steps) {
    seen += step.tokens.length;
    if (i < seen) return step;
  }
  return null;
}

const tokens = (n) => `${de(n, 0)} ${n === 1 ? "Token" : "Tokens"}`;

function paragraph(text) {
  return Object.assign(document.createElement("p"), { textContent: text });
}

function detail(data, step) {
  if (!step) return [];
  if (data.method === "beam") {
    const list = document.createElement("ol");
    list.className = "pl-realmodel-beams";
    for (const b of step.beams) {
      const item = document.createElement("li");
      item.append(Object.assign(document.createElement("span"), { className: "pl-realmodel-chip", textContent: visible(b.text) }),
        ` Summe der Log-Wahrscheinlichkeiten ${de(b.score, 2)}`);
      list.append(item);
    }
    return [paragraph(`Der Strahl nach Schritt ${data.steps.indexOf(step) + 1}, die beste Folge zuerst:`), list];
  }
  if (data.method === "speculative") {
    const round = data.steps.indexOf(step) + 1;
    const proposals = document.createElement("div");
    proposals.className = "pl-realmodel-chips";
    step.proposals.forEach((t, i) => {
      const el = chip(t);
      el.dataset.kind = i < step.accepted ? "accepted" : "rejected";
      el.title = `${TEXT.token(t)}: ${i < step.accepted ? "angenommen" : "verworfen"}`;
      proposals.append(el);
    });
    const last = step.tokens[step.tokens.length - 1];
    const how = step.correction !== null ? `Korrektur des Zielmodells „${visible(last.text)}“`
      : `Bonus-Token des Zielmodells „${visible(last.text)}“`;
    return [paragraph(`Runde ${round}: Der Entwurf schlägt ${tokens(step.proposals.length)} vor, das Zielmodell behält ` +
      `${step.accepted}. Dazu kommt die ${how}.`), proposals];
  }
  if (data.method === "decode") {
    const table = document.createElement("table");
    table.className = "pl-table pl-realmodel-cache";
    const head = table.createTHead().insertRow();
    for (const text of ["Schritt", "eingefüttert", "KV-Cache danach"]) head.append(Object.assign(document.createElement("th"), { textContent: text }));
    const body = table.createTBody();
    data.steps.forEach((s, i) => {
      const row = body.insertRow();
      if (s === step) row.dataset.kind = "chosen";
      for (const cell of [i + 1, tokens(s.fed), `${s.cache} Positionen`]) row.insertCell().textContent = String(cell);
    });
    return [paragraph("Nach dem Prompt füttert jeder Schritt nur das zuletzt gewählte Token ein; den Rest liefert der KV-Cache."), table];
  }
  return [];
}

function select(block, index) {
  const s = state.get(block);
  s.selected = index;
  const data = s.data;
  const buttons = [...$(block, "generated").children];
  buttons.forEach((b, i) => b.setAttribute("aria-pressed", String(i === index)));
  if (index === null) {
    showDistribution(block, data.next, TEXT.next(data.shown), null);
    $(block, "detail").replaceChildren(...detail(data, data.steps[data.steps.length - 1]));
  } else {
    const token = data.tokens[index];
    showDistribution(block, token.dist, TEXT.chosen(index, visible(token.text), data.shown), token.id);
    $(block, "detail").replaceChildren(...detail(data, stepOf(data, index)));
  }
}

function show(block, data) {
  const s = state.get(block);
  s.data = data;
  setValues(block, data.settings);  // capped values, as they ran
  write(PREFIX, fields(block).map((el) => el.dataset.realmodelField), values(block));
  $(block, "prompt-tokens").replaceChildren(...data.prompt.map((t) => chip(t)));
  const generated = data.tokens.map((t, i) => {
    const el = chip(t, "button");
    el.setAttribute("aria-pressed", "false");
    el.addEventListener("click", () => select(block, s.selected === i ? null : i));
    return el;
  });
  $(block, "generated").replaceChildren(...(generated.length ? generated : [paragraph(TEXT.none)]));
  // the same text to read aloud: the prompt as the model read it, then what it wrote, spaces as spaces
  $(block, "text").replaceChildren(Object.assign(document.createElement("span"), { textContent: data.prompt_text }),
    Object.assign(document.createElement("strong"), { textContent: data.text }));
  $(block, "text-area").hidden = !generated.length;
  $(block, "result").hidden = false;
  select(block, null);
  notes(block, data.notes);
  $(block, "step").disabled = data.done;
  $(block, "all").disabled = data.done;
  $(block, "reset").disabled = false;
  const max = Number(block.dataset.maxNew);
  return data.done ? TEXT.full(max) : TEXT.ready({ ...data, max });
}

// The run with the form's values and `steps`.
function compute(block, steps) {
  const s = state.get(block);
  // an explicit run reads the prompt as it is now: the typing pause's run, still to come, would only
  // overtake it with the start of the text
  clearTimeout(s.typing);
  field(block, "steps").value = String(steps);
  const ask = values(block);
  write(PREFIX, Object.keys(ask), ask);
  for (const name of ["step", "all", "reset"]) $(block, name).disabled = true;
  runInWorker(block, () => values(block), TEXT, {
    ended: () => {
      if (!s.data) $(block, "reset").disabled = false;
    },
    shown: (data) => show(block, data),
    failed: (data) => {
      if (data.prompt) notes(block, [], "");
      s.data = null;
    },
  });
}

// How far the text on screen has gone; a prompt typed since starts a text of its own.
function currentSteps(block) {
  const s = state.get(block);
  return s.data && s.data.settings.prompt === field(block, "prompt").value ? Number(s.data.settings.steps) : 0;
}

function mount(block) {
  if (state.has(block)) return;
  state.set(block, { data: null, selected: null, typing: null });
  setValues(block, read(PREFIX, fields(block).map((el) => el.dataset.realmodelField)));
  const s = state.get(block);
  const prompt = field(block, "prompt");
  prompt.addEventListener("input", () => {
    clearTimeout(s.typing);
    s.typing = setTimeout(() => compute(block, 0), TYPING_MS);
  });
  // Enter sends the prompt, as in a chat: the model writes the whole text (the help under the field says so)
  prompt.addEventListener("keydown", (e) => {
    if (e.key !== "Enter" || e.isComposing) return;
    e.preventDefault();
    compute(block, Number(block.dataset.maxNew));
  });
  for (const el of fields(block)) {
    if (el.dataset.realmodelField !== "prompt" && el.type !== "hidden") el.addEventListener("change", () => compute(block, currentSteps(block)));
  }
  $(block, "step").addEventListener("click", () => compute(block, currentSteps(block) + 1));
  $(block, "all").addEventListener("click", () => compute(block, Number(block.dataset.maxNew)));
  $(block, "reset").addEventListener("click", () => compute(block, 0));
  compute(block, Number(field(block, "steps").value) || 0);
}

// The block is open: wire it and run what its fields (or the link) say.
export const open = mount;
