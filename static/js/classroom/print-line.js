// The printed worksheet names the state it shows (print.css). Kept current all the time because print
// previews (and headless PDF export) do not always fire beforeprint. The state's address from url-state.js:
// a slider still held has not written it to the address bar yet.
import { href } from "../url-state.js";

export function ensurePrintLine() {
  const article = document.querySelector(".md-content__inner");
  if (!article) return;
  let line = article.querySelector(".pl-print-state");
  if (!line) {
    line = document.createElement("p");
    line.className = "pl-print-state";
    line.setAttribute("aria-hidden", "true");
    const h1 = article.querySelector("h1");
    if (h1) h1.after(line);
    else article.prepend(line);
  }
  const url = href().replace(/#.*$/, "");
  if (line.textContent !== `Stand: ${url}`) line.textContent = `Stand: ${url}`;  // unchanged while a point is dragged
}
