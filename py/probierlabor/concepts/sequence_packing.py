"""Sequence packing: several training examples in one input row of 8 slots.

Nothing is simulated: the page only shows *where* tokens sit, *which links* attention allows
and *which positions* the loss scores. All of it is counting with boolean masks.

The examples (CONCEPTS.md §9, D7: the article gives only „3 examples, 7 tokens, 8 slots“; the
individual lengths are our choice and documented on the page):

* „Drei kurze Beispiele“: A = „Vielen Dank“ → A1 A2 ■A (3), B = „Nein“ → B1 ■B (2),
  C = „Gern“ → C1 ■C (2). One word is one token; ■ is the end token of its example.
* „Volle Zeilen“: three examples of 7 words + ■, each already fills a row of 8.
* „Ein zu langes Beispiel“: A, B, C and D = 9 words + ■ (10 tokens, longer than a row).

The rules follow TRL 0.29.0:

* without packing every example is its own row, cut to 8 slots (TRL truncates by default) and
  padded to the longest row of the batch;
* ``bfd`` (``pack_dataset``): every example is first cut to 8 tokens (the overflow is lost), then
  sorted by length, longest first, and put into the row with the least space that still fits it
  (a new row if none fits). The example lengths are kept, so the boundaries are known;
* ``wrapped``: all examples are concatenated and cut every 8 tokens, mid-text if need be; no
  lengths are kept, so a row counts as one text and no boundary can be restored;
* „Trennung der Zugriffe“ (boundary-aware attention): a position may read only earlier positions
  of its own example; without it the ordinary causal mask lets it read everything earlier in the
  row. Rows never read each other;
* „Anfänge nicht bewerten“: the loss scores token t when it is predicted from the slot before it
  in the same row; the first token of a known example is not scored (TRL sets its label to −100).

A packed row always has 8 slots; in the toy batch a shorter last row is padded to 8 as well.
"""

from __future__ import annotations

import textwrap
from html import escape

from ..kit import fmt, svg
from ..kit.contract import Param, Preset, Readout, View
from ..kit.layout import NARROW, NARROW_MIN_FONT, WIDE, width
from ..kit.lesson import Lesson, Near, Prediction, Task

SLUG = "sequence-packing"
TITLE = "Sequence Packing"
GROUP = "Lernen und Bewerten"
TEASER = "Mehrere Beispiele in einer Zeile: weniger leere Plätze – aber nur mit Grenzen bleiben sie unabhängig."

ROW = 8  # slots per row: our simplification, not a TRL default

EXAMPLES = {
    "kurz": (
        ("A", "Vielen Dank", 3),
        ("B", "Nein", 2),
        ("C", "Gern", 2),
    ),
    "voll": (
        ("A", "Vielen Dank für die schnelle Lieferung gestern", 8),
        ("B", "Nein, das Paket ist noch nicht da", 8),
        ("C", "Gern, dann schicken wir es heute los", 8),
    ),
    "lang": (
        ("A", "Vielen Dank", 3),
        ("B", "Nein", 2),
        ("C", "Gern", 2),
        ("D", "Ihr Paket kommt morgen zwischen neun und zwölf Uhr", 10),
    ),
}

VARIANTS = (("kurz", "Drei kurze Beispiele"), ("voll", "Volle Zeilen"), ("lang", "Ein zu langes Beispiel"))
STRATEGIES = (("bfd", "bfd (ganze Beispiele)"), ("wrapped", "wrapped (fortlaufend)"))

PARAMS = (
    Param("variant", "Beispiele", "choice", "kurz", choices=VARIANTS,
          help="Welche Trainingsbeispiele in den Batch kommen."),
    Param("packing", "Packing", "bool", True,
          help="Mehrere Beispiele teilen sich eine Zeile mit 8 Plätzen."),
    Param("strategy", "Strategie", "choice", "bfd", choices=STRATEGIES,
          help="Wie die Beispiele auf Zeilen verteilt werden (wirkt nur mit Packing)."),
    Param("separation", "Trennung der Zugriffe", "bool", True,
          help="Eine Position darf nur Text aus ihrem eigenen Beispiel lesen."),
    Param("start_loss", "Anfänge nicht bewerten", "bool", True,
          help="Das erste Token eines Beispiels wird nicht aus dem Ende des vorigen gelernt."),
)

