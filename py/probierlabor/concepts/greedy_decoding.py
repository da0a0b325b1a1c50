"""Greedy decoding on a two-step token tree, computed exactly.

The article's own example (CONCEPTS.md §22): first token A 0.6, B 0.4; after A the best
continuation has 0.51, after B 0.99. Greedy takes A and then A: 0.6 · 0.51 = 0.306, while the
path through B reaches 0.4 · 0.99 = 0.396.

The article gives only the maxima (D8). Completion used here (CONCEPTS.md P): the vocabulary is
{A, B}, so every distribution is one number and its rest:

* step 1: P(A) = 0.6, P(B) = 0.4;
* after A: P(A | A) = 0.51, P(B | A) = 0.49;
* after B: P(A | B) = 0.99, P(B | B) = 0.01.

The reader sets P(A) on each of the three distributions; B always gets 1 − P(A), so every
distribution sums to 1 by construction. Sequences stop after two tokens.

Tie rule: on equal probabilities the first token in the order A, B wins – the rule of
``argmax`` in NumPy and PyTorch (the index of the first maximum), which Transformers' greedy
search uses. The best path over the whole tree is likewise the first in the order AA, AB, BA, BB.
Everything is exact (fractions of the decimals the reader set).
"""

from __future__ import annotations

import functools
from fractions import Fraction

from ..kit import fmt
from ..kit.contract import Param, Preset, Readout, View
from ..kit.decoding_tree import Tree
from ..kit.layout import NARROW, WIDE, width
from ..kit.lesson import Lesson, Near, Prediction, Task

SLUG = "greedy-decoding"
TITLE = "Greedy Decoding"
GROUP = "Decodieren und Sampling"
TEASER = "Immer das wahrscheinlichste nächste Token – und trotzdem nicht der wahrscheinlichste Satz."

TOKENS = ("A", "B")
PATHS = ("AA", "AB", "BA", "BB")

STEPS = ((0, "noch nicht"), (1, "1. Schritt"), (2, "beide Schritte"))

PARAMS = (
    Param("p_a", "Schritt 1: Wahrscheinlichkeit von A", "float", 0.6, lo=0.0, hi=1.0, step=0.01,
          help="B bekommt den Rest, 1 − P(A)."),
    Param("p_aa", "Nach A: Wahrscheinlichkeit von A", "float", 0.51, lo=0.0, hi=1.0, step=0.01,
          help="Wahrscheinlichkeit von A als zweites Token, wenn das erste A war; B bekommt den Rest."),
    Param("p_ba", "Nach B: Wahrscheinlichkeit von A", "float", 0.99, lo=0.0, hi=1.0, step=0.01,
          help="Wahrscheinlichkeit von A als zweites Token, wenn das erste B war; B bekommt den Rest."),
    Param("steps", "Greedy ausführen", "choice", 2, choices=STEPS,
          help="Wie viele Entscheidungen Greedy schon getroffen hat."),
    Param("show_all", "alle Pfade zeigen", "bool", False,
          help="Auch die Zweige, nach denen Greedy das Modell nie fragt."),
)

PRESETS = (
    Preset("Beispiel: Greedy", {}, "A 0,6 · dann 0,51: Greedy landet bei 0,306."),
    Preset("Alle Pfade zeigen", {"show_all": True}, "Der Weg über B hätte 0,396."),
    Preset("Schritt für Schritt", {"steps": 0}, "Noch hat Greedy nichts gewählt."),
    Preset("Gleichstand", {"p_a": 0.5, "show_all": True}, "A und B gleich wahrscheinlich: Die Regel entscheidet."),
    Preset("Greedy liegt richtig", {"p_ba": 0.7, "show_all": True},
           "Nach B nur noch 0,7: Jetzt ist der Greedy-Pfad auch der beste."),
)


