"""Experience replay: which examples end up in one training portion (counting only, no accuracy).

The example (CONCEPTS.md §7, seed 003 L140–160; Chaudhry et al. 2019, §2, Algorithmus 1):

* before the archive was lost, four messages were stored with their departments (the replay buffer):
  „Wo ist mein Paket?“ and three more delivery questions (our own texts);
* four new Reklamationen arrive (our own texts);
* without replay the portion holds the 4 new messages; with replay the whole buffer is added (4 + 4);
* „tauschen“ replaces two of the stored delivery questions by the article's two return messages:
  the replayed share stays 4/8, but both old departments are covered.

Beyond the article: larger buffers usually hand over a random part. „Aus dem Puffer“ can take 2 or 1
stored messages at random (``random.Random(seed).sample``); the exact chance that both old
departments appear is then C(2,1)·C(2,1)/C(4,2) = 4/6 for two drawn from two plus two.
"""

from __future__ import annotations

import itertools
import math
import random
import textwrap
from fractions import Fraction
from html import escape

from ..kit import fmt, svg
from ..kit.contract import Param, Preset, Readout, View
from ..kit.layout import NARROW, NARROW_WIDTH, WIDE
from ..kit.lesson import Lesson, Near, Prediction, Task
from ..kit.table import table

SLUG = "experience-replay"
TITLE = "Experience Replay (ER)"
GROUP = "Lernen und Bewerten"
TEASER = "Alte Beispiele ins neue Training mischen – und nachzählen, welche Abteilungen wirklich dabei sind."

NEW, DELIVERY, RETURN = "Reklamationen", "Lieferung", "Rücksendungen"
OLD_DEPARTMENTS = (DELIVERY, RETURN)

NEW_MESSAGES = (
    "Der Wasserkocher ist nach zwei Tagen kaputt.",
    "Die Jacke hat einen Riss am Ärmel.",
    "Mein Handy lädt seit gestern nicht mehr.",
    "Der Pullover hat nach einer Wäsche Löcher.",
)
STORED = (
    ("Wo ist mein Paket?", DELIVERY),
    ("Wann kommt meine Bestellung an?", DELIVERY),
    ("Die Sendungsverfolgung zeigt seit Tagen nichts.", DELIVERY),
    ("Kann der Bote beim Nachbarn abgeben?", DELIVERY),
)
SWAPPED_IN = (  # the article's two return messages replace the last two delivery questions
    ("Wie schicke ich meinen Einkauf zurück?", RETURN),
    ("Ich möchte ein T-Shirt zurückgeben", RETURN),
)
DEFAULT_SEED = 7

PARAMS = (
    Param("replay", "mit Wiederholungen", "bool", False,
          help="Gespeicherte alte Nachrichten kommen mit in die Trainingsportion."),
    Param("swap", "Zwei Lieferfragen gegen Rücksendungen tauschen", "bool", False,
          help="Der Puffer behält vier Plätze, enthält aber zwei Nachrichten zu Rücksendungen."),
    Param("take", "Aus dem Puffer", "choice", 4,
          choices=((4, "alle 4"), (2, "2 zufällig"), (1, "1 zufällig")),
          help="Große Puffer geben meist nur eine zufällige Auswahl ab."),
    Param("seed", "Neu ziehen", "seed", DEFAULT_SEED,
          help="Neue Auswahl (nur bei „zufällig“)."),
)

PRESETS = (
    Preset("Ohne Wiederholungen", {}, "Nur die vier neuen Reklamationen."),
    Preset("Mit Wiederholungen", {"replay": True}, "Der ganze Puffer: vier Lieferfragen."),
    Preset("Mit Tausch", {"replay": True, "swap": True}, "Zwei Lieferfragen und zwei Rücksendungen im Puffer."),
    Preset("Zufällig 2 aus dem Puffer", {"replay": True, "swap": True, "take": 2},
           "Nur eine zufällige Hälfte des Puffers kommt in die Portion."),
)


def buffer(swap: bool) -> tuple[tuple[str, str], ...]:
    return STORED[:2] + SWAPPED_IN if swap else STORED


def chance_all_old(swap: bool, take: int) -> Fraction:
    """Exact chance that a random portion of ``take`` buffer messages covers both old departments:
    the share of all equally likely portions (itertools.combinations) that contain both."""
    stored = buffer(swap)
    portions = list(itertools.combinations(stored, min(take, len(stored))))
    good = sum(1 for p in portions if all(any(d == dep for _, d in p) for dep in OLD_DEPARTMENTS))
    return Fraction(good, len(portions))


