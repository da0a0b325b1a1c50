// A lesson's progress in this browser (localStorage, one entry per page); nothing leaves the device.
const STORE = "probierlabor.lektion.";

// Only what this lesson offers is taken from the storage (any script of the origin, or an older
// version of the site, may have written there): a guess among its choices, tasks it has.
export function load({ slug, predict, tasks }) {
  let data = null;
  try {
    data = JSON.parse(localStorage.getItem(STORE + slug) || "null");
  } catch (_) { /* blocked or damaged: start afresh */ }
  if (!data || typeof data !== "object") data = {};
  const choices = [...predict.querySelectorAll(".pl-guess input")].map((input) => Number(input.value));
  const guess = choices.includes(data.guess) ? data.guess : null;
  const solved = Array.isArray(data.solved) ? data.solved : [];
  return {
    guess,
    judged: guess !== null && data.judged === true,
    solved: [...tasks.querySelectorAll(".pl-task")].map((li) => li.dataset.task).filter((key) => solved.includes(key)),
  };
}

export function save(slug, state) {
  try { localStorage.setItem(STORE + slug, JSON.stringify(state)); } catch (_) { /* storage blocked: kept for this page only */ }
}

export function forget(slug) {
  try { localStorage.removeItem(STORE + slug); } catch (_) { /* nothing stored */ }
}