PRESETS = (
    Preset("Von vorn", {}, "Drei kurze Beispiele, gepackt, mit Trennung und Maske."),
    Preset("Ohne Packing", {"packing": False}, "Jedes Beispiel in seiner eigenen Zeile."),
    Preset("Ohne Trennung", {"separation": False}, "Gepackt, aber B1 darf A lesen."),
    Preset("Ohne Anfangs-Maske", {"start_loss": False}, "B1 wird aus dem Ende von A gelernt."),
    Preset("Volle Zeilen", {"variant": "voll"}, "Jedes Beispiel füllt schon eine Zeile."),
    Preset("Zu lang: bfd", {"variant": "lang", "strategy": "bfd"}, "Das lange Beispiel wird gekürzt."),
    Preset("Zu lang: wrapped", {"variant": "lang", "strategy": "wrapped"}, "Der Text wird mitten im Beispiel geteilt."),
)


# -- tokens and layouts -------------------------------------------------------

def tokens(letter: str, length: int) -> list[dict]:
    """An example as tokens: A1, A2, …, and its end token ■A last."""
    out = [{"ex": letter, "i": i + 1, "end": False, "label": f"{letter}{i + 1}"} for i in range(length - 1)]
    out.append({"ex": letter, "i": length, "end": True, "label": f"■{letter}"})
    return out


def examples(variant: str) -> list[list[dict]]:
    return [tokens(letter, length) for letter, _, length in EXAMPLES[variant]]


def best_fit_decreasing(lengths: list[int], capacity: int = ROW) -> list[list[int]]:
    """Indices per bin. Longest first (ties keep their order); each goes to the bin with the least
    free space that still fits it, the oldest such bin on a tie; a new bin if none fits
    (as TRL's ``_pack_bfd`` with its segment tree)."""
    order = sorted(range(len(lengths)), key=lambda i: -lengths[i])
    bins: list[list[int]] = []
    free: list[int] = []
    for i in order:
        fitting = [b for b in range(len(bins)) if free[b] >= lengths[i]]
        if fitting:
            b = min(fitting, key=lambda k: (free[k], k))
        else:
            bins.append([])
            free.append(capacity)
            b = len(bins) - 1
        bins[b].append(i)
        free[b] -= lengths[i]
    return bins


def layout(variant: str, packing: bool, strategy: str) -> dict:
    """Rows of slots (a token dict or None for an empty slot), lost tokens, row width, and
    whether the example boundaries are still known."""
    exs = examples(variant)
    lost: list[dict] = []
    if packing and strategy == "wrapped":
        stream = [t for ex in exs for t in ex]
        rows = [stream[k:k + ROW] for k in range(0, len(stream), ROW)]
        width, bounded = ROW, False
    else:
        cut = [ex[:ROW] for ex in exs]
        lost = [t for ex in exs for t in ex[ROW:]]
        if packing:
            bins = best_fit_decreasing([len(ex) for ex in cut])
            rows = [[t for i in b for t in cut[i]] for b in bins]
            width = ROW
        else:
            rows = cut
            width = max(len(r) for r in rows)
        bounded = True
    rows = [list(r) + [None] * (width - len(r)) for r in rows]
    return {"rows": rows, "width": width, "lost": lost, "bounded": bounded}


def _segment(tok: dict, row: int, bounded: bool):
    """The document a token belongs to, as far as the training code knows it."""
    return tok["ex"] if bounded else ("row", row)


def attention(lay: dict, separation: bool) -> dict:
    """Allowed query→key links over the real tokens in reading order (row by row)."""
    order = [(r, c, t) for r, row in enumerate(lay["rows"]) for c, t in enumerate(row) if t is not None]
    n = len(order)
    cells = [[0] * n for _ in range(n)]  # 0 no link (future or another row), 1 allowed,
    # 2 allowed across an example boundary, 3 blocked by the separation
    for qi, (qr, qc, qt) in enumerate(order):
        for ki, (kr, kc, kt) in enumerate(order):
            if kr != qr or kc > qc:
                continue
            same_doc = _segment(qt, qr, lay["bounded"]) == _segment(kt, kr, lay["bounded"])
            if separation and not same_doc:
                cells[qi][ki] = 3
            else:
                cells[qi][ki] = 1 if kt["ex"] == qt["ex"] else 2
    return {"labels": [t["label"] for _, _, t in order], "examples": [t["ex"] for _, _, t in order],
            "rows": [r for r, _, _ in order], "cells": cells}


