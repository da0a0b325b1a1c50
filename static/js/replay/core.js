// Replays recorded engine runs (static/traces/*.json, written by recorder/tracer.py) step by step.
//
// Generic on purpose: this file loads a trace and turns its events into one state per step (block
// tables, reference counts, prefix cache, batch, tokens, times); what a page draws from those states
// is a *view*, one module each, registered here (replay/index.js lists them). Every state is computed up front, so stepping,
// scrubbing and playing only redraw. Whether a trace's events agree with each other is checked once,
// at build time (mkdocs_hooks/traces.py runs recorder/tracer.py's validate on every committed trace);
// here only what folding and drawing need: the size and the types and bounds of recorder/trace.schema.json
// (static/js/replay/trace-check.js, before anything is allocated or drawn), the format version, and that
// steps, requests and blocks are what they claim to be. Anything else is refused with a German message, never half-shown, and the page's live
// experiment keeps working whatever happens here.
import { setPlayer } from "../classroom/handles.js";
import { de, token } from "../fmt.js";
import { siteUrl } from "../site.js";
import { TraceCheckError, check } from "./trace-check.js";

const SCHEMA = "probierlabor-engine-trace";
const SCHEMA_VERSION = 1;
const SCHEMA_PATH = "static/recorder/trace.schema.json";
const STEP_MS = 700; // one engine step per 0.7 s at 1×: slow enough to follow in class

const views = {};
const mounted = new WeakSet();  // the panels this file has taken on
const cache = {}; // trace name -> Promise<trace>: one download per visit, shared by panels

class ReplayError extends Error {}

// ---- loading -------------------------------------------------------------------------


function traceUrl(name) {
  return siteUrl(`static/traces/${name}.json`);
}

// recorder/trace.schema.json, shipped by the build (mkdocs_hooks/traces.py): the types and bounds a
// trace must keep before anything of it is allocated or drawn, the same file the engine checks with.
let schemaPromise = null;
function schema() {
  if (!schemaPromise) {
    schemaPromise = fetch(siteUrl(SCHEMA_PATH)).then((response) => {
      if (!response.ok) throw new ReplayError(`Das Format der Aufzeichnungen fehlt (HTTP ${response.status}).`);
      return response.json();
    });
    schemaPromise.catch(() => (schemaPromise = null));
  }
  return schemaPromise;
}

function load(name) {
  if (!cache[name]) {
    cache[name] = Promise.all([fetch(traceUrl(name)), schema()]).then(async ([response, rules]) => {
      if (!response.ok) throw new ReplayError(`Die Aufzeichnung „${name}“ fehlt (HTTP ${response.status}).`);
      const limit = rules["x-max-bytes"];
      const tooBig = () => new ReplayError(`Die Aufzeichnung „${name}“ ist größer als ${de(limit / 1e6, 0)} MB und wird nicht geladen.`);
      if (Number(response.headers.get("Content-Length")) > limit) throw tooBig();
      const bytes = await response.arrayBuffer();
      if (bytes.byteLength > limit) throw tooBig();
      let trace;
      try {
        trace = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
      } catch (e) {
        throw new ReplayError(`Die Aufzeichnung „${name}“ ist beschädigt (kein gültiges JSON).`);
      }
      return checked(trace, rules, name);
    });
    cache[name].catch(() => delete cache[name]); // a later visit may try again
  }
  return cache[name];
}

function checked(trace, rules, name) {
  // Another format or version is build()'s to name; the schema speaks for version 1 only.
  if (!trace || trace.schema !== SCHEMA || trace.schema_version !== SCHEMA_VERSION) return trace;
  try {
    check(trace, rules);
  } catch (e) {
    if (!(e instanceof TraceCheckError)) throw e;
    throw new ReplayError(`Die Aufzeichnung „${name}“ passt nicht zum Format der Engine (${e.message}).`);
  }
  return trace;
}

// ---- folding events into states ---------------------------------------------------------

