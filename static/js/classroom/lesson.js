// A page's lesson (py/probierlabor/pageblocks/lesson_block.py): the guess before the experiment, the tasks
// after it. Generic for every concept: which task is solved and when the guess can be judged is
// Python's answer (kit/lesson.status), which experiment/mount.js hands on with every view it puts on
// screen (the pl:rendered event, detail.lesson) — also a preset's pre-rendered view before Python
// is ready. This script only remembers and shows.
//
// Feedback teaches: a wrong guess shows its own reason (.pl-why-not of its choice), and a
// task the reader is close to says so (.pl-task-near while kit/lesson.status lists it in „near“; not
// stored: it follows the state). „Was du entdeckst“ (mkdocs_hooks/discoveries.py) opens once the guess
// is committed or a task solved; what of the experiment answers the guess (data-answers, contract.View)
// shows from then on, or once the experiment has shown the answer (data-guessed on its block, lesson.css).
//
// Progress stays in this browser (classroom/lesson-store.js). Once solved, a task stays solved; a
// committed guess can be changed until the experiment has answered it, then the verdict stands until
// the progress is reset. A verdict out of sight gets a note near the reader (classroom/nearby.js).
//
// Only the reader solves a task: what a preset or a link shows counts for nothing (counted()).
//
// Presentation mode (classroom/present.js, html.pl-present) shows one task at a time and keeps every answer
// hidden until the teacher reveals it (button „Lösung zeigen“, key L; A/V: next/previous task).
import { lastRun } from "../experiment/mount.js";
import { lessonOf, setLesson } from "./handles.js";
import { forget, load, save } from "./lesson-store.js";
import { showNearby } from "./nearby.js";

const html = document.documentElement;
const revealed = new WeakSet();  // the guess and the tasks whose answer the teacher has revealed

// ---- the parts on the page ----------------------------------------------------------------

function parts(slug) {
  const of = (cls) => document.querySelector(`.${cls}[data-lesson="${CSS.escape(slug)}"]`);
  return { predict: of("pl-predict"), tasks: of("pl-tasks") };
}

function presenting() {
  return html.classList.contains("pl-present");
}

function say(tasks, text) {
  const live = tasks && tasks.querySelector(".pl-lesson-live");
  if (!live) return;
  live.textContent = "";
  // a changed text node is announced even if the same sentence comes twice in a row
  requestAnimationFrame(() => { live.textContent = text; });
}

function mount(slug) {
  const { predict, tasks } = parts(slug);
  if (!predict || !tasks || lessonOf(tasks)) return tasks && lessonOf(tasks);
  const lesson = { slug, predict, tasks, current: 0, near: [] };
  lesson.state = load(lesson);
  setLesson(tasks, lesson);
  lesson.step = (delta) => step(lesson, delta);
  lesson.reveal = () => reveal(lesson, currentTask(lesson));
  lesson.count = () => tasks.querySelectorAll(".pl-task").length;

  predict.querySelector("[data-lesson-commit]").addEventListener("click", () => commit(lesson));
  predict.querySelector("[data-lesson-change]").addEventListener("click", () => {
    lesson.state.guess = null;
    save(slug, lesson.state);
    paint(lesson);
    const chosen = predict.querySelector("input:checked") || predict.querySelector("input");
    chosen.focus();
  });
  predict.querySelector("[data-lesson-reveal]").addEventListener("click", () => reveal(lesson, predict));
  tasks.querySelectorAll(".pl-task [data-lesson-reveal]").forEach((button) => {
    button.addEventListener("click", () => reveal(lesson, button.closest(".pl-task")));
  });
  tasks.querySelectorAll("[data-lesson-step]").forEach((button) => {
    button.addEventListener("click", () => step(lesson, Number(button.dataset.lessonStep)));
  });
  tasks.querySelector("[data-lesson-reset]").addEventListener("click", () => reset(lesson));
  predict.addEventListener("change", () => paint(lesson));
  tasks.querySelector(".pl-lesson-note").hidden = false;

  const guess = lesson.state.guess;
  if (guess !== null) {
    predict.querySelector(`input[value="${CSS.escape(String(guess))}"]`).checked = true;
  }
  paint(lesson);
  // a view the experiment showed before this script mounted
  for (const status of shownNow(slug)) apply(lesson, status);
  return lesson;
}

// The lesson status of each view of this experiment on screen (experiment/mount.js keeps the last
// one for each block; a comparison copy of classroom/share.js counts as well).
function shownNow(slug) {
  return [...document.querySelectorAll(`[data-experiment="${CSS.escape(slug)}"]`)]
    .filter((root) => lastRun(root) && lastRun(root).lesson).map((root) => counted(lastRun(root)));
}