def distributions(p_a, p_aa, p_ba) -> dict[str, dict[str, Fraction]]:
    """The three distributions of the tree: '' (first token), 'A' and 'B' (after that token)."""
    a, aa, ba = fmt.as_fraction(p_a), fmt.as_fraction(p_aa), fmt.as_fraction(p_ba)
    return {"": {"A": a, "B": 1 - a}, "A": {"A": aa, "B": 1 - aa}, "B": {"A": ba, "B": 1 - ba}}


def argmax_first(dist: dict[str, Fraction]) -> str:
    """The most probable token; on a tie the first in the order A, B."""
    best = None
    for token in TOKENS:
        if best is None or dist[token] > dist[best]:
            best = token
    return best


def path_probs(dists) -> dict[str, Fraction]:
    return {a + b: dists[""][a] * dists[a][b] for a in TOKENS for b in TOKENS}


def greedy(dists) -> tuple[str, Fraction, list[bool]]:
    """Greedy's two choices, the probability of its path and whether each choice was a tie."""
    first = argmax_first(dists[""])
    second = argmax_first(dists[first])
    ties = [dists[""]["A"] == dists[""]["B"], dists[first]["A"] == dists[first]["B"]]
    return first + second, dists[""][first] * dists[first][second], ties


def best_path(paths: dict[str, Fraction]) -> str:
    best = PATHS[0]
    for path in PATHS[1:]:
        if paths[path] > paths[best]:
            best = path
    return best


def compute(p_a: float = 0.6, p_aa: float = 0.51, p_ba: float = 0.99, steps: int = 2,
            show_all: bool = False) -> dict:
    dists = distributions(p_a, p_aa, p_ba)
    paths = path_probs(dists)
    g_path, g_prob, ties = greedy(dists)
    b_path = best_path(paths)
    gap = paths[b_path] - g_prob
    return {
        "steps": steps,
        "show_all": show_all,
        "dists": {k: {t: float(v) for t, v in d.items()} for k, d in dists.items()},
        "dists_exact": {k: {t: str(v) for t, v in d.items()} for k, d in dists.items()},
        "step1": {t: float(v) for t, v in dists[""].items()},
        "after_A": {t: float(v) for t, v in dists["A"].items()},
        "after_B": {t: float(v) for t, v in dists["B"].items()},
        "paths": {k: float(v) for k, v in paths.items()},
        "paths_exact": {k: str(v) for k, v in paths.items()},
        "path_sum": float(sum(paths.values())),
        "greedy_path": g_path,
        "greedy_prob": float(g_prob),
        "greedy_prob_exact": str(g_prob),
        "ties": ties,
        "best_path": b_path,
        "best_prob": float(paths[b_path]),
        "best_prob_exact": str(paths[b_path]),
        "gap": float(gap),
        "gap_exact": str(gap),
        "greedy_is_best": gap == 0,
    }


# -- what the page shows -----------------------------------------------------------------

def _seq(path: str) -> str:
    return ", dann ".join(path)


def _key_sentence(r: dict, dists: dict, paths: dict, steps: int, show_all: bool) -> str:
    """The sentence under the tree: what greedy took so far and, once the whole tree is shown,
    whether that was the most likely path and what it gave away."""
    g = r["greedy_path"]
    first = f"{g[0]} ({fmt.exact(dists[''][g[0]])})" + (" bei Gleichstand" if r["ties"][0] else "")
    second = f"{g[1]} ({fmt.exact(dists[g[0]][g[1]])})" + (" bei Gleichstand" if r["ties"][1] else "")
    other = "B" if g[0] == "A" else "A"
    if steps == 2:
        text = f"Greedy nimmt {first}, dann {second} und endet bei {g} mit {fmt.exact(paths[g])}."
    elif steps == 1:
        text = f"Greedy nimmt zuerst {first}. Als Nächstes erfragt es nur die Verteilung nach {g[0]}."
    else:
        text = (f"Greedy hat noch nichts gewählt. Im ersten Schritt hat A {fmt.exact(dists['']['A'])}, "
                f"B {fmt.exact(dists['']['B'])}.")
    best = r["best_path"]
    if not show_all:
        # the reader is still to find out whether greedy lost: the sentence must not tell
        return text + (f" Die Verteilung nach {other} hat Greedy nie erfragt." if steps == 2 else "")
    if steps == 2 and r["greedy_is_best"]:
        return text + " Das ist auch der wahrscheinlichste Pfad: Hier liegt Greedy richtig."
    if steps == 2:
        return (text + f" Der wahrscheinlichste Pfad ist aber {best} mit {fmt.exact(paths[best])} – "
                f"Greedy verschenkt {fmt.exact(Fraction(r['gap_exact']))}.")
    return text + f" Der wahrscheinlichste Pfad im Baum ist {best} mit {fmt.exact(paths[best])}."


