// The Systemcheck page: asks the tab's Python runtime to load numpy and matplotlib from this
// server and reports versions, times and a figure – so a school can see the site works offline.
import { de } from "../fmt.js";
import { python, whenReady } from "../runtime/python.js";

const mounted = new WeakSet();  // the elements this file has wired

function mount() {
  const root = document.querySelector("[data-systemcheck]");
  if (!root || mounted.has(root)) return;
  mounted.add(root);
  const button = root.querySelector("button");
  const out = root.querySelector(".pl-check-result");
  const arm = () => { button.disabled = false; };
  whenReady.then(arm);

  button.addEventListener("click", async () => {
    button.disabled = true;
    root.dataset.state = "loading";
    out.textContent = "Prüfe … (numpy und matplotlib werden vom eigenen Server geladen)";
    try {
      const report = await python.systemcheck();
      const rows = [
        ["Python im Browser", report.python],
        ["Pyodide", report.pyodide],
        ["numpy", `${report.numpy.version} · geladen in ${de(report.numpy.seconds, 1)} s`],
        ["matplotlib", `${report.matplotlib.version} · geladen und gezeichnet in ${de(report.matplotlib.seconds, 1)} s`],
        [`nicht mitgeliefert (${report.unshipped.name})`, report.unshipped.missing
          ? `fehlt wie erwartet – Meldung nach ${de(report.unshipped.seconds, 2)} s, ohne Download-Versuch`
          : "unerwartet vorhanden"],
      ];
      const table = document.createElement("table");
      for (const [label, value] of rows) {
        const tr = table.insertRow();
        tr.insertCell().textContent = label;
        tr.insertCell().textContent = value;
      }
      const img = document.createElement("img");
      img.src = "data:image/png;base64," + report.matplotlib.png;
      img.alt = "Testabbildung, mit matplotlib im Browser gezeichnet";
      img.className = "pl-check-figure";
      const ok = document.createElement("p");
      ok.className = "pl-check-ok";
      ok.textContent = report.unshipped.missing ? "Alles in Ordnung: Probierlabor läuft hier vollständig offline."
        : "Achtung: Die Laufzeit enthält mehr als erwartet.";
      out.replaceChildren(ok, table, img);
      root.dataset.state = "ready";
    } catch (error) {
      console.warn("[systemcheck]", error);
      out.textContent = "Die Prüfung ist fehlgeschlagen. Bitte die Seite neu laden; hilft das nicht, die Website neu bauen (make site).";
      root.dataset.state = "error";
    }
    button.disabled = false;
  });
}
export { mount as onPage };
