// The theme's „Zurück zum Seitenanfang“ (.md-top) floats over the top of the page while the reader
// scrolls up. On a phone it is half the screen wide and lies on a button or the figure of the block
// below it, so it stays away while any interactive block passes under it (html.pl-top-away,
// probierlabor.css) and comes back over the prose. Watched: only the band from the top of the window
// to the pill's lower edge, measured again when the window changes its size.
const BLOCKS = "[data-experiment], details[data-realmodel], [data-workshop], [data-live], section.pl-replay, "
  + ".pl-tasks[data-lesson], [data-systemcheck]";
const MARGIN_PX = 8;  // the pill's shadow and a finger's slip
let watcher = null;
let sized = false;

function watch() {
  if (watcher) watcher.disconnect();
  const root = document.documentElement;
  root.classList.remove("pl-top-away");
  const pill = document.querySelector(".md-top");
  const blocks = document.querySelectorAll(BLOCKS);
  if (!pill || !blocks.length) return;
  const band = pill.offsetTop + pill.offsetHeight + MARGIN_PX;
  const under = new Set();
  watcher = new IntersectionObserver((entries) => {
    for (const e of entries) {
      if (e.isIntersecting) under.add(e.target);
      else under.delete(e.target);
    }
    root.classList.toggle("pl-top-away", under.size > 0);
  }, { rootMargin: `0px 0px ${-Math.max(0, window.innerHeight - band)}px 0px` });
  blocks.forEach((el) => watcher.observe(el));
}

function onPage() {
  watch();
  if (sized) return;
  sized = true;
  let timer = null;
  window.addEventListener("resize", () => {
    clearTimeout(timer);
    timer = setTimeout(watch, 150);
  });
}

export { onPage };