def loss_marks(lay: dict, start_loss: bool) -> list[list[str | None]]:
    """Per slot: None (nothing predicts it: row start or empty slot), "off" (an example start
    left out of the loss), "ok" (scored within its example), "leak" (scored across a boundary)."""
    marks = []
    for r, row in enumerate(lay["rows"]):
        line: list[str | None] = []
        for c, t in enumerate(row):
            prev = row[c - 1] if c > 0 else None
            if t is None or prev is None:
                line.append(None)
            elif start_loss and _segment(prev, r, lay["bounded"]) != _segment(t, r, lay["bounded"]):
                line.append("off")
            else:
                line.append("ok" if prev["ex"] == t["ex"] else "leak")
        marks.append(line)
    return marks


def compute(variant: str = "kurz", packing: bool = True, strategy: str = "bfd",
            separation: bool = True, start_loss: bool = True) -> dict:
    lay = layout(variant, packing, strategy)
    other = layout(variant, not packing, strategy)
    att = attention(lay, separation)
    marks = loss_marks(lay, start_loss)
    rows = lay["rows"]
    slots = len(rows) * lay["width"]
    used = sum(t is not None for row in rows for t in row)
    flat = [m for line in marks for m in line]
    n = len(att["labels"])
    links = sum(v in (1, 2) for line in att["cells"] for v in line)
    cross = sum(v == 2 for line in att["cells"] for v in line)
    b1 = att["labels"].index("B1")
    where: dict[str, set] = {}
    for r, row in enumerate(rows):
        for t in row:
            if t is not None:
                where.setdefault(t["ex"], set()).add(r)
    split = sorted(ex for ex, rs in where.items() if len(rs) > 1)
    return {
        "variant": variant,
        "packing": packing,
        "strategy": strategy,
        "separation": separation,
        "start_loss": start_loss,
        "bounded": lay["bounded"],
        "lengths": [length for _, _, length in EXAMPLES[variant]],
        "total_tokens": sum(length for _, _, length in EXAMPLES[variant]),
        "width": lay["width"],
        "rows": [[None if t is None else t["label"] for t in row] for row in rows],
        "row_examples": [[None if t is None else t["ex"] for t in row] for row in rows],
        "n_rows": len(rows),
        "slots": slots,
        "used": used,
        "padding": slots - used,
        "other_slots": len(other["rows"]) * other["width"],
        "other_padding": len(other["rows"]) * other["width"]
        - sum(t is not None for row in other["rows"] for t in row),
        "tokens": n,
        "links": links,
        "cross_links": cross,
        "blocked_by_separation": sum(v == 3 for line in att["cells"] for v in line),
        "b1_reads": [att["labels"][k] for k in range(n) if att["cells"][b1][k] in (1, 2)],
        "grid": att,
        "loss": [list(line) for line in marks],
        "scored": [rows[r][c]["label"] for r, line in enumerate(marks) for c, m in enumerate(line)
                   if m in ("ok", "leak")],
        "scored_count": sum(m in ("ok", "leak") for m in flat),
        "leak_targets": [rows[r][c]["label"] for r, line in enumerate(marks) for c, m in enumerate(line)
                         if m == "leak"],
        "leak_count": sum(m == "leak" for m in flat),
        "excluded": [rows[r][c]["label"] for r, line in enumerate(marks) for c, m in enumerate(line)
                     if m == "off"],
        "lost": [t["label"] for t in lay["lost"]],
        "lost_count": len(lay["lost"]),
        "split": split,
        "split_rows": {ex: len(where[ex]) for ex in split},
    }


# -- what the page shows -----------------------------------------------------

EX_CLASS = {"A": "pl-sp-a", "B": "pl-sp-b", "C": "pl-sp-c", "D": "pl-sp-d"}