def compute(replay: bool = False, swap: bool = False, take: int = 4, seed: int = DEFAULT_SEED) -> dict:
    stored = buffer(swap)
    if not replay:
        replayed: list[tuple[str, str]] = []
    elif take >= len(stored):
        replayed = list(stored)
    else:
        chosen = sorted(random.Random(seed).sample(range(len(stored)), take))
        replayed = [stored[i] for i in chosen]
    portion = [(text, NEW) for text in NEW_MESSAGES] + replayed
    counts = {dep: sum(1 for _, d in portion if d == dep) for dep in (NEW, DELIVERY, RETURN)}
    covered = sum(1 for dep in OLD_DEPARTMENTS if counts[dep])
    share = Fraction(len(replayed), len(portion))
    chance = chance_all_old(swap, take) if replay else Fraction(0)
    return {
        "replay": replay,
        "swap": swap,
        "take": take,
        "random_part": replay and take < len(stored),
        "buffer": [{"text": t, "department": d} for t, d in stored],
        "portion": [{"text": t, "department": d, "replayed": i >= len(NEW_MESSAGES)}
                    for i, (t, d) in enumerate(portion)],
        "size": len(portion),
        "replayed": len(replayed),
        "share": float(share),
        "share_exact": f"{len(replayed)}/{len(portion)}",
        "counts": counts,
        "old_covered": covered,
        "chance_all_old": float(chance),
        "chance_all_old_exact": str(chance),
        "share_pct": 100 * float(share),
        "chance_all_old_pct": 100 * float(chance),
        "buffer_size": len(stored),
    }


# -- what the page shows ---------------------------------------------------------

CSS = {NEW: "pl-er-new", DELIVERY: "pl-er-deliv", RETURN: "pl-er-return"}
HEAD = {NEW: "Reklamationen (neu)", DELIVERY: "Lieferung (alt)", RETURN: "Rücksendungen (alt)"}
WIDTH, CARD_W, CARD_H, GAP = 400, 188, 40, 8  # narrow: the cards stay legible on a phone
CARD_CHARS = 26  # characters per line on a card




