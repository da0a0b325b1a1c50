"""KV cache: step A → B → C → D through the cache, and a byte calculator.

The article's illustration (CONCEPTS.md §27): after A, B and C have been processed, D reuses
their stored keys and values and adds its own pair; D's query is compared with all four keys
and its result mixes the four values. Under causal masking later tokens never change earlier
entries, which is why they may be kept.

The byte formula was lost from the article (D9) and is reconstructed in CONCEPTS.md:

    bytes = 2 · layers · positions · kv_heads · numbers_per_vector · bytes_per_number (· batch)

The first 2 stands for K and V. The article's small example (1 layer, 4 positions, 2 K/V heads,
3 numbers, 4 bytes) gives 192 bytes, 48 bytes per position. Integer arithmetic only.

Proposal (P): the stepper goes on to E and F; the calculator's factors are number fields.
"""

from __future__ import annotations

from ..kit import fmt, svg
from ..kit.contract import Param, Preset, Readout, View
from ..kit.layout import NARROW, WIDE, width
from ..kit.lesson import Lesson, Near, Prediction, Task
from ..kit.table import table

SLUG = "kv-cache"
TITLE = "KV-Cache"
GROUP = "Die Inferenz-Engine"
TEASER = "Keys und Values früherer Tokens aufheben statt neu rechnen – und was das an Speicher kostet."

TOKENS = "ABCDEF"

PARAMS = (
    Param("step", "Verarbeitete Tokens", "int", 4, lo=1, hi=len(TOKENS), step=1,
          help="A, B, C, D … – jedes Token legt ein K/V-Paar in den Cache."),
    Param("layers", "Schichten", "int", 1, lo=1, hi=1000, step=1, widget="number"),
    Param("positions", "Positionen (Tokens)", "int", 4, lo=1, hi=10_000_000, step=1, widget="number"),
    Param("kv_heads", "K/V-Köpfe", "int", 2, lo=1, hi=1024, step=1, widget="number"),
    Param("dim", "Zahlen je K- bzw. V-Vektor", "int", 3, lo=1, hi=100_000, step=1, widget="number"),
    Param("bytes_per", "Byte je Zahl", "int", 4, lo=1, hi=8, step=1, widget="number",
          help="4 für 32-Bit-Zahlen, 2 für 16 Bit, 1 für 8 Bit."),
    Param("batch", "Batch (Texte gleichzeitig)", "int", 1, lo=1, hi=4096, step=1, widget="number"),
)

PRESETS = (
    Preset("A, B, C verarbeitet", {"step": 3}, "Drei K/V-Paare liegen im Cache."),
    Preset("D kommt dazu", {"step": 4}, "D liest drei Paare aus dem Cache und ergänzt sein eigenes."),
    Preset("Kleines Beispiel: 192 Byte", {}, "1 Schicht, 4 Positionen, 2 K/V-Köpfe, 3 Zahlen, 4 Byte."),
    Preset("16 Bit statt 32 Bit", {"bytes_per": 2}, "Halb so viele Byte je Zahl."),
    Preset("Größeres Modell", {"layers": 32, "positions": 4096, "kv_heads": 8, "dim": 128, "bytes_per": 2},
           "32 Schichten, 4096 Tokens, 8 K/V-Köpfe zu 128 Zahlen, 16 Bit."),
)


def kv_bytes(layers: int = 1, positions: int = 4, kv_heads: int = 2, dim: int = 3, bytes_per: int = 4,
             batch: int = 1) -> int:
    """Bytes of the stored K and V elements alone (no allocation overhead)."""
    return 2 * layers * positions * kv_heads * dim * bytes_per * batch


def compute(step: int = 4, layers: int = 1, positions: int = 4, kv_heads: int = 2, dim: int = 3,
            bytes_per: int = 4, batch: int = 1) -> dict:
    tokens = list(TOKENS[:step])
    factors = {"layers": layers, "kv_heads": kv_heads, "dim": dim, "bytes_per": bytes_per, "batch": batch}
    per_position = kv_bytes(positions=1, **factors)
    total = kv_bytes(positions=positions, **factors)
    return {
        "tokens": tokens,
        "step": step,
        "current": tokens[-1],
        "cached_read": tokens[:-1],  # pairs read from the cache in this step
        "new": [tokens[-1]],  # the one pair computed now
        "pairs": step,  # pairs in the cache after this step
        "keys_compared": step,  # the query meets every available key, its own included
        "kv_computed_with_cache": step,  # over all steps so far: one new pair per token
        "kv_computed_without_cache": step * (step + 1) // 2,  # recomputing the prefix every time
        **factors,
        "positions": positions,
        "per_position": per_position,
        "bytes": total,
        "bytes_stepper": per_position * step,
        "mib": total / fmt.MIB,
    }