def _rows_figure(r: dict, layout: str) -> str:
    # a narrow figure: narrower slots, long example texts in two lines, the legend in two rows
    narrow = layout == NARROW
    w = width(460, layout)
    left, top = (66, 14) if narrow else (74, 14)
    cell = (w - left - 8) / ROW if narrow else 46
    names = EXAMPLES[r["variant"]]
    out = []
    y = top
    for letter, text, length in names:
        out.append(svg.text(8, y + 12, f"{letter}", f"pl-label pl-sp-letter {EX_CLASS[letter]}-text"))
        about = f"„{text}“ · {fmt.count(length, 'Token', 'Tokens')}"
        for line in textwrap.wrap(about, 42) if narrow else [about]:
            out.append(svg.text(24, y + 12, line, "pl-sp-small"))
            y += 17
    y += 10
    title = ("ohne Packing: jedes Beispiel eine Zeile" if not r["packing"]
             else f"Packing mit {r['strategy']}: Zeilen zu {ROW} Plätzen")
    out.append(svg.text(8, y + 4, title, "pl-label pl-sp-title"))
    y += 14
    for ri, (row, exs, marks) in enumerate(zip(r["rows"], r["row_examples"], r["loss"])):
        out.append(svg.text(8, y + 22, f"Zeile {ri + 1}", "pl-label"))
        for c, (label, ex, mark) in enumerate(zip(row, exs, marks)):
            x = left + c * cell
            if label is None:
                out.append(f'<rect class="pl-sp-pad" x="{x + 1:g}" y="{y}" width="{cell - 2:g}" height="32" rx="3">'
                           f"<title>leerer Platz</title></rect>")
                continue
            out.append(f'<rect class="pl-sp-tok {EX_CLASS[ex]}" x="{x + 1:g}" y="{y}" width="{cell - 2:g}" '
                       f'height="32" rx="3"><title>{escape(label)}</title></rect>')
            out.append(svg.text(x + cell / 2, y + 21, label, "pl-sp-toklabel", "middle"))
            out.append(_mark(x + cell / 2, y + 44, mark))
        # the boundary a position may not cross (only where boundaries are known and separated)
        if r["packing"] and r["bounded"] and r["separation"]:
            for c in range(1, len(row)):
                if row[c] is not None and row[c - 1] is not None and exs[c] != exs[c - 1]:
                    x = left + c * cell
                    out.append(f'<line class="pl-sp-wall" x1="{x:g}" y1="{y - 4}" x2="{x:g}" y2="{y + 36}"/>')
        y += 58
    if r["lost"]:
        out.append(svg.text(8, y + 4, "abgeschnitten: " + " ".join(r["lost"]), "pl-label pl-sp-lost"))
        y += 20
    # legend for the loss marks
    y += 6
    out.append(_mark(14, y, "ok"))
    out.append(svg.text(24, y + 4, "bewertet", "pl-legend"))
    out.append(_mark(100, y, "off"))
    out.append(svg.text(110, y + 4, "Anfang, nicht bewertet", "pl-legend"))
    if narrow:
        y += 20
    leak_x = 14 if narrow else 268
    out.append(_mark(leak_x, y, "leak"))
    out.append(svg.text(leak_x + 10, y + 4, "über eine Grenze bewertet", "pl-legend"))
    height = y + 14
    return svg.figure(w, height, out, label="Zeilen des Batches mit Verlust-Markierungen", cls="pl-sp", layout=layout)


def _mark(x: float, y: float, mark) -> str:
    if mark == "ok":
        return f'<circle class="pl-sp-loss-ok" cx="{x:.1f}" cy="{y:.1f}" r="4.5"><title>bewertet</title></circle>'
    if mark == "off":
        return (f'<g class="pl-sp-loss-off"><title>Beispielanfang: nicht bewertet</title>'
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4.5"/>'
                f'<line x1="{x - 3:.1f}" y1="{y - 3:.1f}" x2="{x + 3:.1f}" y2="{y + 3:.1f}"/>'
                f'<line x1="{x - 3:.1f}" y1="{y + 3:.1f}" x2="{x + 3:.1f}" y2="{y - 3:.1f}"/></g>')
    if mark == "leak":
        return (f'<path class="pl-sp-loss-leak" d="M{x:.1f},{y - 6:.1f} L{x + 6:.1f},{y + 4.5:.1f} '
                f'L{x - 6:.1f},{y + 4.5:.1f} Z"><title>über eine Beispielgrenze bewertet</title></path>')
    return ""