function build(trace, name) {
  if (!trace || trace.schema !== SCHEMA) throw new ReplayError(`„${name}“ ist keine Aufzeichnung der Probierlabor-Engine.`);
  if (trace.schema_version !== SCHEMA_VERSION) {
    throw new ReplayError(`„${name}“ hat Format-Version ${trace.schema_version}; diese Seite kann Version ${SCHEMA_VERSION} abspielen.`);
  }
  if (!Array.isArray(trace.steps) || !trace.workload || !Array.isArray(trace.workload.requests)) {
    throw new ReplayError(`„${name}“ ist unvollständig.`);
  }
  const numBlocks = (trace.config && trace.config.num_blocks) || 0;
  const requests = {};
  trace.workload.requests.forEach((r) => (requests[r.id] = r));
  const ids = trace.workload.requests.map((r) => r.id);

  const st = {
    refs: new Array(numBlocks).fill(0), cached: {}, tables: {}, outputs: {}, texts: {},
    arrivedAt: {}, admittedAt: {}, firstTokenAt: {}, finishedAt: {}, computed: {}, time: 0,
    preemptions: {},
  };
  ids.forEach((id) => { st.outputs[id] = []; st.texts[id] = ""; st.computed[id] = 0; st.preemptions[id] = 0; });

  const snapshot = (index, step, events) => ({
    index, step, events,
    refs: st.refs.slice(), cached: Object.assign({}, st.cached),
    tables: Object.fromEntries(Object.entries(st.tables).map(([k, v]) => [k, v.slice()])),
    outputs: Object.fromEntries(Object.entries(st.outputs).map(([k, v]) => [k, v.slice()])),
    texts: Object.assign({}, st.texts), computed: Object.assign({}, st.computed),
    arrivedAt: Object.assign({}, st.arrivedAt), admittedAt: Object.assign({}, st.admittedAt),
    firstTokenAt: Object.assign({}, st.firstTokenAt), finishedAt: Object.assign({}, st.finishedAt),
    preemptions: Object.assign({}, st.preemptions),
    time: st.time, wall: step ? step.wall_time_s : 0,
    end: step ? step.end : { running: [], waiting: [], blocks_used: 0, blocks_cached: 0, num_batched_tokens: 0 },
  });

  const states = [snapshot(0, null, [])];
  trace.steps.forEach((step, i) => {
    const n = step && step.step;
    const fail = (msg) => { throw new ReplayError(`„${name}“, Schritt ${i}: ${msg}`); };
    if (n !== i || !Array.isArray(step.events) || !step.end) fail("unvollständig oder außer der Reihe");
    for (const e of step.events) {
      const seq = e.seq;
      if (seq !== undefined && !(seq in requests)) fail(`unbekannte Anfrage ${seq}`);
      if (e.type === "arrive") {
        st.arrivedAt[seq] = n;
      } else if (e.type === "schedule") {
        if (!(seq in st.admittedAt)) st.admittedAt[seq] = n;
        st.computed[seq] = e.positions[1];
      } else if (e.type === "preempt") {
        st.preemptions[seq] += 1;
        st.computed[seq] = 0;
      } else if (e.type === "block") {
        const b = e.block;
        if (!(Number.isInteger(b) && b >= 0 && b < numBlocks)) fail(`Block ${b} liegt außerhalb des Pools`);
        const table = st.tables[seq] || (st.tables[seq] = []);
        if (e.op === "allocate" || e.op === "hit") {
          st.refs[b] += 1;
          table.push(b);
        } else if (e.op === "evict") {
          delete st.cached[b];
        } else if (e.op === "cache") {
          st.cached[b] = e.hash;
        } else if (e.op === "free" || e.op === "unref") {
          table.pop();
          st.refs[b] -= 1;
          if (!table.length) delete st.tables[seq];
        } else fail(`unbekannte Blockoperation ${e.op}`);
      } else if (e.type === "emit") {
        st.outputs[seq].push(e.token);
        st.texts[seq] += e.text !== undefined ? e.text : `·${e.token}`;
        if (!(seq in st.firstTokenAt)) st.firstTokenAt[seq] = n;
      } else if (e.type === "finish") {
        st.finishedAt[seq] = n;
      }
    }
    st.time += step.wall_time_s;
    states.push(snapshot(i + 1, step, step.events));
  });
  const n = trace.steps.length;
  // at(i): the state after i steps, held at the end once this trace has finished (twins differ in length)
  return { name, trace, requests, ids, numBlocks, states, n, length: n, at: (i) => states[Math.max(0, Math.min(n, i))] };
}