# -- text ---------------------------------------------------------------------------------

def bytes_text(n: int) -> str:
    text = f"{fmt.de(n)}{fmt.THIN_NBSP}Byte"
    if n < fmt.MIB:
        return text
    return text + f" ({fmt.size(n, 'GiB' if n >= fmt.GIB else 'MiB')})"


# -- view ---------------------------------------------------------------------------------

def _key_sentence(r: dict) -> str:
    """The sentence under the figure: what the current token reads and adds, what recomputing would have
    cost so far, and the calculator's product with the cost of each further position (it grows linearly)."""
    read, current = len(r["cached_read"]), r["current"]
    if read == 0:
        text = f"{current} ist das erste Token: Der Cache ist noch leer, {current} berechnet nur sein eigenes Paar."
    else:
        text = (f"{current} liest {fmt.count(read, 'K/V-Paar', 'K/V-Paare')} aus dem Cache und berechnet nur sein "
                f"eigenes neu: {fmt.de(r['pairs'])} Paare. Ohne Cache wären es bis hier "
                f"{fmt.de(r['kv_computed_without_cache'])} K/V-Berechnungen statt {fmt.de(r['kv_computed_with_cache'])}.")
    return (text + f" Rechner: 2 × {fmt.de(r['layers'])} × {fmt.de(r['positions'])} × {fmt.de(r['kv_heads'])} × "
            f"{fmt.de(r['dim'])} × {fmt.de(r['bytes_per'])} × {fmt.de(r['batch'])} = {bytes_text(r['bytes'])}; "
            f"jede weitere Position kostet {bytes_text(r['per_position'])} mehr.")


def view(r: dict, layout: str = WIDE) -> View:
    # a narrow figure: closer tokens and table columns, a narrower query, the sentences below in lines
    narrow = layout == NARROW
    w = width(480, layout)
    left = 16
    n = len(TOKENS)
    row_h = 34
    y_tok = 34
    y_tab = 108
    h = y_tab + n * row_h + (114 if narrow else 70)
    parts = [svg.text(left, 18, "Tokens der Reihe nach", "pl-axis")]
    slot = 40 if narrow else 56
    for k, tok in enumerate(TOKENS):
        x = left + k * slot
        if k < r["step"] - 1:
            cls = "pl-kv-done"
        elif k == r["step"] - 1:
            cls = "pl-kv-now"
        else:
            cls = "pl-kv-later"
        parts.append(f'<rect class="pl-kv-tok {cls}" x="{x}" y="{y_tok}" width="{slot - 8}" height="34" rx="5"/>')
        parts.append(svg.text(x + (slot - 8) / 2, y_tok + 23, tok, "pl-label pl-kv-toklabel" +
                              (" pl-kv-faint" if k >= r["step"] else ""), "middle"))
    parts.append(svg.text(left + n * slot + 4, y_tok + 23, "jetzt: " + r["current"], "pl-label pl-value"))

    # the cache table: one row per position; V left, K right so that the query's lines reach the keys
    x_pos, x_tag, x_v, x_k, cw = (left, 88, 144, 202, 58) if narrow else (left, 104, 160, 248, 80)
    parts.append(svg.text(x_pos, y_tab - 10, "KV-Cache", "pl-axis"))
    parts.append(svg.text(x_v + cw / 2, y_tab - 10, "Value", "pl-axis", "middle"))
    parts.append(svg.text(x_k + cw / 2, y_tab - 10, "Key", "pl-axis", "middle"))
    x_q, qw = (264, 70) if narrow else (390, 80)
    y_q = y_tab + (r["step"] - 1) * row_h + 2
    for k, tok in enumerate(TOKENS):
        y = y_tab + k * row_h
        if k >= r["step"]:
            parts.append(f'<rect class="pl-kv-empty" x="{x_v}" y="{y + 2}" width="{x_k + cw - x_v}" height="{row_h - 6}" rx="4"/>')
            parts.append(svg.text(x_pos, y + 21, f"Pos. {k + 1}", "pl-label pl-kv-faint"))
            continue
        new = k == r["step"] - 1
        cls = "pl-kv-new" if new else "pl-kv-read"
        parts.append(svg.text(x_pos, y + 21, f"Pos. {k + 1} ({tok})", "pl-label"))
        for x, name in ((x_v, "V"), (x_k, "K")):
            parts.append(f'<rect class="pl-kv-cell {cls}" x="{x}" y="{y + 2}" width="{cw - 6}" height="{row_h - 6}" rx="4">'
                         f'<title>{name} von {tok}: {"neu berechnet" if new else "aus dem Cache gelesen"}</title></rect>')
            parts.append(svg.text(x + (cw - 6) / 2, y + 21, f"{name}({tok})", "pl-label pl-kv-in", "middle"))
        parts.append(f'<line class="pl-kv-link" x1="{x_k + cw - 6}" y1="{y + row_h / 2 - 1}" x2="{x_q}" '
                     f'y2="{y_q + 14}"/>')
        parts.append(svg.text(x_tag, y + 21, "neu" if new else "gelesen",
                              "pl-tick pl-kv-tag-new" if new else "pl-tick", "start"))
    parts.append(f'<rect class="pl-kv-query" x="{x_q}" y="{y_q}" width="{qw}" height="28" rx="5"/>')
    parts.append(svg.text(x_q + qw / 2, y_q + 19, f"Query({r['current']})", "pl-label pl-kv-in", "middle"))
    y_b = y_tab + n * row_h + 22
    compared = (f"{r['current']} vergleicht seine Query mit {r['keys_compared']} Keys",
                f"und mischt {r['keys_compared']} Values.")
    cache = (f"Cache jetzt: {r['pairs']} Paare × {fmt.de(r['per_position'])} Byte",
             f"= {fmt.de(r['bytes_stepper'])} Byte", "(Faktoren aus dem Rechner)")
    if narrow:
        parts += [svg.text(left, y_b + 20 * k, text, "pl-label") for k, text in enumerate(compared)]
        parts += [svg.text(left, y_b + 44 + 18 * k, text, "pl-tick") for k, text in enumerate(cache)]
    else:
        parts.append(svg.text(left, y_b, " ".join(compared), "pl-label"))
        parts.append(svg.text(left, y_b + 24, " ".join(cache), "pl-tick"))
    figure = svg.figure(w, h, parts, cls="pl-kv", layout=layout,
                        label=f'KV-Cache nach {r["step"]} Tokens: {r["current"]} liest {len(r["cached_read"])} '
                              "gespeicherte Paare und ergänzt sein eigenes")

    readouts = [
        Readout("pairs", "K/V-Paare im Cache", fmt.de(r["pairs"]), r["pairs"], True),
        Readout("read", f"{r['current']} liest aus dem Cache", fmt.de(len(r["cached_read"])) + " Paare",
                len(r["cached_read"])),
        Readout("new", "neu berechnet", "1 Paar", 1),
        Readout("recompute", "K/V-Berechnungen ohne Cache (bisher)", fmt.de(r["kv_computed_without_cache"]),
                r["kv_computed_without_cache"]),
        Readout("bytes", "Cache laut Rechner", bytes_text(r["bytes"]), r["bytes"], True),
        Readout("per_position", "je Position", bytes_text(r["per_position"]), r["per_position"]),
    ]
    summary = _key_sentence(r)
    return View(figure, readouts, summary, _table(r))


