// A presenter remote has two keys to walk with (Bild↑/↓, some send ←/→) and one for „Bild aus“ (B or .):
// the walk goes through the presets, after the last one on to the tasks (classroom/lesson.js), one at a
// time, and back the same way; „Bild aus“ shows a task's solution. Stepping stops at either end, as it
// does for the presets.
import { reveal, say } from "./feedback.js";
import { lessonOf } from "./handles.js";
import { isOn, onModeChange } from "./presenting.js";
import { currentPreset, presetAt, presets, revealFigure, stepPreset } from "./presets.js";

let atTasks = false;  // while presenting, the walk went on past the last preset to the tasks

export function leaveTasks() {
  atTasks = false;
}

export function pageLesson() {
  const tasks = document.querySelector(".pl-tasks[data-lesson]");
  return tasks && lessonOf(tasks);
}

// The task list with its position and the solution, once shown, all of it: the class reads it from the screen.
export function revealTask(lesson) {
  atTasks = true;
  reveal(lesson.tasks, 1);
}

export function walk(root, delta) {
  const lesson = isOn() && pageLesson();
  if (lesson && atTasks) {
    const next = lesson.current + delta;
    if (next >= lesson.count()) say("Letzte Aufgabe.");
    else if (next < 0) {
      atTasks = false;
      if (root) revealFigure(root);
      say("Zurück zum Experiment.");
    } else {
      lesson.step(delta);
      revealTask(lesson);
    }
    return true;
  }
  if (!root) return false;
  if (lesson && delta > 0 && currentPreset(root) === presets(root).length - 1) {
    lesson.step(0);  // says which task it is
    revealTask(lesson);
    return true;
  }
  return stepPreset(root, delta);
}

onModeChange(leaveTasks);
// a preset clicked brings the walk back to the experiment
document.addEventListener("click", (e) => { if (presetAt(e.target)) leaveTasks(); }, true);