def view(r: dict, layout: str = WIDE) -> View:
    # a narrow figure: the columns closer, a leaf's second mark under its first, the note in two lines
    # and the key in two rows under it
    narrow = layout == NARROW
    dists = {k: {t: Fraction(v) for t, v in d.items()} for k, d in r["dists_exact"].items()}
    paths = {k: Fraction(v) for k, v in r["paths_exact"].items()}
    steps, show_all = r["steps"], r["show_all"]
    g = r["greedy_path"]
    chosen = g[:steps]  # what greedy has decided so far
    seen = {""} | ({g[0]} if steps >= 1 else set())  # distributions greedy asked the model for
    best = r["best_path"] if show_all else None

    tie1 = steps >= 1 and r["ties"][0]
    tie2 = steps >= 2 and r["ties"][1]
    note = None
    if tie1 and tie2:
        note = ("Gleichstand in beiden Schritten:", "Die Regel nimmt jeweils A.")
    elif tie1 or tie2:
        where = "in Schritt 1" if tie1 else f"nach {g[0]}"
        note = (f"Gleichstand {where}:", "Die Regel nimmt das erste Token, A.")

    xr, x1, x2 = (26, 112, 204) if narrow else (34, 150, 262)
    # A narrow figure puts its key right under the lowest leaf, BB, and under the marks it may carry
    # there (one under the other), and ends under the key or under a tie's note: no blank band kept
    # for marks or a note that are mostly absent. The controls stand above the figure: its height may
    # change without moving them.
    leaf_y_bb = 256
    bb_marks = (chosen == "BB") + (best == "BB")
    lowest = leaf_y_bb + 22 + 14 * (bb_marks - 1) if bb_marks else leaf_y_bb + 5  # baselines, as drawn below
    key_y = lowest + 22
    tall = (key_y + (70 if note else 28)) if narrow else 342
    t = Tree(width(450, layout), tall, [xr, x1, x2],
             "Baum mit zwei Schritten: Greedy und die anderen Pfade", layout=layout)
    root = (xr, 150)
    mid = {"A": (x1, 82), "B": (x1, 218)}
    leaf = {"AA": (x2, 44), "AB": (x2, 120), "BA": (x2, 180), "BB": (x2, leaf_y_bb)}
    t.text(x1, 16, "Schritt 1", "pl-tree-head", "middle")
    t.text(x2, 16, "Schritt 2", "pl-tree-head", "middle")

    def edge_cls(path: str) -> str:
        on_greedy = chosen.startswith(path) and len(path) <= len(chosen)
        if on_greedy:
            return "pl-tree-greedy"
        parent = path[:-1]
        if parent in seen or show_all:
            return "pl-tree-seen"
        return "pl-tree-hidden"

    # best path first, underneath: where it runs with greedy, greedy's line sits on top of it
    if best:
        t.edge(root, mid[best[0]], "pl-tree-best")
        t.edge(mid[best[0]], leaf[best], "pl-tree-best")
    for a in TOKENS:
        shown = "" in seen
        t.edge(root, mid[a], edge_cls(a), fmt.exact(dists[""][a]) if shown else "?", at=0.6)
        for b in TOKENS:
            path = a + b
            visible = a in seen or show_all
            t.edge(mid[a], leaf[path], edge_cls(path), fmt.exact(dists[a][b]) if visible else "?", at=0.55)

    t.node(*root, "Start", "pl-tree-n pl-tree-n-root", r=19)
    for a in TOKENS:
        cls = "pl-tree-n-greedy" if chosen[:1] == a else ("pl-tree-n" if "" in seen else "pl-tree-n-hidden")
        t.node(*mid[a], a, f"pl-tree-n {cls}", title=f"erstes Token {a}: {fmt.exact(dists[''][a])}")
    for path in PATHS:
        a = path[0]
        visible = a in seen or show_all
        cls = "pl-tree-n-greedy" if chosen == path else ("pl-tree-n" if visible else "pl-tree-n-hidden")
        if best == path:
            cls += " pl-tree-n-best"
        x, y = leaf[path]
        t.node(x, y, path, f"pl-tree-n {cls}")
        if visible:
            label = f"{fmt.exact(dists[''][a])} · {fmt.exact(dists[a][path[1]])} = {fmt.exact(paths[path])}"
            if len(label) > 22:  # long decimals from a typed link: the product alone still fits
                label = f"= {fmt.exact(paths[path])}"
        else:
            label = "? (nie erfragt)"
        t.text(x + 22, y + 5, label, "pl-tree-label" if visible else "pl-tree-muted")
        marks = []
        if chosen == path:
            marks.append(("Greedy", "pl-tree-greedy-text"))
        if best == path:
            marks.append(("bester Pfad", "pl-tree-best-text"))
        for i, (text, cls_text) in enumerate(marks):
            if narrow:
                t.text(x + 22, y + 22 + 14 * i, text, cls_text)
            else:
                t.text(x + 22 + 62 * i, y + 22, text, cls_text)
    if note and narrow:
        t.text(8, key_y + 44, note[0], "pl-tree-note")
        t.text(8, key_y + 60, note[1], "pl-tree-note")
    elif note:
        t.text(8, 330, " ".join(note), "pl-tree-note")
    t.legend(key_y if narrow else 300, [("pl-tree-greedy", "Greedy-Wahl"), ("pl-tree-best", "bester Pfad"),
                                               ("pl-tree-hidden", "nie erfragt")], per_row=2 if narrow else 3,
             col=160 if narrow else 146)

    done = steps == 2
    readouts = [
        Readout("greedy_path", "Greedy wählt",
                _seq(chosen) + ("" if done else (", dann …" if chosen else "– noch nichts"))),
        Readout("greedy_prob", "Wahrscheinlichkeit des Greedy-Pfads", fmt.exact(paths[g]) if done else "–",
                r["greedy_prob"] if done else None, True),
    ]
    if show_all:
        readouts += [
            Readout("best", "Bester Pfad im ganzen Baum", f"{_seq(r['best_path'])}: {fmt.exact(paths[r['best_path']])}",
                    r["best_prob"]),
            Readout("gap", "Greedy verschenkt", "nichts" if r["greedy_is_best"] else fmt.exact(Fraction(r["gap_exact"])),
                    r["gap"]),
        ]
    else:
        asked = len(seen)
        readouts.append(Readout("asked", "Verteilungen, die Greedy erfragt", f"{asked} von 3", asked))

    summary = _key_sentence(r, dists, paths, steps, show_all)
    return View(t.render(), readouts, summary)