def _table(r: dict) -> str:
    rows = (("K und V", 2, "zwei getrennte Tensoren"), ("Schichten", r["layers"], ""),
            ("Positionen", r["positions"], ""), ("K/V-Köpfe", r["kv_heads"], ""),
            ("Zahlen je Vektor", r["dim"], ""), ("Byte je Zahl", r["bytes_per"], ""), ("Batch", r["batch"], ""))
    cells = [(label, fmt.de(v), note) for label, v, note in rows]
    cells.append(("Produkt", bytes_text(r["bytes"]), f"{bytes_text(r['per_position'])} je Position"))
    return table(("Faktor", "Wert", ""), cells, caption="Byte-Rechner: nur die Tensorelemente, ohne Verwaltungsaufwand",
                 highlight=len(cells) - 1, row_heads=True, numeric=True, wide=True)


# -- the lesson ---------------------------------------------------------------------------

BIGGER = next(p.values for p in PRESETS if p.label == "Größeres Modell")  # the tasks start from it


def _bigger_except(params, *free) -> bool:
    """The „Größeres Modell“ (one text), except for the factors the task lets the reader change."""
    fixed = {**BIGGER, "batch": 1}
    return all(params[k] == v for k, v in fixed.items() if k not in free)


LESSON = Lesson(
    prediction=Prediction(
        question="Das Token F kommt dran. Mit wie vielen Keys vergleicht seine Query?",
        choices=("mit einem, seinem eigenen", "mit fünf, nur den gespeicherten", "mit sechs, allen"),
        answer=2,
        shown=lambda params, result: result["step"] == len(TOKENS),
        explain="F liest die fünf Paare von A bis E aus dem Cache und legt sein eigenes dazu. "
                "Seine Query vergleicht sich mit allen sechs Keys.",
        example={"step": 6},
        why_not=("Man könnte meinen, mit Cache muss F die alten Tokens nicht mehr ansehen. Gespart wird aber nur "
                 "das Neuberechnen ihrer Keys. Die Query von F vergleicht sich trotzdem mit allen.",
                 "Vor F liegen tatsächlich fünf Paare im Cache. F legt aber sofort sein eigenes Paar dazu. "
                 "Auch mit diesem eigenen Key vergleicht sich seine Query.",
                 ""),
    ),
    tasks=(
        # exactly three times: „at least“ would be solved by the prediction's own example (step 6, 3,5 times)
        Task("three_times", "Gehe mit dem Regler so weit, dass ohne Cache genau dreimal so viele Paare "
                            "berechnet würden wie mit Cache.",
             solved=lambda params, result: result["kv_computed_without_cache"] == 3 * result["kv_computed_with_cache"],
             explain="Ohne Cache rechnet jeder Schritt alle bisherigen Paare neu: bei E 1 + 2 + 3 + 4 + 5 = 15 "
                     "statt 5. Der Unterschied wächst mit jedem Token.",
             example={"step": 5},
             hints=("Vergleiche „K/V-Paare im Cache“ mit „K/V-Berechnungen ohne Cache (bisher)“.",
                    "Ohne Cache rechnet jeder Schritt alle bisherigen Paare neu: 1 + 2 + 3 + … Paare.",
                    "Bewege „Verarbeitete Tokens“ und prüfe bei jedem Token, ob das Verhältnis genau 3 ist.")),
        Task("one_gib", "Nimm das „Größere Modell“ und ändere nur die Positionen, bis der Cache genau 1 GiB belegt.",
             solved=lambda params, result: _bigger_except(params, "positions") and result["bytes"] == fmt.GIB,
             explain="Jede Position kostet hier 128 KiB. In 1 GiB passen also genau 8192 Positionen, "
                     "bei einem einzigen Text.",
             example={**BIGGER, "positions": 8192},
             hints=("„je Position“ sagt, wie viel Speicher eine einzige Position kostet.",
                    "1 GiB sind 1024 · 1024 · 1024 Byte. Teile das durch die Byte je Position.",
                    "Ändere nur „Positionen (Tokens)“. Alle anderen Felder bleiben wie im „Größeren Modell“."),
             near=Near(lambda params, result: (_bigger_except(params, "positions")
                                               and 0.8 * fmt.GIB <= result["bytes"] <= 1.25 * fmt.GIB),
                       "Fast: Der Cache liegt schon nahe bei 1 GiB. Es fehlen noch ein paar Positionen, "
                       "oder es sind ein paar zu viel.",
                       {**BIGGER, "positions": 8000})),
        Task("fewer_heads", "Nimm das „Größere Modell“ und bringe den Cache auf höchstens 128 MiB. Ändere dafür "
                            "nur die K/V-Köpfe oder die Byte je Zahl.",
             solved=lambda params, result: (_bigger_except(params, "kv_heads", "bytes_per")
                                            and result["bytes"] <= 128 * fmt.MIB),
             explain="Der Speicher wächst linear mit jedem Faktor. Weniger K/V-Köpfe, wie bei GQA und MQA, "
                     "oder kürzere Zahlen sparen direkt Platz.",
             example={**BIGGER, "kv_heads": 2},
             hints=("Der Speicher ist ein Produkt. Halbierst du einen Faktor, halbiert sich der Cache.",
                    "Vergleiche den Cache des „Größeren Modells“ mit 128 MiB. Um welchen Faktor muss er kleiner werden?",
                    "Verkleinere „K/V-Köpfe“ oder „Byte je Zahl“, oder beide ein Stück."),
             near=Near(lambda params, result: (_bigger_except(params, "kv_heads", "bytes_per")
                                               and result["bytes"] <= 256 * fmt.MIB),
                       "Fast: Der Cache ist höchstens doppelt so groß wie erlaubt. Verkleinere noch einen Faktor.",
                       {**BIGGER, "kv_heads": 4})),
    ),
    discussion=(
        "Warum darf ein Modell die Keys und Values früherer Tokens aufheben, ohne dass die Antwort falsch wird?",
        "Der Cache spart Rechenzeit, kostet aber Speicher. Was wird knapp, wenn viele Menschen gleichzeitig "
        "lange Texte schicken?",
    ),
    teacher=(
        "Durch die kausale Maske ändern spätere Tokens nichts an früheren Keys und Values. "
        "Was einmal berechnet ist, bleibt gültig.",
        "Der Speicher wächst mit der Textlänge und mit der Zahl der Texte im Batch. Irgendwann passt der "
        "Cache nicht mehr in den Grafikspeicher, und der Server muss Anfragen warten lassen.",
    ),
    misconceptions=(
        "„Mit Cache muss das Modell die alten Tokens nicht mehr ansehen.“ Lesen muss es sie weiterhin; "
        "gespart wird nur das Neuberechnen.",
        "„Der Cache ist klein, weil er nur Zahlen speichert.“ Bei großen Modellen und langen Texten sind es "
        "schnell Hunderte MiB pro Text.",
    ),
)
