// The verdict on a guess appears under the guess, and on a phone that is 1 000 px and more above the
// experiment that answered it. Where the guess is out of sight, a note at the bottom of the screen says
// it too, with a way up; it goes when the guess comes into view, when closed, or after NEARBY_MS (the
// verdict itself stays under the guess; the live region has already said it).
const NEARBY_MS = 12000;
const closers = new WeakMap();  // a note on screen → what takes it away

export function showNearby(predict, verdict) {
  const box = predict.querySelector(".pl-verdict");
  const seen = box.getBoundingClientRect();
  if (seen.top >= 0 && seen.bottom <= window.innerHeight) return;
  const place = document.querySelector(".md-content__inner") || document.body;  // replaced with the page
  place.querySelectorAll(".pl-verdict-nearby").forEach((old) => closers.get(old)());
  const note = document.createElement("div");
  note.className = "pl-verdict-nearby " + (predict.classList.contains("pl-right") ? "pl-right" : "pl-wrong");
  const text = document.createElement("p");
  text.textContent = verdict;
  const up = document.createElement("button");
  up.type = "button";
  up.className = "md-button";
  up.textContent = "Zur Vermutung";
  const close = document.createElement("button");
  close.type = "button";
  close.className = "md-button";
  close.textContent = "Schließen";
  note.append(text, up, close);
  const watch = new IntersectionObserver((entries) => { if (entries.some((e) => e.isIntersecting)) gone(); });
  const timer = setTimeout(() => gone(), NEARBY_MS);
  const gone = () => { clearTimeout(timer); watch.disconnect(); note.remove(); };
  closers.set(note, gone);
  up.addEventListener("click", () => {
    gone();
    box.scrollIntoView({ block: "center" });
    box.focus({ preventScroll: true });
  });
  close.addEventListener("click", () => gone());
  place.append(note);
  watch.observe(box);
}