// A preset (its button, „Von vorn“, keys 1–9 and ←/→ while presenting, a number in the prose) or a shared
// link shows an example: a student working alone would find tasks ticked they never tried, and a class
// would see the teacher's demonstration counted as its answer. Such a view still answers the guess
// (shown); a task and its „fast“ wait for the reader's own change (experiment/mount.js: detail.byReader).
function counted(detail) {
  if (detail.byReader) return detail.lesson;
  return Object.assign({}, detail.lesson, { solved: [], near: [] });
}

function taskText(li) {
  return li.querySelector(".pl-task-text").firstChild.textContent.trim();
}

function choiceText(predict, index) {
  const input = predict.querySelector(`input[value="${CSS.escape(String(index))}"]`);
  return input ? input.nextElementSibling.textContent : "";
}

// The reason the reader's wrong choice gets (empty for a right guess or a lesson without reasons).
function whyNot(lesson) {
  const { predict, state } = lesson;
  if (!state.judged || state.guess === Number(predict.dataset.answer)) return "";
  const reason = predict.querySelector(`.pl-why-not[data-choice="${CSS.escape(String(state.guess))}"]`);
  return reason ? reason.textContent : "";
}

function verdict(lesson) {
  const { predict, state } = lesson;
  const answer = Number(predict.dataset.answer);
  const right = `Richtig ist: ${choiceText(predict, answer)}.`;
  if (!state.judged) return right;  // only the teacher's reveal shows an unjudged answer
  return state.guess === answer ? `Deine Vermutung stimmt: ${choiceText(predict, answer)}.`
    : `Deine Vermutung „${choiceText(predict, state.guess)}“ stimmt nicht. ${right}`;
}

// ---- what changes the lesson ----------------------------------------------------------------

function commit(lesson) {
  const chosen = lesson.predict.querySelector("input:checked");
  if (!chosen) {
    say(lesson.tasks, "Wähle zuerst eine Antwort aus.");
    lesson.predict.querySelector("input").focus();
    return;
  }
  lesson.state.guess = Number(chosen.value);
  save(lesson.slug, lesson.state);
  const status = shownNow(lesson.slug).find((s) => s.shown);
  if (status) apply(lesson, status);  // the experiment already shows the answer
  else {
    paint(lesson);
    const hint = lesson.predict.querySelector(".pl-guess-hint").dataset.committed;  // the build's one wording
    say(lesson.tasks, `Deine Vermutung: ${chosen.nextElementSibling.textContent}. ${hint}`);
  }
  // the button pressed is gone now: focus goes where the page answers
  const change = lesson.predict.querySelector("[data-lesson-change]");
  (change.hidden ? lesson.predict.querySelector(".pl-verdict") : change).focus();
}

function apply(lesson, status) {
  const { state, tasks } = lesson;
  const news = [];
  for (const key of status.solved) {
    if (state.solved.includes(key)) continue;
    const li = tasks.querySelector(`.pl-task[data-task="${CSS.escape(key)}"]`);
    if (!li) continue;
    state.solved.push(key);
    news.push(`Aufgabe gelöst: ${taskText(li)}`);
  }
  const answered = status.shown && !lesson.answered;
  lesson.answered = lesson.answered || status.shown;  // for this visit: the experiment has shown the answer
  const judged = status.shown && state.guess !== null && !state.judged;
  if (judged) {
    state.judged = true;
    news.unshift([verdict(lesson), whyNot(lesson)].filter(Boolean).join(" "));
  }
  const progressed = news.length > 0;  // what is stored; „fast“ follows the state and is not
  const near = (status.near || []).filter((key) => !state.solved.includes(key));
  const closer = near.filter((key) => !lesson.near.includes(key));
  const nearChanged = near.length !== lesson.near.length || closer.length > 0;
  lesson.near = near;
  for (const key of closer) {
    const note = tasks.querySelector(`.pl-task[data-task="${CSS.escape(key)}"] .pl-task-near`);
    if (note) news.push(note.textContent);
  }
  if (!progressed && !nearChanged && !answered) return;
  if (progressed) save(lesson.slug, state);
  paint(lesson);
  if (news.length) say(tasks, news.join(" "));
  // not while presenting: there the teacher reveals the answer
  if (judged && !presenting()) showNearby(lesson.predict, verdict(lesson));
}

function reset(lesson) {
  forget(lesson.slug);
  lesson.state = load(lesson);
  lesson.predict.querySelectorAll("input").forEach((input) => { input.checked = false; });
  revealed.delete(lesson.predict);
  lesson.tasks.querySelectorAll(".pl-task").forEach((li) => { revealed.delete(li); });
  paint(lesson);
  say(lesson.tasks, "Fortschritt zurückgesetzt.");
}

function reveal(lesson, item) {
  if (!item) return;
  if (!revealed.delete(item)) revealed.add(item);
  paint(lesson);
}

function currentTask(lesson) {
  return lesson.tasks.querySelectorAll(".pl-task")[lesson.current];
}