def _grid_figure(r: dict, layout: str) -> str:
    # a narrow figure keeps its labels at 12 px and staggers the column labels where cells are narrow
    narrow = layout == NARROW
    g = r["grid"]
    n = len(g["labels"])
    left = 40
    w = width(left + 310, layout)
    cell = min(36.0, (w - left - 10) / n)
    stagger = 12 if narrow and cell < 18 else 0
    top = 40 + stagger
    size = cell * n
    font = NARROW_MIN_FONT if narrow else max(7.0, min(12.0, cell * 0.62))
    out = [svg.text(left + size / 2, 13, "… liest diese Position", "pl-axis", "middle"),
           f'<text class="pl-axis" transform="translate(12 {top + size / 2:.1f}) rotate(-90)" '
           f'text-anchor="middle">Position …</text>']
    names = {1: "erlaubt", 2: "erlaubt über eine Grenze", 3: "durch die Trennung gesperrt"}
    for qi in range(n):
        for ki in range(n):
            v = g["cells"][qi][ki]
            x, y = left + ki * cell, top + qi * cell
            if v == 0:
                cls = "pl-sp-none"
            elif v == 1:
                cls = f"pl-sp-link {EX_CLASS[g['examples'][ki]]}"
            elif v == 2:
                cls = "pl-sp-leak"
            else:
                cls = "pl-sp-blocked"
            tip = f"{g['labels'][qi]} → {g['labels'][ki]}: {names.get(v, 'keine Verbindung')}"
            out.append(f'<rect class="{cls}" x="{x:.1f}" y="{y:.1f}" width="{cell:.1f}" height="{cell:.1f}">'
                       f"<title>{escape(tip)}</title></rect>")
            if v == 2 and cell >= 10:
                out.append(f'<line class="pl-sp-hatch" x1="{x + 2:.1f}" y1="{y + cell - 2:.1f}" '
                           f'x2="{x + cell - 2:.1f}" y2="{y + 2:.1f}"/>')
    for i, label in enumerate(g["labels"]):
        c = left + (i + 0.5) * cell
        out.append(f'<text class="pl-sp-axislabel" x="{c:.1f}" y="{top - 5 - stagger * (i % 2)}" text-anchor="middle" '
                   f'font-size="{font:.1f}">{escape(label)}</text>')
        out.append(f'<text class="pl-sp-axislabel" x="{left - 4}" y="{top + (i + 0.5) * cell + font / 3:.1f}" '
                   f'text-anchor="end" font-size="{font:.1f}">{escape(label)}</text>')
    # batch rows never read each other: thick separators
    for i in range(1, n):
        if g["rows"][i] != g["rows"][i - 1]:
            p = i * cell
            out.append(f'<line class="pl-sp-rowline" x1="{left}" y1="{top + p:.1f}" x2="{left + size:.1f}" y2="{top + p:.1f}"/>')
            out.append(f'<line class="pl-sp-rowline" x1="{left + p:.1f}" y1="{top}" x2="{left + p:.1f}" y2="{top + size:.1f}"/>')
    out.append(f'<rect class="pl-frame" x="{left}" y="{top}" width="{size:.1f}" height="{size:.1f}"/>')
    b1 = g["labels"].index("B1")
    out.append(f'<rect class="pl-sp-focus" x="{left - 1}" y="{top + b1 * cell:.1f}" width="{size + 2:.1f}" '
               f'height="{cell:.1f}"/>')
    y = top + size + 18
    legend = [("pl-sp-link pl-sp-a", "erlaubt"), ("pl-sp-leak", "erlaubt über eine Grenze"),
              ("pl-sp-blocked", "durch Trennung gesperrt"), ("pl-sp-focus", "die Zeile von B1")]
    for i, (cls, text) in enumerate(legend):
        out.append(svg.key(left, y + i * 17 + 1, cls, text, gap=6))
    height = y + 4 * 17
    return svg.figure(w, height, out, label="Erlaubte Verbindungen der Attention", cls="pl-sp", layout=layout)


def _count_text(total: int, cross: int, what: str) -> str:
    return f"{total}, davon {cross} über {what}" if cross else str(total)


