// What the presentation mode's keys (classroom/keys.js) steer on a page: a replay panel (step, toggle, reset,
// stepSpeed; index, length, playing, model), set by the replay feature (static/js/replay/core.js) for
// each panel it has ready, and a lesson (step, reveal, count; current, tasks), set by classroom/lesson.js. Kept here, apart from both,
// so that a page without a replay loads no replay code.
const players = new WeakMap();
const lessons = new WeakMap();

export const playerOf = (panel) => players.get(panel);
export const setPlayer = (panel, player) => { players.set(panel, player); };

export const lessonOf = (tasks) => lessons.get(tasks);
export const setLesson = (tasks, lesson) => { lessons.set(tasks, lesson); };