// ---- the panel ----------------------------------------------------------------------------

export function mountAll() {
  document.querySelectorAll("section.pl-replay[data-replay]").forEach(mount);
}

async function mount(el) {
  if (mounted.has(el)) return;
  mounted.add(el);
  const view = views[el.dataset.view];
  const stage = el.querySelector(".pl-replay-view");
  try {
    if (!view) throw new ReplayError(`Für die Ansicht „${el.dataset.view}“ fehlt der Code.`);
    // data-twin: one or more comma-separated traces shown next to the main one (static batching
    // beside continuous, MHA beside GQA and MQA); model.twins in that order, model.twin the first.
    const names = [el.dataset.replay].concat(el.dataset.twin ? el.dataset.twin.split(",") : []);
    const traces = await Promise.all(names.map(load));
    const model = build(traces[0], names[0]);
    model.twins = traces.slice(1).map((t, i) => build(t, names[i + 1]));
    model.twin = model.twins[0] || null;
    // The clock runs until the longest of them has finished; views clamp each trace to its end.
    model.length = Math.max(model.n, ...model.twins.map((t) => t.n));
    start(el, model, view, stage);
  } catch (e) {
    refuse(el, stage, e);
  }
}

function refuse(el, stage, e) {
  el.dataset.state = "error";
  const message = e instanceof ReplayError ? e.message : `Die Aufzeichnung lässt sich nicht abspielen (${String(e && e.message || e).slice(0, 160)}).`;
  stage.innerHTML = "";
  const box = document.createElement("p");
  box.className = "pl-replay-error";
  box.setAttribute("role", "alert");
  box.textContent = `${message} Der Rest der Seite funktioniert weiter.`;
  stage.appendChild(box);
  if (!(e instanceof ReplayError)) console.warn("Probierlabor-Replay:", e);
}

// A trace that was computed on the page, not fetched (a live run, static/js/live/live.js), in a fresh
// panel (pageblocks/replay_block.frame): the same checks, the same views.
async function play(el, trace, name) {
  const stage = el.querySelector(".pl-replay-view");
  try {
    const view = views[el.dataset.view];
    if (!view) throw new ReplayError(`Für die Ansicht „${el.dataset.view}“ fehlt der Code.`);
    const model = build(checked(trace, await schema(), name), name);
    model.twins = [];
    model.twin = null;
    start(el, model, view, stage);
  } catch (e) {
    refuse(el, stage, e);
  }
}