# -- the lesson ----------------------------------------------------------------------------

ARTICLE = {p.name: p.default for p in PARAMS if p.name.startswith("p_")}
_ARTICLE_RUN = compute(**ARTICLE)


BIG_GAP, NEAR_GAP = Fraction(1, 5), Fraction(3, 20)  # big_gap's goal and its „fast“


def _de(x: float) -> str:
    return fmt.de(x, 3, trim=True)


def _is_article_tree(params) -> bool:
    return all(round(params[k], 2) == v for k, v in ARTICLE.items())


@functools.lru_cache(maxsize=512)
def _starts_with_a_and_is_best(p_a, p_aa, p_ba) -> bool:
    """compute()'s „greedy_path starts with A and greedy_is_best“ without the rest of compute(): the
    lesson asks it for six neighbouring trees per render, on the slider's hot path, and a slider
    step shares five of them with the render before."""
    dists = distributions(p_a, p_aa, p_ba)
    path, prob, _ = greedy(dists)
    return path[0] == "A" and prob == max(path_probs(dists).values())


def _p_ba_step() -> float:
    return next(p.step for p in PARAMS if p.name == "p_ba")


def _last_p_ba_where_greedy_is_best(params, result) -> bool:
    """Greedy starts with A and is best, and one slider step more for „Nach B: A“ would beat it."""
    if result["greedy_path"][0] != "A" or not result["greedy_is_best"]:
        return False
    higher = round(params["p_ba"] + _p_ba_step(), 2)
    return higher > 1 or not _starts_with_a_and_is_best(params["p_a"], params["p_aa"], higher)