function step(lesson, delta) {
  const count = lesson.tasks.querySelectorAll(".pl-task").length;
  lesson.current = (lesson.current + delta + count) % count;
  paint(lesson);
  say(lesson.tasks, `Aufgabe ${lesson.current + 1} von ${count}: ${taskText(currentTask(lesson))}`);
}

// ---- showing the state -------------------------------------------------------------------

function paint(lesson) {
  const { predict, tasks, state } = lesson;
  const present = presenting();
  const committed = state.guess !== null;
  const picked = predict.querySelector("input:checked");
  predict.querySelector(".pl-guess").disabled = committed;
  predict.querySelector("[data-lesson-commit]").hidden = committed;
  predict.querySelector("[data-lesson-commit]").setAttribute("aria-disabled", String(!picked));
  predict.querySelector("[data-lesson-change]").hidden = !committed || state.judged;
  const hint = predict.querySelector(".pl-guess-hint");
  if (hint.dataset.open === undefined) hint.dataset.open = hint.textContent;  // the build's words, once
  hint.textContent = committed && !state.judged ? hint.dataset.committed : hint.dataset.open;
  const predictShown = present ? revealed.has(predict) : state.judged;
  showAnswer(predict, predictShown, present);
  predict.querySelector(".pl-verdict-text").textContent = predictShown ? verdict(lesson) : "";
  predict.classList.toggle("pl-right", state.judged && state.guess === Number(predict.dataset.answer));
  predict.classList.toggle("pl-wrong", state.judged && state.guess !== Number(predict.dataset.answer));
  const reason = !present && whyNot(lesson);
  predict.querySelectorAll(".pl-why-not").forEach((p) => {
    p.hidden = !reason || p.dataset.choice !== String(state.guess);
  });

  const items = [...tasks.querySelectorAll(".pl-task")];
  lesson.current = Math.min(lesson.current, items.length - 1);
  items.forEach((li, i) => {
    const solved = state.solved.includes(li.dataset.task);
    li.classList.toggle("pl-solved", solved);
    li.querySelector(".pl-task-done").hidden = !solved;
    li.hidden = present && i !== lesson.current;
    showAnswer(li, present ? revealed.has(li) : solved, present);
    const near = li.querySelector(".pl-task-near");
    if (near) near.hidden = solved || present || !lesson.near.includes(li.dataset.task);
  });
  tasks.querySelector(".pl-task-nav").hidden = !present;
  tasks.querySelector(".pl-task-position").textContent = `Aufgabe ${lesson.current + 1} von ${items.length}`;
  const done = items.filter((li) => state.solved.includes(li.dataset.task)).length;
  tasks.querySelector(".pl-progress-text").textContent = `Gelöst: ${done} von ${items.length} Aufgaben.`;
  tasks.querySelector("[data-lesson-reset]").hidden = !done && !committed;
  // „Was du entdeckst“ opens once, when the reader has guessed or solved something; a reset folds it again
  const found = document.querySelector(`details.pl-discover[data-lesson="${CSS.escape(lesson.slug)}"]`);
  const earned = committed || done > 0;
  if (found && earned !== Boolean(lesson.discovered)) {
    lesson.discovered = earned;
    found.open = earned;
  }
  const guessed = earned || lesson.answered || (present && revealed.has(predict));
  document.querySelectorAll(`[data-experiment="${CSS.escape(lesson.slug)}"]`).forEach((root) => {
    if (root.hasAttribute("data-guessed") !== guessed) root.toggleAttribute("data-guessed", guessed);
  });
}

function showAnswer(item, shown, present) {
  const box = item.querySelector(":scope > .pl-verdict, :scope > .pl-explain");
  box.hidden = !shown;
  const button = item.querySelector("[data-lesson-reveal]");
  button.hidden = !present;
  button.setAttribute("aria-expanded", String(revealed.has(item)));
  button.textContent = revealed.has(item) ? "Lösung verbergen" : "Lösung zeigen";
}

// ---- wiring ----------------------------------------------------------------------------------

function mountAll() {
  document.querySelectorAll(".pl-tasks[data-lesson]").forEach((tasks) => mount(tasks.dataset.lesson));
}

// pl:rendered does not bubble; capturing on document still sees it
document.addEventListener("pl:rendered", (e) => {
  const root = e.target;
  const status = e.detail && e.detail.lesson;
  if (!root.dataset || !root.dataset.experiment || !status) return;
  const lesson = mount(root.dataset.experiment);
  if (lesson) apply(lesson, counted(e.detail));
}, true);

// classroom/presenting.js switches the mode with a class on <html>
new MutationObserver(() => {
  document.querySelectorAll(".pl-tasks[data-lesson]").forEach((tasks) => { if (lessonOf(tasks)) paint(lessonOf(tasks)); });
}).observe(html, { attributes: true, attributeFilter: ["class"] });

export { mountAll as onPage };