function start(el, model, view, stage) {
  const controls = el.querySelector(".pl-replay-controls");
  const scrub = controls.querySelector('input[type="range"]');
  const counter = controls.querySelector(".pl-r-counter");
  const playButton = controls.querySelector(".pl-r-play");
  const speedSelect = controls.querySelector("select");
  const summary = el.querySelector(".pl-replay-summary");
  // The offered speeds are the select's options (pageblocks/replay_block.py SPEEDS renders them): the
  // only list, so the keys (+ / −) can never set or announce a speed the select does not show.
  const speeds = Array.from(speedSelect.options, (o) => ({ value: Number(o.value), label: o.textContent }));
  let index = 0;
  let speed = Number(speedSelect.value) || 1;
  let timer = null;
  const interval = () => STEP_MS / speed;

  stage.innerHTML = "";
  scrub.max = String(model.length);
  if (view.init) view.init(stage, model);

  function show(i) {
    index = Math.max(0, Math.min(model.length, i));
    const text = view.render(stage, model, index) || "";
    scrub.value = String(index);
    counter.value = counter.textContent = `${index} von ${model.length}`;
    scrub.setAttribute("aria-valuetext", `Schritt ${index} von ${model.length}`);
    summary.textContent = text;
    el.dispatchEvent(new CustomEvent("pl:replay-step", { detail: { index } }));
  }

  function tick() {
    if (index >= model.length) return pause();
    show(index + 1);
    if (index >= model.length) pause();
  }

  function resume() {
    if (timer) return;
    if (index >= model.length) show(0);
    timer = setInterval(tick, interval());
    playButton.setAttribute("aria-label", "Pause");
    el.classList.add("pl-playing");
  }

  function pause() {
    clearInterval(timer);
    timer = null;
    playButton.setAttribute("aria-label", "Abspielen");
    el.classList.remove("pl-playing");
  }

  // The offered speed nearest to factor.
  function setSpeed(factor) {
    speed = speeds.reduce((best, s) => (Math.abs(s.value - factor) < Math.abs(best.value - factor) ? s : best)).value;
    speedSelect.value = String(speed);
    if (timer) { pause(); resume(); }
  }

  // One offered speed up (direction > 0) or down; at either end it stays. Returns what is set now,
  // with the select's own label, for the presentation mode to announce.
  function stepSpeed(direction) {
    const at = speeds.findIndex((s) => s.value === speed);
    const next = speeds[Math.max(0, Math.min(speeds.length - 1, at + Math.sign(direction)))];
    const changed = next.value !== speed;
    if (changed) setSpeed(next.value);
    return { speed: next.value, label: next.label, changed };
  }

  controls.querySelector(".pl-r-reset").addEventListener("click", () => { pause(); show(0); });
  controls.querySelector(".pl-r-back").addEventListener("click", () => { pause(); show(index - 1); });
  controls.querySelector(".pl-r-next").addEventListener("click", () => { pause(); show(index + 1); });
  playButton.addEventListener("click", () => (timer ? pause() : resume()));
  scrub.addEventListener("input", () => { pause(); show(Number(scrub.value)); });
  speedSelect.addEventListener("change", () => setSpeed(Number(speedSelect.value)));

  setPlayer(el, {
    step: (delta) => { pause(); show(index + (delta || 1)); },
    toggle: () => (timer ? pause() : resume()),
    play: resume, pause,
    reset: () => { pause(); show(0); },
    setSpeed, stepSpeed,
    get speed() { return speed; },
    get interval() { return interval(); },  // ms between two steps while playing
    get playing() { return timer !== null; },
    get index() { return index; },
    get length() { return model.length; },
    model,
  });
  // A page change away from this panel must not leave a timer stepping a detached element.
  const stopWhenGone = setInterval(() => { if (!el.isConnected) { pause(); clearInterval(stopWhenGone); } }, 2000);

  controls.hidden = false;
  show(0);
  el.dataset.state = "ready";
}

// ---- shared helpers for views ------------------------------------------------------------

// token id -> its text, from the trace's own table (recorder/tracer.py with_token_texts: every id the trace
// names, a draft's rejected proposals too); `#id` for a trace without one
export function tokenText(trace) {
  const table = (trace.model && trace.model.tokens) || {};
  return (id) => (id in table ? table[id] : `#${id}`);
}

export const fmt = {
  num(x, digits = 0) {
    return de(x, digits);
  },
  ms(seconds, digits = 1) {
    return `${fmt.num(seconds * 1000, digits)} ms`;
  },
  esc(s) {
    return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
  },
  // A token's text as it should read in a figure: spaces and line breaks made visible (fmt.js).
  tok(text) {
    return token(text);
  },
};

export function registerView(name, view) {
  views[name] = view;
}

export { build, ReplayError, play };
