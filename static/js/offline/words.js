// What the offline indicator and the Systemcheck panel say for each state of the offline store:
// a short label for the header, a sentence, and for a download its count.
import { MIB, THIN_NBSP, de } from "../fmt.js";

const mb = (bytes) => de(bytes / MIB, 1) + THIN_NBSP + "MiB";

// The indicator's words for each state; the widest of them sets its width (offline/indicator.js). Each
// says what it means for using the site without a network („Nicht offline“ read as „you are not offline“).
export const SHORT = {
  insecure: "Nur online", file: "Nur mit Server", unsupported: "Nur online", dev: "Nur online",
  checking: "Offline …", idle: "Offline noch nicht bereit", loading: (percent) => `Vorladen ${percent} %`,
  ready: "Offline bereit", update: "Neue Version", error: "Offline: Fehler",
};

export function describe(state) {
  const files = `${state.done} von ${state.total} Dateien`;
  switch (state.name) {
    case "insecure":
      return [SHORT.insecure, "Offline-Speicher ist unter dieser Adresse nicht möglich: Browser erlauben ihn nur über " +
        "https:// oder auf dem eigenen Rechner (http://127.0.0.1 oder http://localhost). Die Seite funktioniert " +
        "trotzdem, solange der Server erreichbar ist. Für den Offline-Betrieb die Website über https ausliefern " +
        "oder das Paket mit start.bat bzw. start.sh auf dem Rechner selbst starten (siehe LIESMICH.txt)."];
    case "file":
      return [SHORT.file, "Als Datei geöffnet (file://): So darf der Browser weder Python starten noch etwas " +
        "offline speichern. Bitte start.bat (Windows) bzw. start.sh (Linux, macOS) verwenden, siehe LIESMICH.txt."];
    case "unsupported":
      return [SHORT.unsupported, "Dieser Browser kann die Website nicht offline speichern (zum Beispiel in einem privaten " +
        "Fenster oder wenn Website-Daten blockiert sind). Solange der Server erreichbar ist, funktioniert alles."];
    case "dev":
      return [SHORT.dev, "Entwicklungsserver (mkdocs serve): Der Offline-Speicher ist abgeschaltet, damit jede " +
        "Änderung sofort sichtbar ist."];
    case "checking":
      return [SHORT.checking, "Offline-Speicher wird geprüft …"];
    case "idle":
      return [SHORT.idle, state.total
        ? `Noch nicht vollständig offline gespeichert (${files}). „Alles vorladen“ speichert die ganze Website ` +
          `(${mb(state.totalBytes)}) in diesem Browser.`
        : "Noch nicht offline gespeichert. Das Vorladen beginnt von selbst, sobald Python bereit ist; " +
          "„Alles vorladen“ startet es sofort."];
    case "loading": {
      const percent = state.totalBytes ? Math.floor((100 * state.doneBytes) / state.totalBytes) : 0;
      return [SHORT.loading(percent), "Die Website wird in diesem Browser für die Offline-Nutzung gespeichert …",
        `${files} (${mb(state.doneBytes)} von ${mb(state.totalBytes)})`];
    }
    case "ready":
    case "update": {
      let text = `Offline bereit: ${files}, ${mb(state.totalBytes)} (Version ${state.version}). ` +
        "Diese Website funktioniert in diesem Browser jetzt auch ohne Netz.";
      if (state.name === "update") text += " Neue Version verfügbar – beim nächsten Seitenwechsel aktiv.";
      else if (state.next) text += ` Eine neue Version wird vorgeladen (${state.next.done} von ${state.next.total} Dateien).`;
      return [SHORT[state.name], text];
    }
    default:
      return [SHORT.error, `Vorladen unterbrochen: ${state.message || "unbekannter Fehler"}. „Alles vorladen“ ` +
        "versucht es erneut; schon Gespeichertes bleibt erhalten."];
  }
}