def _key_sentence(r: dict, packing_name: str, whole: str) -> str:
    """The sentence under the rows: the places packing saves, and the two things to check apart –
    whom B1 reads, and which predictions the loss counts across a boundary."""
    slots, other = r["slots"], r["other_slots"]
    mode, then = (packing_name, "ohne Packing") if r["packing"] else ("ohne Packing", packing_name)
    saved = other - slots if r["packing"] else slots - other
    gain = (f"Packing {'spart' if r['packing'] else 'würde'} {fmt.count(saved, 'Platz', 'Plätze')}"
            + ("" if r["packing"] else " sparen") if saved > 0 else "Packing spart hier keinen Platz")
    parts = [f"{dict(VARIANTS)[r['variant']]} {mode}: {slots} Plätze, {r['padding']} davon leer, {then} "
             f"{other} mit {r['other_padding']} leeren – {gain}."]
    if r["packing"] and not r["bounded"]:
        parts.append("Die Strategie wrapped kennt keine Beispielgrenzen mehr, Trennung und Anfangs-Maske greifen nicht.")
    others = [t for t in r["b1_reads"] if t != "B1"]
    reads = f"B1 liest auch {', '.join(others)} aus einem anderen Beispiel" if others else "B1 liest nur sich selbst"
    parts.append(f"{reads}: {r['cross_links']} der {r['links']} erlaubten Verbindungen führen über eine Beispielgrenze."
                 if r["cross_links"] else
                 f"{reads}; keine der {r['links']} erlaubten Verbindungen führt über eine Grenze.")
    leaks = r["leak_targets"]
    if leaks:
        parts.append(f"{r['scored_count']} Vorhersagen zählen im Verlust, {len(leaks)} davon über eine Grenze "
                     f"({', '.join(leaks)}): Dort lernt das Modell Unsinn.")
    else:
        parts.append(f"{r['scored_count']} Vorhersagen zählen im Verlust, keine über eine Grenze.")
    if r["lost"] or r["split"]:
        parts.append(f"Beispiele: {whole}.")
    return " ".join(parts)


def view(r: dict, layout: str = WIDE) -> View:
    packing_name = f"mit Packing ({r['strategy']})"
    if r["packing"]:
        compare = f"ohne Packing: {r['other_slots']} Plätze, {r['other_padding']} leer"
    else:
        compare = f"mit Packing ({r['strategy']}): {r['other_slots']} Plätze, {r['other_padding']} leer"
    if r["lost"]:
        whole = f"{fmt.count(len(r['lost']), 'Token', 'Tokens')} abgeschnitten ({', '.join(r['lost'])})"
    elif r["split"]:
        whole = "; ".join(f"{ex} auf {k} Zeilen geteilt" for ex, k in r["split_rows"].items())
    else:
        whole = "alle vollständig"
    b1 = "nur B1" if r["b1_reads"] == ["B1"] else ", ".join(r["b1_reads"])
    readouts = [
        Readout("slots", "Plätze im Batch",
                f"{r['slots']} ({r['n_rows']} {'Zeile' if r['n_rows'] == 1 else 'Zeilen'} × {r['width']})", r["slots"]),
        Readout("padding", "davon leer", str(r["padding"]), r["padding"], True),
        Readout("compare", "Zum Vergleich", compare, r["other_slots"]),
        Readout("links", "Erlaubte Verbindungen", _count_text(r["links"], r["cross_links"], "Grenzen"),
                r["links"], True),
        Readout("b1_reads", "B1 liest", b1, r["b1_reads"], True),
        Readout("scored", "Bewertete Vorhersagen",
                _count_text(r["scored_count"], len(r["leak_targets"]), "Grenzen"), r["scored_count"]),
        Readout("whole", "Beispiele", whole, r["lost"] or r["split"]),
    ]
    summary = _key_sentence(r, packing_name, whole)
    return View(_rows_figure(r, layout), readouts, summary, _grid_figure(r, layout))


# -- the lesson ---------------------------------------------------------------------------

