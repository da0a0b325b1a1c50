// „Abspielen“ beside an experiment (markup: [data-play] = its slug, data-play-param = one of its
// sliders, a button inside): walks that slider from its lowest value up to the value the reader chose,
// one step at a time, through the slider's own input event, the one path every change takes. A second
// click or a hand on the slider stops it. With reduced motion the slider stays at the end at once.
const reducedMotion = matchMedia("(prefers-reduced-motion: reduce)");
const STEP_MS = 250;
const timers = new WeakMap();  // button → the running animation's timer
const wired = new WeakSet();

function stop(button) {
  clearInterval(timers.get(button));
  timers.delete(button);
  button.textContent = "▶ Abspielen";
  button.setAttribute("aria-pressed", "false");
}

function play(button, slider) {
  const end = Number(slider.value);
  const set = (value) => {
    slider.value = String(value);
    slider.dispatchEvent(new Event("input", { bubbles: true }));
  };
  if (reducedMotion.matches || end <= Number(slider.min)) { set(end); return; }
  let value = Number(slider.min);
  set(value);
  button.textContent = "■ Anhalten";
  button.setAttribute("aria-pressed", "true");
  timers.set(button, setInterval(() => {
    value += Number(slider.step || 1);
    set(Math.min(value, end));
    if (value >= end) stop(button);
  }, STEP_MS));
}

export function onPage() {
  document.querySelectorAll("[data-play]").forEach((box) => {
    const root = document.querySelector(`[data-experiment="${box.dataset.play}"]`);
    const slider = root && root.querySelector(`input[type="range"][data-param="${box.dataset.playParam}"]`);
    const button = box.querySelector("button");
    if (!slider || !button || wired.has(button)) return;
    wired.add(button);
    box.hidden = false;
    button.addEventListener("click", () => (timers.has(button) ? stop(button) : play(button, slider)));
    // the reader's own hand on the slider ends the animation (its own events are not trusted)
    slider.addEventListener("input", (e) => { if (e.isTrusted && timers.has(button)) stop(button); });
  });
}