def figure(r: dict, layout: str = WIDE) -> str:
    # a narrow figure: one card a row, as wide as the figure, with longer lines
    narrow = layout == NARROW
    fig_w = NARROW_WIDTH if narrow else WIDTH
    per_row, card_w = (1, NARROW_WIDTH - 16) if narrow else (2, CARD_W)
    chars = CARD_CHARS * card_w // CARD_W
    out, y = [], 8
    for dep in (NEW, DELIVERY, RETURN):
        cards = [c for c in r["portion"] if c["department"] == dep]
        n = len(cards)
        out.append(svg.key(8, y + 14, f"pl-er-swatch {CSS[dep]}", f"{HEAD[dep]}: {n}", rx=2, gap=6,
                           text_cls="pl-er-head"))
        y += 22
        if not cards:
            out.append(f'<text class="pl-er-empty" x="26" y="{y + 14}">kein Beispiel in dieser Portion</text>')
            y += 28
            continue
        for i, card in enumerate(cards):
            x = 8 + (i % per_row) * (card_w + GAP)
            yy = y + (i // per_row) * (CARD_H + GAP)
            origin = "aus dem Puffer" if card["replayed"] else "neu"
            out.append(f'<g class="pl-er-card {CSS[dep]}"><title>{escape(card["text"])} – {escape(dep)}, {origin}</title>'
                       f'<rect x="{x}" y="{yy}" width="{card_w}" height="{CARD_H}" rx="5"/>')
            lines = textwrap.wrap(card["text"], chars)
            for j, line in enumerate(lines):
                ty = yy + (CARD_H / 2 + 4.5 if len(lines) == 1 else 16 + 15 * j)
                out.append(f'<text x="{x + 9}" y="{ty:.1f}">{escape(line)}</text>')
            if card["replayed"]:
                out.append(f'<text class="pl-er-tag" x="{x + card_w - 6}" y="{yy + 11}" text-anchor="end">↺</text>')
            out.append("</g>")
        y += math.ceil(n / per_row) * (CARD_H + GAP) + 6
    height = y + 4
    label = f"Trainingsportion mit {r['size']} Nachrichten, davon {r['replayed']} aus dem Puffer"
    return svg.figure(fig_w, height, out, label=label, cls="pl-er", layout=layout)


def _table(r: dict) -> str:
    rows, current = [], []
    for label, replay, swap in (("ohne Wiederholungen", False, False), ("mit Wiederholungen", True, False),
                                ("mit Tausch", True, True)):
        s = compute(replay, swap, 4)
        c = s["counts"]
        parts = [f"{d}: {c[d]}" for d in (NEW, *OLD_DEPARTMENTS) if c[d]]
        if (not r["replay"] and not replay) or (r["replay"] and replay and r["swap"] == swap and r["take"] == 4):
            current.append(len(rows))
        rows.append((label, s["size"], " · ".join(parts), s["share_exact"], f"{s['old_covered']} von 2"))
    return table(("Fall", "Portion", "Zusammensetzung", "aus dem Puffer", "alte Abteilungen"), rows,
                 caption="Die drei Fälle aus dem Text (ganzer Puffer)", highlight=current, row_heads=True)


PRACTISED = {DELIVERY: "Lieferfragen", RETURN: "Rücksendungen"}


def _key_sentence(r: dict, composition: str, chance_text: str) -> str:
    """The sentence under the cards: how much of the portion comes from the buffer and whether both old
    departments are in it – counting places is not enough; a random pick may miss one."""
    if not r["replay"]:
        return (f"Ohne Wiederholungen besteht die Portion nur aus {r['size']} neuen Reklamationen: Für Lieferfragen "
                "und Rücksendungen übt das Modell kein einziges Mal.")
    how = ("der ganze Puffer" if not r["random_part"] else "eine zufällig gezogene Nachricht aus dem Puffer"
           if r["replayed"] == 1 else f"{r['replayed']} zufällig gezogene Nachrichten aus dem Puffer")
    text = (f"Mit Wiederholungen ({how}) hat die Portion {r['size']} Nachrichten ({composition}), "
            f"{r['share_exact']} davon aus dem Puffer. ")
    missing = [d for d in (DELIVERY, RETURN) if not r["counts"][d]]
    if not missing:
        text += "Beide alten Abteilungen sind vertreten" + (
            f" – das gelingt aber nur in {chance_text} der zufälligen Portionen." if r["random_part"] else ".")
        return text
    else:
        in_buffer = any(m["department"] == missing[0] for m in r["buffer"])
        text += (f"Für {PRACTISED[missing[0]]} übt das Modell trotzdem kein einziges Mal"
                 + (": Der Puffer enthält keine." if not in_buffer else "."))
    if r["random_part"]:
        text += (" Bei dieser Auswahl können nie beide dabei sein." if r["chance_all_old"] == 0 else
                 f" Beide sind nur in {chance_text} der zufälligen Portionen dabei.")
    return text


def view(r: dict, layout: str = WIDE) -> View:
    c = r["counts"]
    composition = " · ".join(f"{d}: {c[d]}" for d in (NEW, DELIVERY, RETURN) if c[d])
    chance = r["chance_all_old"]
    exact = r["chance_all_old_exact"]
    chance_text = fmt.pct(chance, 0) if exact in ("0", "1") else f"{exact} ≈ {fmt.pct(chance)}"
    readouts = [
        Readout("size", "Nachrichten in der Portion", fmt.de(r["size"]), r["size"], True),
        Readout("share", "davon aus dem Puffer",
                f"{r['share_exact']} = {fmt.pct(r['share'], 0)}", r["share"], True),
        Readout("old_covered", "Alte Abteilungen vertreten", f"{r['old_covered']} von 2", r["old_covered"], True),
        Readout("composition", "Zusammensetzung", composition, c),
        Readout("chance_all_old", "Wahrscheinlichkeit, dass beide alten Abteilungen dabei sind", chance_text, chance),
    ]
    summary = _key_sentence(r, composition, chance_text)
    # the table's three cases include the one the lesson's guess asks about
    return View(figure(r, layout), readouts, summary, _table(r), extra_answers=True)


# -- the lesson ---------------------------------------------------------------------------

def _both_old(result) -> bool:
    return result["old_covered"] == len(OLD_DEPARTMENTS)


LESSON = Lesson(
    prediction=Prediction(
        question="Mit Wiederholungen kommen alle vier gespeicherten Nachrichten in die Portion. "
                 "Wie viele der zwei alten Abteilungen sind dann vertreten?",
        choices=("keine", "eine", "beide"),
        answer=1,
        shown=lambda params, result: result["replay"] and not result["swap"] and result["take"] == 4,
        explain="Im Puffer stehen nur Lieferfragen. Die Hälfte der Portion ist alt, "
                "aber Rücksendungen kommen gar nicht vor.",
        example={"replay": True},
        why_not=("Die vier neuen Reklamationen scheinen alles Alte zu verdrängen. Doch die Hälfte der Portion "
                 "kommt jetzt aus dem Puffer, und dort stehen Lieferfragen.",
                 "",
                 "Die Hälfte der Portion ist alt, das klingt nach genug. Im Puffer stehen aber nur Lieferfragen. "
                 "Rücksendungen kann er gar nicht liefern."),
    ),
    tasks=(
        Task("cover_both", "Sorge dafür, dass beide alten Abteilungen sicher in der Portion sind. "
                           "Der Anteil aus dem Puffer soll 4/8 bleiben.",
             solved=lambda params, result: result["share_exact"] == "4/8" and result["chance_all_old_exact"] == "1",
             explain="Der Anteil der Wiederholungen ist derselbe wie vorher. Es zählt also nicht nur, "
                     "wie viel aus dem Puffer kommt, sondern was darin steht.",
             example={"replay": True, "swap": True},
             hints=("Schaue, welche Abteilungen im Puffer stehen. Nur was dort steht, kann in die Portion kommen.",
                    "Lass „Aus dem Puffer“ auf „alle 4“ und ändere, was im Puffer steht."),
             near=Near(lambda params, result: result["replay"] and 0 < result["chance_all_old"] < 1,
                       "Fast: Beide alten Abteilungen stehen im Puffer. "
                       "Sie kommen aber nur mit etwas Glück beide in die Portion.",
                       {"replay": True, "swap": True, "take": 2})),
        Task("few_but_both", "Finde eine Portion, in der nur ein Drittel aus dem Puffer kommt und trotzdem beide "
                             "alten Abteilungen vertreten sind.",
             solved=lambda params, result: result["size"] == 3 * result["replayed"] and _both_old(result),
             explain="Zwei gut gemischte Wiederholungen reichen hier schon. Bei zufälliger Auswahl ist das aber "
                     "Glück: Die Wahrscheinlichkeit dafür ist 2/3.",
             example={"replay": True, "swap": True, "take": 2},
             hints=("Die Portion hat immer 4 neue Reklamationen. "
                    "Wie viele Wiederholungen machen dann ein Drittel der Portion aus?",
                    "Stelle „Aus dem Puffer“ auf „2 zufällig“. Sorge dafür, dass beide alten Abteilungen im Puffer stehen."),
             near=Near(lambda params, result: result["size"] == 3 * result["replayed"] and not _both_old(result),
                       "Fast: Ein Drittel der Portion kommt schon aus dem Puffer. Aber eine alte Abteilung fehlt noch.",
                       {"replay": True, "take": 2})),
        Task("unlucky_draw", "Lass 2 Nachrichten zufällig aus dem Puffer mit Rücksendungen ziehen. Ziehe neu, bis "
                             "eine alte Abteilung fehlt.",
             solved=lambda params, result: (result["swap"] and result["random_part"] and result["take"] == 2
                                            and not _both_old(result)),
             explain="Zwei aus vier zu ziehen erwischt beide Abteilungen nur mit Wahrscheinlichkeit 4/6. "
                     "In einem Drittel der Ziehungen fehlt eine ganz.",
             example={"replay": True, "swap": True, "take": 2, "seed": 5},
             hints=("Schalte Wiederholungen und den Tausch ein und stelle „Aus dem Puffer“ auf „2 zufällig“.",
                    "Klicke auf „Neu ziehen“, bis in der Portion nur eine alte Abteilung vorkommt."),
             near=Near(lambda params, result: (result["swap"] and result["random_part"] and result["take"] != 2
                                               and not _both_old(result)),
                       "Fast: Hier fehlt eine alte Abteilung. Aber es kommt nur 1 Nachricht aus dem Puffer, "
                       "die Aufgabe verlangt 2.",
                       {"replay": True, "swap": True, "take": 1})),
    ),
    discussion=(
        "Ein Puffer kann nicht alles aufbewahren. Nach welcher Regel würdest du entscheiden, welche alten "
        "Nachrichten hineinkommen?",
        "Warum reicht es nicht, den Anteil der Wiederholungen zu erhöhen, wenn im Puffer nur eine Abteilung steht?",
    ),
    teacher=(
        "Zum Beispiel gleich viele je Abteilung, oder eine zufällige Stichprobe wie beim Reservoir Sampling. "
        "Wichtig ist, dass jede alte Abteilung vertreten ist.",
        "Dann übt das Modell immer nur diese eine alte Abteilung. Die anderen alten Abteilungen sieht es nie "
        "wieder und kann sie trotzdem vergessen.",
    ),
    misconceptions=(
        "„Je mehr Wiederholungen, desto besser geschützt.“ Falsch: Vier Lieferfragen schützen die Rücksendungen "
        "gar nicht. Die Mischung im Puffer zählt.",
        "„Eine zufällige Auswahl aus dem Puffer enthält immer von allem etwas.“ Falsch: Bei 2 aus 4 fehlt in "
        "einem Drittel der Fälle eine Abteilung.",
    ),
)