LESSON = Lesson(
    prediction=Prediction(
        question="A, B und C teilen sich eine Zeile. Du schaltest die Trennung der Zugriffe aus. "
                 "Welche Tokens darf B1 dann lesen?",
        choices=("nur B1", "B1 und alle Tokens von A davor", "alle 7 Tokens der Zeile"),
        answer=1,
        shown=lambda params, result: (result["variant"] == "kurz" and result["bounded"]
                                      and result["n_rows"] == 1 and not result["separation"]),
        explain="Ohne Trennung liest jede Position alles, was in ihrer Zeile davor steht. "
                "B1 sieht also auch A1, A2 und ■A, obwohl sie zu einem anderen Beispiel gehören.",
        example={"separation": False},
        why_not=("Die Beispiele haben nichts miteinander zu tun, also soll B1 nur sich selbst sehen. "
                 "Dafür sorgt aber erst die „Trennung der Zugriffe“. Ohne sie liest B1 alles, was davor in der Zeile steht.",
                 "",
                 "Ohne Trennung fällt eine Schranke weg, aber nicht beide. Die kausale Maske bleibt: "
                 "B1 liest nie, was nach ihm in der Zeile steht, also weder ■B noch C."),
    ),
    tasks=(
        Task("no_gain", "Finde Beispiele, bei denen Packing keinen einzigen Platz spart.",
             solved=lambda params, result: result["slots"] == result["other_slots"],
             explain="Jedes Beispiel füllt schon eine ganze Zeile. "
                     "Packing hilft nur, wenn kurze Beispiele Lücken lassen.",
             example={"variant": "voll"},
             hints=("Packing füllt Lücken in den Zeilen. Wann gibt es keine Lücken?",
                    "Probiere unter „Beispiele“ die anderen Sätze aus. Vergleiche die Plätze mit und ohne Packing.")),
        Task("leak", "Finde eine Einstellung, bei der ein Token aus dem Ende eines anderen Beispiels gelernt wird.",
             solved=lambda params, result: result["leak_count"] > 0,
             explain="Jetzt soll das Modell den Anfang eines Beispiels aus dem Ende des vorigen vorhersagen. "
                     "Zwischen beiden gibt es keinen Zusammenhang, also lernt es Unsinn.",
             example={"start_loss": False},
             hints=("Schaue auf die erste Vorhersage jedes Beispiels: Aus welchem Text würde sie gelernt?",
                    "Schalte „Anfänge nicht bewerten“ aus, während mehrere Beispiele eine Zeile teilen."),
             near=Near(lambda params, result: not result["start_loss"] and result["leak_count"] == 0,
                       "Fast: Die Anfänge werden jetzt bewertet. Aber kein Beispiel steht hinter einem anderen "
                       "in derselben Zeile.",
                       {"start_loss": False, "packing": False})),
        # Not „find a setting that loses text“: choosing the long example alone does that.
        Task("nothing_lost", "Wähle „Ein zu langes Beispiel“. Finde eine Einstellung, bei der kein Text "
                             "verloren geht.",
             solved=lambda params, result: params["variant"] == "lang" and result["lost_count"] == 0,
             explain="D hat 10 Tokens, eine Zeile nur 8. Wer ganze Beispiele behält, muss D kürzen. "
                     "Nur wrapped mit Packing behält alles, teilt D dafür aber auf zwei Zeilen.",
             example={"variant": "lang", "strategy": "wrapped"},
             hints=("Schaue, welche Tokens als verloren markiert sind und wie viele Plätze eine Zeile hat.",
                    "Eine „Strategie“ hält die Beispiele ganz, die andere schreibt den Text fortlaufend weiter.",
                    "Wähle die andere „Strategie“ und lass „Packing“ dabei an."),
             near=Near(lambda params, result: (params["variant"] == "lang" and result["strategy"] == "wrapped"
                                               and not result["packing"]),
                       "Fast: „wrapped“ ist gewählt. Ohne Packing wirkt die Strategie aber nicht.",
                       {"variant": "lang", "strategy": "wrapped", "packing": False})),
    ),
    discussion=(
        "Packing spart leere Plätze. Warum braucht es trotzdem die Trennung der Zugriffe und die Anfangs-Maske?",
        "Wann würdest du ein zu langes Beispiel lieber kürzen, und wann lieber auf mehrere Zeilen verteilen?",
    ),
    teacher=(
        "Ohne Trennung lesen Tokens fremde Beispiele mit, ohne Maske lernt das Modell Übergänge, die es nie gab. "
        "Beides verändert, was das Modell lernt, obwohl jedes Beispiel für sich stimmt.",
        "Kürzen verliert das Ende, etwa die eigentliche Antwort. Verteilen behält alles, "
        "aber die Teile wissen nichts voneinander, und die Grenzen gehen verloren.",
    ),
    misconceptions=(
        "„Packing ändert nur, wo die Tokens stehen.“ Falsch: Ohne Trennung und Maske ändert es auch, "
        "was gelesen und was bewertet wird.",
        "„Packing spart immer Platz.“ Falsch: Füllt jedes Beispiel schon eine Zeile, spart es nichts.",
    ),
)