def _close_to_the_last_p_ba(params, result) -> bool:
    """The answer to „last_best“ lies one or two slider steps away from the current „Nach B: A“."""
    step = _p_ba_step()
    # greedy's verdict on the grid from two steps below to three above (the last one only decides
    # whether two steps above is „last“), each tree asked once
    grid = [round(params["p_ba"] + moves * step, 2) for moves in range(-2, 4)]
    best = [0 <= p_ba <= 1 and _starts_with_a_and_is_best(params["p_a"], params["p_aa"], p_ba) for p_ba in grid]
    return any(best[i] and (grid[i + 1] > 1 or not best[i + 1]) for i in (0, 1, 3, 4))


LESSON = Lesson(
    prediction=Prediction(
        question=f"Greedy wählt zuerst A ({_de(ARTICLE['p_a'])}) und dann wieder A ({_de(ARTICLE['p_aa'])}). "
                 "Ist AA auch der wahrscheinlichste Pfad aus zwei Tokens?",
        choices=("Ja, AA", "Nein, BA ist wahrscheinlicher", "Nein, BB ist wahrscheinlicher"),
        answer=1,
        shown=lambda params, result: params["show_all"] and _is_article_tree(params),
        explain=f"BA hat {_de(_ARTICLE_RUN['step1']['B'])} · {_de(ARTICLE['p_ba'])} = {_de(_ARTICLE_RUN['paths']['BA'])}, "
                f"mehr als die {_de(_ARTICLE_RUN['paths']['AA'])} von AA. "
                "Greedy fragt nie nach, was nach B gekommen wäre.",
        example={"show_all": True},
        why_not=("Greedy nimmt in jedem Schritt das wahrscheinlichste Token, da liegt AA nahe. "
                 f"Ein Pfad ist aber das Produkt seiner Schritte: AA hat nur {_de(_ARTICLE_RUN['paths']['AA'])}, "
                 f"BA hat {_de(_ARTICLE_RUN['paths']['BA'])}.",
                 "",
                 "Richtig ist, dass sich der Weg über B lohnt. "
                 f"Nach B folgt aber fast sicher A, darum hat BB nur {_de(_ARTICLE_RUN['paths']['BB'])}."),
    ),
    tasks=(
        Task("last_best", "Finde den größten Wert für „Nach B: Wahrscheinlichkeit von A“, bei dem Greedy noch den besten Pfad findet.",
             solved=_last_p_ba_where_greedy_is_best,
             explain="Einen Schritt darüber wäre der Weg über B wahrscheinlicher. "
                     "Sein schwacher erster Schritt wird dann durch den starken zweiten mehr als ausgeglichen.",
             example={"p_ba": 0.76},
             hints=("Schalte „alle Pfade zeigen“ ein und vergleiche AA mit BA.",
                    "BA ist das Produkt aus der Wahrscheinlichkeit von B im ersten Schritt und "
                    "„Nach B: Wahrscheinlichkeit von A“. Greedy bleibt richtig, solange BA nicht größer ist als AA.",
                    "Senke „Nach B: Wahrscheinlichkeit von A“ in kleinen Schritten, bis BA gerade nicht mehr vorne liegt."),
             near=Near(_close_to_the_last_p_ba,
                       "Fast: Nur ein oder zwei Schritte trennen dich von der Grenze. Vergleiche AA und BA genau.",
                       {"p_ba": 0.78})),
        Task("big_gap", f"Finde Einstellungen, bei denen der beste Pfad um mehr als {_de(BIG_GAP)} wahrscheinlicher ist "
                        "als der von Greedy.",
             solved=lambda params, result: Fraction(result["gap_exact"]) > BIG_GAP,
             explain="Greedy verschenkt am meisten, wenn der erste Schritt knapp ausgeht, "
                     "danach alles offen ist und der andere Weg sicher weitergeht.",
             example={"p_a": 0.51, "p_aa": 0.5},
             hints=("Schalte „alle Pfade zeigen“ ein und vergleiche den Pfad von Greedy mit dem besten.",
                    "Überlege, wann Greedy am meisten verschenkt: Wie knapp darf der erste Schritt ausgehen, "
                    "und wie sicher geht der andere Weg weiter?",
                    "Verändere „Schritt 1: Wahrscheinlichkeit von A“ und „Nach A: Wahrscheinlichkeit von A“: "
                    "Mache beide Entscheidungen so knapp, wie es geht."),
             near=Near(lambda params, result: NEAR_GAP < Fraction(result["gap_exact"]) <= BIG_GAP,
                       f"Fast: Der beste Pfad liegt schon mehr als {_de(NEAR_GAP)} vor dem von Greedy. Es fehlt nur noch ein Stück.",
                       {"p_a": 0.55})),
        Task("b_trap", "Sorge dafür, dass Greedy zuerst B nimmt und trotzdem den besten Pfad verpasst.",
             solved=lambda params, result: result["greedy_path"][0] == "B" and not result["greedy_is_best"],
             explain="Die Falle hängt nicht am Token A: Jeder Weg, der stark weitergeht, "
                     "kann nach einem knapp verlorenen ersten Schritt übersehen werden.",
             example={"p_a": 0.4, "p_aa": 0.99, "p_ba": 0.6},
             hints=("Zwei Dinge müssen zusammenkommen: B vorne im ersten Schritt und ein besserer Pfad, der mit A beginnt.",
                    "Der Weg über A braucht dafür eine starke Fortsetzung, der Weg über B eine schwache.",
                    "Senke „Schritt 1: Wahrscheinlichkeit von A“ unter 0,5 und ändere dann die beiden Schritte danach."),
             near=Near(lambda params, result: result["greedy_path"][0] == "B" and result["greedy_is_best"],
                       "Fast: Greedy nimmt schon zuerst B, findet damit aber noch den besten Pfad.",
                       {"p_a": 0.4})),
    ),
    discussion=(
        "Ein Navi nimmt an jeder Kreuzung die Straße, die im Moment am schnellsten aussieht. Wann führt das in die Irre?",
        "Greedy liefert bei gleicher Eingabe immer denselben Text. Wann ist das ein Vorteil, wann ein Nachteil?",
    ),
    teacher=(
        "Wenn die schnelle Straße später in einen Stau führt und eine langsame Abzweigung danach frei ist. "
        "Genau wie Greedy schaut das Navi dann nur einen Schritt voraus.",
        "Vorteil: Antworten sind wiederholbar und schnell berechnet, gut für Tests oder kurze Fakten. "
        "Nachteil: Texte werden eintönig, und ein schlechter früher Schritt wird nie korrigiert.",
    ),
    misconceptions=(
        "„Das beste Token in jedem Schritt ergibt den besten Satz.“ – Nein, ein Pfad ist das Produkt "
        "seiner Schritte. Ein schwacher Anfang kann mit einer starken Fortsetzung gewinnen.",
        "„Greedy zieht zufällig.“ – Nein, Greedy ist fest; bei Gleichstand entscheidet eine feste Regel.",
    ),
)
