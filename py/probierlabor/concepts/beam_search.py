"""Beam search on a small token tree, computed exactly.

The article's own example (CONCEPTS.md §21): first token A 0.45, B 0.35, C 0.20; the best
continuation of A has 0.4, after C the continuation A has 0.99. Width 2 drops C and ends at
AA = 0.18; width 3 keeps C and finds CA = 0.198. Two tokens, no early end, no length
normalisation. The article does not give the full distributions (D8); completion (CONCEPTS.md P):

* after A: A 0.40, B 0.35, C 0.25;  after B: A 0.50, B 0.30, C 0.20;  after C: A 0.99, B 0.005, C 0.005
  (max after B is 0.5 < 0.18/0.35, so width 2 still ends at AA).

A second tree of our own („mit Ende-Token“) has an end token ‹Ende›, so that sequences differ
in length and the length penalty matters:

* first token: A 0.5, ‹Ende› 0.3, B 0.2;  after A: A 0.5, B 0.3, ‹Ende› 0.2;
  after B: A 0.9, B 0.05, ‹Ende› 0.05.

The search follows Hugging Face Transformers' beam search (``GenerationMixin._beam_search``):

* the score of a sequence is the sum of the logarithms of its token probabilities;
* in each step every kept sequence is extended by every token, the candidates are ranked by
  their score; a candidate that ends (‹Ende›, or the maximum of two tokens) is finished if it
  ranks among the first *width* candidates; the next step continues with the best *width*
  candidates that did not end (a finished candidate frees its place);
* a finished sequence of L generated tokens (‹Ende› included) is judged by
  Σ ln p / L^α (``length_penalty`` α; Transformers' default is 1.0, the article's example uses none);
  the answer is the finished sequence with the highest judged score.

Own case: the reader types the chances at the start and after A, B and C (three each, in the
tree's order, divided by their sum), picks a width up to 4 and a depth up to 3. The chances after a
token do not depend on what came before it (as in both trees above), so the rows after A, B, C
also give the third step.

Ties keep the order of the listing (earlier beam first, then A, B, C, ‹Ende›), as a stable sort
does. Probabilities are exact fractions, and so is every comparison of two finished sequences that can
end in a tie (``better``); the logarithms are only shown.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

from ..kit import distribution, fmt, vocabulary
from ..kit.contract import Param, Preset, Readout, View
from ..kit.decoding_tree import Tree
from ..kit.layout import NARROW, WIDE, width
from ..kit.lesson import Lesson, Near, Prediction, Task
from ..kit.table import table

SLUG = "beam-search"
TITLE = "Beam Search"
GROUP = "Decodieren und Sampling"
TEASER = "Mehrere Anfänge behalten statt nur den besten – und doch den besten Weg verpassen können."

END = "$"
MAX_LEN = 2
F = Fraction

TREES = {
    "artikel": {
        (): (("A", F("0.45")), ("B", F("0.35")), ("C", F("0.20"))),
        ("A",): (("A", F("0.40")), ("B", F("0.35")), ("C", F("0.25"))),
        ("B",): (("A", F("0.50")), ("B", F("0.30")), ("C", F("0.20"))),
        ("C",): (("A", F("0.99")), ("B", F("0.005")), ("C", F("0.005"))),
    },
    "ende": {
        (): (("A", F("0.5")), (END, F("0.3")), ("B", F("0.2"))),
        ("A",): (("A", F("0.5")), ("B", F("0.3")), (END, F("0.2"))),
        ("B",): (("A", F("0.9")), ("B", F("0.05")), (END, F("0.05"))),
    },
}
TREE_CHOICES = (("artikel", "Beispiel: zwei Tokens"), ("ende", "mit Ende-Token"))

ROWS = (("first", "am Start", ()), ("after_a", "nach A", ("A",)), ("after_b", "nach B", ("B",)),
        ("after_c", "nach C", ("C",)))
DEEPEST = 3


def _row(name_: str, where: str) -> Param:
    return Param(name_, f"Eigene Verteilung {where}", "values", (), lo=0.0, hi=100.0, count=(3, 3), normalise=True,
                 widget="z. B. 0,5; 0,3; 0,2",
                 help=f"Drei Wahrscheinlichkeiten {where}, in der Reihenfolge des Baums. Ergeben sie nicht 1, wird durch ihre "
                      "Summe geteilt. Leer: die Zahlen des Baums.")


PARAMS = (
    Param("width", "Beam-Breite", "int", 2, lo=1, hi=4, step=1,
          help="Wie viele Anfänge nach jedem Schritt weiterverfolgt werden. Breite 1 ist Greedy."),
    Param("tree", "Baum", "choice", "artikel", choices=TREE_CHOICES,
          help="Der Baum aus dem Beispiel oder einer, in dem eine Antwort schon nach einem Token enden kann."),
    Param("alpha", "Längenstrafe α", "float", 0.0, lo=-1.0, hi=3.0, step=0.1,
          help="Score geteilt durch Länge^α (in Transformers: length_penalty). 0 = reine Wahrscheinlichkeit; "
               "Transformers nimmt ohne Angabe 1."),
    Param("step", "Anzeigen bis", "choice", 0, choices=((1, "nach Schritt 1"), (2, "nach Schritt 2"), (0, "zum Ende"))),
    Param("depth", "Tokens je Antwort höchstens", "int", MAX_LEN, lo=MAX_LEN, hi=DEEPEST, step=1,
          help="Nach so vielen Tokens endet jede Antwort (im Beispiel 2)."),
    *(_row(name_, where) for name_, where, _ in ROWS),
)

PRESETS = (
    Preset("Breite 1 (= Greedy)", {"width": 1}, "Nur der beste Anfang überlebt."),
    Preset("Breite 2 (Beispiel)", {"width": 2}, "C fällt nach dem ersten Schritt heraus."),
    Preset("Breite 3 (Beispiel)", {"width": 3}, "C bleibt – und CA gewinnt."),
    Preset("Ende-Token, α = 0", {"tree": "ende", "alpha": 0.0}, "Reine Wahrscheinlichkeit: die kurze Antwort gewinnt."),
    Preset("Ende-Token, α = 1", {"tree": "ende", "alpha": 1.0}, "Durch die Länge geteilt: die längere gewinnt."),
)


# -- the search ---------------------------------------------------------------------------

def name(seq) -> str:
    return "".join("‹Ende›" if t == END else t for t in seq) or "Start"


def ended(seq, depth: int = MAX_LEN) -> bool:
    return bool(seq) and (seq[-1] == END or len(seq) >= depth)


def rows_of(tree: str, own: dict | None = None) -> dict:
    """The chances at the start and after each single token; ``own`` replaces a row's chances (key: the
    row's prefix), keeping its tokens."""
    rows = {prefix: pairs for prefix, pairs in TREES[tree].items() if len(prefix) <= 1}
    for prefix, values in (own or {}).items():
        if prefix in rows and values:
            # a token of chance 0 is never a candidate (its log would be −∞); the row keeps at least one
            rows[prefix] = tuple((tok, q) for (tok, _), q in zip(rows[prefix], distribution.shares(values)) if q)
    return rows


def grow(rows: dict, depth: int = MAX_LEN) -> dict:
    """Prefix → (token, chance) pairs for every prefix that goes on: the chances after a sequence are
    those after its last token."""
    out = {}

    def grow(seq):
        if ended(seq, depth):
            return
        out[seq] = rows[seq[-1:]]
        for tok, _ in out[seq]:
            grow((*seq, tok))

    grow(())
    return out


def judged(prob: Fraction, length: int, alpha: float) -> float:
    """Σ ln p / L^α, the criterion for finished sequences."""
    if prob == 0:
        return -math.inf
    return distribution.ln(prob) / length ** alpha


def better(a, b, alpha: float) -> bool:
    """Is finished sequence a = (seq, prob) strictly better than b? Exact wherever the two can be equal.

    ln pa / La^α > ln pb / Lb^α  ⟺  ln pa > (La/Lb)^α · ln pb. Where (La/Lb)^α is a fraction u/v, that is
    v · ln pa > u · ln pb, i.e. pa^v > pb^u: fractions, so an exact tie of different lengths (0,4 alone and
    0,16 in two tokens at α = 1) is a tie, which floats (−0,916290731874155 against −0,9162907318741551)
    are not. Where (La/Lb)^α is irrational the two scores are never equal (ln pa / ln pb is rational or
    transcendental, by Gelfond–Schneider), so floats only have to order them."""
    (sa, pa), (sb, pb) = a, b
    factor = _length_factor(len(sa), len(sb), alpha)
    if factor is None:
        return judged(pa, len(sa), alpha) > judged(pb, len(sb), alpha)
    return pa**factor.denominator > pb**factor.numerator


@lru_cache(maxsize=256)
def _length_factor(la: int, lb: int, alpha: float) -> Fraction | None:
    """(La/Lb)^α = u/v > 0 where it is a fraction, else None; equal lengths give 1. A few lengths and one α
    per run, asked for every pair of sequences compared: reading α as a fraction and taking the root is most
    of a comparison's work."""
    alpha_ = fmt.as_fraction(alpha)
    base = fmt.root(Fraction(la, lb), alpha_.denominator)
    return None if base is None else base**alpha_.numerator


def pick(items, alpha: float):
    best = None
    for item in items:
        if best is None or better(item, best, alpha):
            best = item
    return best


def search(tree, width: int, alpha: float = 0.0, depth: int = MAX_LEN) -> dict:
    """Run the beam on a tree's name or a built tree (``build``); every candidate of every step with its fate."""
    t = TREES[tree] if isinstance(tree, str) else tree
    running = [((), Fraction(1))]
    finished, steps = [], []
    for _ in range(depth):
        candidates = [((*seq, tok), p * q) for seq, p in running for tok, q in t[seq]]
        ranked = sorted(candidates, key=lambda c: -c[1])  # stable: ties keep the listing order
        top = ranked[:width]
        new_running = [c for c in ranked if not ended(c[0], depth)][:width]
        fates = {}
        for c in ranked:
            if c in top and ended(c[0], depth):
                fates[c[0]] = "fertig"
            elif c in new_running:
                fates[c[0]] = "behalten"
            else:
                fates[c[0]] = "verworfen"
        finished += [c for c in top if ended(c[0], depth)]
        steps.append({"ranked": ranked, "fates": fates})
        running = new_running
        if not running:
            break
    return {"steps": steps, "finished": finished, "result": pick(finished, alpha)}


def all_sequences(tree, depth: int = MAX_LEN):
    """Every complete sequence of the tree with its probability, in listing order."""
    t = TREES[tree] if isinstance(tree, str) else tree
    out = []

    def walk(seq, p):
        if ended(seq, depth):
            out.append((seq, p))
            return
        for tok, q in t[seq]:
            walk((*seq, tok), p * q)

    walk((), Fraction(1))
    return out


def compute(width: int = 2, tree: str = "artikel", alpha: float = 0.0, step: int = 0, depth: int = MAX_LEN,
            first: tuple = (), after_a: tuple = (), after_b: tuple = (), after_c: tuple = ()) -> dict:
    typed = dict(zip((prefix for _, _, prefix in ROWS), (first, after_a, after_b, after_c)))
    rows = rows_of(tree, typed)
    t = grow(rows, depth)
    run = search(t, width, alpha, depth)
    complete = all_sequences(t, depth)
    optimum = pick(complete, alpha)
    result = run["result"]
    steps_out = []
    for s in run["steps"]:
        steps_out.append({
            "candidates": [{"seq": name(seq), "prob": float(p), "prob_exact": str(p),
                            "ln": distribution.ln(p) if p else None, "fate": s["fates"][seq]}
                           for seq, p in s["ranked"]],
            "kept": [name(seq) for seq, _ in s["ranked"] if s["fates"][seq] == "behalten"],
            "finished": [name(seq) for seq, _ in s["ranked"] if s["fates"][seq] == "fertig"],
            "dropped": [name(seq) for seq, _ in s["ranked"] if s["fates"][seq] == "verworfen"],
        })
    seq, p = result
    # the beam found a best sequence when none in the tree is strictly better; one of the same score
    # listed earlier is a tie, not a miss
    found = not better(optimum, result, alpha)
    oseq, op = result if found else optimum
    # every other sequence with the score of the best one the page names (the beam's own or the tree's)
    tied = [name(s) for s, q in complete
            if s != oseq and not better((s, q), (oseq, op), alpha) and not better((oseq, op), (s, q), alpha)]
    return {
        "width": width,
        "tree": tree,
        "depth": depth,
        "own": [label for (_, label, prefix) in ROWS if typed[prefix] and prefix in TREES[tree]],
        "unused_rows": [label for (_, label, prefix) in ROWS if typed[prefix] and prefix not in TREES[tree]],
        "zero": sum(1 for prefix in typed if prefix in TREES[tree] for v in typed[prefix] if v == 0),
        "rows": [[list(prefix), [[tok, str(q)] for tok, q in pairs]] for prefix, pairs in rows.items()],
        "first": {name((tok,)): float(q) for tok, q in t[()]},
        "after": {name(seq): {name((tok,)): float(q) for tok, q in t[seq]} for seq in t if len(seq) == 1},
        "alpha": alpha,
        "step": min(step, depth) if step else depth,  # the steps shown
        "steps": steps_out,
        "n_candidates": [len(st["candidates"]) for st in steps_out],
        "result": name(seq),
        "result_len": len(seq),
        "result_prob": float(p),
        "result_prob_exact": str(p),
        "result_ln": distribution.ln(p),
        "result_score": judged(p, len(seq), alpha),
        "optimum": name(oseq),
        "optimum_prob": float(op),
        "optimum_prob_exact": str(op),
        "optimum_ln": distribution.ln(op),
        "optimum_score": judged(op, len(oseq), alpha),
        "found_optimum": found,
        "tied": tied,
        "sequences": [{"seq": name(s), "prob": float(q), "prob_exact": str(q), "len": len(s),
                       "ln": distribution.ln(q), "score": judged(q, len(s), alpha)} for s, q in complete],
    }


def constraint() -> dict:
    """The article's bound on the tree: after B no continuation may reach AA / P(B) = 0.18 / 0.35,
    or width 2 would not end at AA."""
    t = TREES["artikel"]
    aa = dict(t[()])["A"] * dict(t[("A",)])["A"]
    bound = aa / dict(t[()])["B"]
    return {"bound": float(bound), "max_after_B": float(max(q for _, q in t[("B",)]))}


def crossover(tree: str = "ende", width: int = 2) -> dict:
    """The α at which the beam's answer flips between its answer for α = 0 and for α = 1:
    ln P₀ / L₀^α = ln P₁ / L₁^α  ⇒  α = ln(ln P₁ / ln P₀) / ln(L₁ / L₀)."""
    (s0, p0), (s1, p1) = search(tree, width, 0.0)["result"], search(tree, width, 1.0)["result"]
    if len(s0) == len(s1):
        return {"alpha": None, "short": name(s0), "long": name(s1)}
    alpha = math.log(math.log(p1) / math.log(p0)) / math.log(len(s1) / len(s0))
    return {"alpha": alpha, "short": name(s0), "long": name(s1)}


# -- what the page shows ------------------------------------------------------------------

def _score_text(value: float) -> str:
    return fmt.de(value, 3)


def view(r: dict, layout: str = WIDE) -> View:
    narrow = layout == NARROW
    depth = r["depth"]
    tree = grow({tuple(prefix): tuple((tok, Fraction(q)) for tok, q in pairs) for prefix, pairs in r["rows"]}, depth)
    shown_steps = r["step"]
    fate = {}
    for _i, s in enumerate(r["steps"][:shown_steps]):
        for c in s["candidates"]:
            fate[c["seq"]] = c["fate"]
    done = shown_steps >= len(r["steps"])
    result = r["result"] if done else None
    optimum = r["optimum"] if done else None
    penal = r["alpha"] != 0

    # rows: one per complete sequence, in the order of the listing
    rows = [seq for seq, _ in all_sequences(tree, depth)]
    top, gap = 48, 30 if depth == MAX_LEN else 24
    leaf_r = 15 if depth == MAX_LEN else 11  # a third step has its rows closer together
    legend_more = 18 if narrow else 0  # a narrow legend has three rows of two
    height = top + gap * (len(rows) - 1) + 84 + legend_more
    # columns: start, one per step, then the right ends of P and the score; a narrow figure writes the
    # mark of the answer under its score instead of beside it
    if depth == MAX_LEN:
        xr, x1, x2, x_p, x_s = (24, 92, 196, 262, 318) if narrow else (30, 130, 250, 334, 400)
        cols = [xr, x1, x2]
    else:
        # a narrow third step: the chances after step 2 (up to six characters) fit between the columns
        cols, (x_p, x_s) = ([20, 60, 112, 185], (262, 318)) if narrow else ([26, 100, 180, 260], (344, 404))
    y_of = {seq: top + gap * i for i, seq in enumerate(rows)}
    for level in range(depth - 1, 0, -1):  # an inner node sits in the middle of its children
        for seq in tree:
            if len(seq) == level:
                kids = [y_of[(*seq, tok)] for tok, _ in tree[seq]]
                y_of[seq] = sum(kids) / len(kids)
    for seq in rows:  # an answer that ends early is placed like an inner node, the mean of its one row
        if len(seq) < depth:
            y_of[seq] = float(y_of[seq])
    root = (cols[0], (top + y_of[rows[-1]]) / 2)
    y_of[()] = root[1]

    t = Tree(width(480, layout), height, cols,
             f"Beam-Suche mit Breite {r['width']}: behaltene und verworfene Anfänge", layout=layout)
    for step_ in range(1, depth + 1):  # three narrow columns have room for the number only
        head = str(step_) if narrow and depth > MAX_LEN and step_ > 1 else f"Schritt {step_}"
        t.text(cols[step_], 18, head, "pl-tree-head", "middle")
    t.text(x_p, 18, "P", "pl-tree-head", "end")
    t.text(x_s, 18, "Score" if penal else "Σ ln P", "pl-tree-head", "end")

    def edge_cls(seq) -> str:
        f = fate.get(name(seq))
        if f is None:
            return "pl-tree-hidden"
        return {"behalten": "pl-tree-kept", "fertig": "pl-tree-kept", "verworfen": "pl-tree-pruned"}[f]

    seqs = {name(s): s for s in rows}
    res_seq = seqs.get(result) if result else None
    opt_seq = seqs.get(optimum) if optimum else None

    def node_cls(seq) -> str:
        f = fate.get(name(seq))
        cls = {"behalten": "pl-tree-n", "fertig": "pl-tree-n pl-tree-n-done", "verworfen": "pl-tree-n pl-tree-n-pruned",
               None: "pl-tree-n pl-tree-n-hidden"}[f]
        if res_seq and res_seq[:len(seq)] == seq:
            cls += " pl-tree-n-result"
        if opt_seq == seq:
            cls += " pl-tree-n-best"
        return cls

    def at(seq):
        return cols[len(seq)], y_of[seq]

    # underlays: the best sequence of the whole tree (orange), the answer (blue)
    for target, cls in ((opt_seq, "pl-tree-best"), (res_seq, "pl-tree-result")):
        if target:
            for k in range(len(target)):
                t.edge(at(target[:k]), at(target[:k + 1]), cls)

    def radius(seq) -> float:
        return 19 if not seq else leaf_r if len(seq) == depth else 15

    # a typed chance is an exact fraction (1/3 ≈ 0,333, 1/40 000 = 0,000025); between a third step's
    # close columns it is written with up to four decimals exactly, else rounded after „≈“ (to two on a phone)
    edge_places = (6, 3) if depth == MAX_LEN else (4, 2) if narrow else (4, 3)

    def edges(seq):
        for tok, q in tree[seq]:
            child = (*seq, tok)
            # a third step's rows stand too close for labels placed by a fixed share of the way
            clear = (radius(seq), radius(child)) if depth > MAX_LEN else None
            t.edge(at(seq), at(child), edge_cls(child), fmt.exact(q, *edge_places),
                   at=(0.58, 0.7, 0.5)[len(seq)], clear=clear)
            if child in tree:
                edges(child)

    edges(())
    t.node(*root, "Start", "pl-tree-n pl-tree-n-root", r=radius(()))
    chance = {(): Fraction(1)}
    for seq in tree:
        for tok, q in tree[seq]:
            chance[(*seq, tok)] = chance[seq] * q
    for level in range(1, depth):
        for seq in chance:
            if len(seq) == level:
                label = "Ende" if seq[-1] == END else (seq[-1] if level == 1 else name(seq))
                t.node(*at(seq), label, node_cls(seq), title=f"{name(seq)}: {fmt.exact(chance[seq])}",
                       square=seq[-1] == END)
    seq_info = {s["seq"]: s for s in r["sequences"]}
    for seq in rows:
        if len(seq) == depth:
            # a third step's small leaf names only its last token: the path says the rest
            leaf = name(seq) if depth == MAX_LEN else seq[-1]
            t.node(*at(seq), "Ende" if seq[-1] == END else leaf, node_cls(seq),
                   title=f"{name(seq)}: {fmt.exact(Fraction(seq_info[name(seq)]['prob_exact']))}", square=seq[-1] == END,
                   r=leaf_r)
        y = y_of[seq]
        info = seq_info[name(seq)]
        evaluated = name(seq) in fate
        cls = "pl-tree-label" if evaluated else "pl-tree-muted"
        if len(seq) < depth:  # an answer that ends early: a guide line to its numbers
            t.raw(f'<line class="pl-tree-edge pl-tree-guide" x1="{cols[len(seq)] + 18}" y1="{y}" x2="{x_p - 44}" y2="{y}"/>')
        t.text(x_p, y + 4.5, fmt.exact(Fraction(info["prob_exact"])), cls, "end")
        score = info["score"] if penal else info["ln"]
        t.text(x_s, y + 4.5, _score_text(score), cls, "end")
        mark = []
        if result == name(seq):
            mark.append(("◀ Ergebnis", "pl-tree-result-text"))
        elif optimum == name(seq):
            mark.append(("◀ bestes", "pl-tree-best-text"))
        for text, mcls in mark:
            if narrow and depth > MAX_LEN:  # no room under the score between close rows: the arrow only
                t.text(x_s + 3, y + 4.5, "◀", mcls)
            elif narrow:
                t.text(x_s, y + 18.5, text.replace("◀ ", ""), mcls, "end")
            else:
                t.text(x_s + 5, y + 4.5, text, mcls)
    ly = height - 40 - legend_more
    t.legend(ly, [("pl-tree-kept", "im Beam"), ("pl-tree-pruned", "verworfen"), ("pl-tree-hidden", "nie erweitert"),
                  ("pl-tree-result", "Ergebnis"), ("pl-tree-best", "bestes im Baum")],
             per_row=2 if narrow else 3, col=160 if narrow else 156)

    s1 = r["steps"][0]
    readouts = [
        Readout("kept1", "Nach Schritt 1 behalten", (", ".join(s1["kept"]) or "–")
                + (f"; fertig: {', '.join(s1['finished'])}" if s1["finished"] else "")),
        Readout("dropped1", "Nach Schritt 1 verworfen", ", ".join(s1["dropped"]) or "nichts"),
    ]
    if done:
        readouts += [
            Readout("result", "Ergebnis des Beams", f"{r['result']}: {fmt.exact(Fraction(r['result_prob_exact']))}",
                    r["result_prob"], True),
            Readout("score", "Score Σ ln P" + (" / L^α" if penal else ""),
                    _score_text(r["result_score"] if penal else r["result_ln"]), r["result_score"]),
            Readout("optimum", "Bestes im ganzen Baum", f"{r['optimum']}: {fmt.exact(Fraction(r['optimum_prob_exact']))}",
                    r["optimum_prob"], True),
        ]
    else:
        readouts.append(Readout("result", "Ergebnis des Beams", "noch offen"))

    summary = _key_sentence(r, done, penal)
    if r["own"]:
        summary += f" Eigene Verteilung {', '.join(r['own'])}" + (
            f"; {r['zero']} Token{'s' if r['zero'] > 1 else ''} mit Wahrscheinlichkeit 0 {'fallen' if r['zero'] > 1 else 'fällt'} weg."
            if r["zero"] else ".")
    if r["unused_rows"]:
        summary += (" Im Baum mit Ende-Token gibt es kein C; die Wahrscheinlichkeiten "
                    f"{', '.join(r['unused_rows'])} bleiben unbenutzt.")
    extra = _table(r)
    return View(t.render(), readouts, summary, extra)


def _listed(items: list[str]) -> str:
    return " und ".join([", ".join(items[:-1]), items[-1]] if len(items) > 1 else items)


def _key_sentence(r: dict, done: bool, penal: bool) -> str:
    """The sentence under the tree: what the beam keeps, where it ends and, when it misses the best
    sequence of the tree, at which step that sequence's start fell out of the beam."""
    s1 = r["steps"][0]
    text = f"Breite {r['width']} behält nach Schritt 1 {_listed(s1['kept']) or 'keinen Anfang'}"
    text += f" und verwirft {_listed(s1['dropped'])}." if s1["dropped"] else "; nichts fällt heraus."
    if s1["finished"]:
        text += f" Fertig ist schon {_listed(s1['finished'])}."
    if not done:
        return text
    crit = f" (Σ ln P / L^α mit α = {fmt.de_auto(r['alpha'])})" if penal else ""
    text += f" Der Beam endet bei {r['result']} mit {fmt.exact(Fraction(r['result_prob_exact']))}{crit}"
    if r["found_optimum"]:
        return text + " – das ist auch das Beste im ganzen Baum" + _tie(r["tied"]) + "."
    best = r["optimum"]
    text += f". Das Beste im ganzen Baum wäre {best} mit {fmt.exact(Fraction(r['optimum_prob_exact']))}"
    if r["tied"]:
        text += f" (gleichauf mit {_listed(r['tied'])})"
    lost = next(((i, d) for i, s in enumerate(r["steps"], 1) for d in s["dropped"] if best.startswith(d)), None)
    if lost is None:
        return text + "."
    step, start = lost
    return text + (f": {best} selbst fiel nach Schritt {step} heraus." if start == best else
                   f": Sein Anfang {start} fiel nach Schritt {step} heraus.")


def _tie(tied: list[str]) -> str:
    if not tied:
        return ""
    return f", gleichauf mit {_listed(tied)}: {'beide haben' if len(tied) == 1 else 'alle haben'} denselben Score"


def _table(r: dict) -> str:
    head = ["Kandidat", "P", "Σ ln P", "Schicksal"]
    rows, classes = [], []
    for i, s in enumerate(r["steps"][:r["step"]], start=1):
        rows.append(f"Schritt {i}")
        classes.append("")
        for c in s["candidates"]:
            rows.append([c["seq"], fmt.exact(Fraction(c["prob_exact"])), fmt.de(c["ln"], 3), c["fate"]])
            classes.append("pl-dec-out" if c["fate"] == "verworfen" else "")
    return table(head, rows, caption=f"Kandidaten nach Score geordnet (Breite {r['width']})", row_classes=classes,
                 numeric=True)


# -- the lesson ----------------------------------------------------------------------------

def _param(name_: str) -> Param:
    return next(p for p in PARAMS if p.name == name_)


def _step_of(name_: str) -> float:
    return _param(name_).step


def _article(result) -> bool:
    """The lesson speaks of the two trees as they are: no own chances, two tokens at most."""
    return not result["own"] and result["depth"] == MAX_LEN


_READ = ("width", "tree", "alpha", "own", "depth", "result_len", "found_optimum")


@lru_cache(maxsize=512)
def _article_run(width: int, tree: str, alpha: float) -> dict:
    """What the lesson reads of a run on an example tree at another width or α. Kept: every state asks
    for the same few neighbours again, each a whole search."""
    r = compute(width, tree, alpha)
    return {key: r[key] for key in _READ}


def _first_alpha_for_the_long_answer(params, result) -> bool:
    """On the end-token tree the longer answer wins here, one α step lower the short one still did."""
    if result["tree"] != "ende" or result["result_len"] != MAX_LEN or not _article(result):
        return False
    lower = round(result["alpha"] - _step_of("alpha"), 1)
    return _article_run(result["width"], "ende", lower)["result_len"] < MAX_LEN


def _smallest_width_that_finds_the_best(params, result) -> bool:
    if result["tree"] != "artikel" or not result["found_optimum"] or not _article(result):
        return False
    return result["width"] == 1 or not _article_run(result["width"] - 1, "artikel", result["alpha"])["found_optimum"]


def _close_to_the_first_alpha(params, result) -> bool:
    """The answer to „long_wins“ lies one or two α steps away, on the same tree and beam width."""
    if result["tree"] != "ende" or not _article(result):
        return False
    for moves in (-2, -1, 1, 2):
        alpha = round(result["alpha"] + moves * _step_of("alpha"), 1)
        if _param("alpha").lo <= alpha <= _param("alpha").hi and _first_alpha_for_the_long_answer(params, _article_run(result["width"], "ende", alpha)):
            return True
    return False


def _one_wider_than_needed(params, result) -> bool:
    """The beam finds the best sequence, and one width less is the answer to „wide_enough“. (One width
    less than the answer is no „fast“: it is the page's own starting width.)"""
    return (result["tree"] == "artikel" and _article(result) and result["found_optimum"] and result["width"] > 1
            and _smallest_width_that_finds_the_best(params, _article_run(result["width"] - 1, "artikel", result["alpha"])))


LESSON = Lesson(
    prediction=Prediction(
        question="Im Baum mit Ende-Token darf eine Antwort schon nach einem Token enden. "
                 "Welche Antwort liefert Breite 1, also Greedy, bei α = 0?",
        choices=("die kurze Antwort ‹Ende›", "AA", "BA"),
        answer=1,
        shown=lambda params, result: (result["tree"] == "ende" and result["width"] == 1 and result["alpha"] == 0
                                      and _article(result)),
        explain="Breite 1 behält nach dem ersten Schritt nur A. ‹Ende› fällt heraus, "
                "obwohl es bei α = 0 die wahrscheinlichste Antwort im ganzen Baum ist.",
        example={"tree": "ende", "width": 1},
        why_not=("Bei α = 0 ist ‹Ende› wirklich die wahrscheinlichste Antwort im ganzen Baum. "
                 "Breite 1 behält nach dem ersten Schritt aber nur das beste Token, und das ist A. "
                 "‹Ende› fällt heraus, bevor es gewinnen kann.",
                 "",
                 "Nach B folgt zwar fast sicher A. Breite 1 verfolgt B aber gar nicht weiter, "
                 "weil nach dem ersten Schritt nur A bleibt. Auch im ganzen Baum liegt BA hinter AA."),
    ),
    tasks=(
        Task("long_wins", "Wähle den Baum mit Ende-Token. Finde das kleinste α, bei dem die längere Antwort AA gewinnt.",
             solved=_first_alpha_for_the_long_answer,
             explain="Das Teilen durch die Länge hoch α macht den Score der längeren Antwort weniger negativ. "
                     "Ab hier reicht das, damit AA die kurze Antwort überholt.",
             example={"tree": "ende", "alpha": 0.3},
             hints=("Vergleiche die Scores von ‹Ende› und AA. Beide sind negativ, aber AA ist länger.",
                    "Mit α wird der Score durch die Länge hoch α geteilt. Das hilft der längeren Antwort.",
                    "Lass „Beam-Breite“ bei 2, wähle den Baum „mit Ende-Token“ und erhöhe „Längenstrafe α“ "
                    "in kleinen Schritten."),
             near=Near(_close_to_the_first_alpha,
                       "Fast: Das gesuchte α liegt nur ein oder zwei Schritte von deinem entfernt.",
                       {"tree": "ende", "alpha": 0.1})),
        Task("wide_enough", "Finde im Beispielbaum die kleinste Breite, mit der der Beam die beste Folge des ganzen Baums findet.",
             solved=_smallest_width_that_finds_the_best,
             explain="Erst Breite 3 behält C nach dem ersten Schritt. Hier sind das alle Anfänge, "
                     "der Beam durchsucht also den ganzen Baum.",
             example={"width": 3},
             hints=("Schau, welcher Anfang nach Schritt 1 verworfen wird.",
                    "Die beste Folge beginnt mit einem schwachen ersten Token. Der Beam muss es über den ersten Schritt retten.",
                    "Ändere „Beam-Breite“ Schritt für Schritt und vergleiche das Ergebnis mit dem Besten im ganzen Baum."),
             near=Near(_one_wider_than_needed,
                       "Fast: Der Beam findet die beste Folge. Geht es auch mit einer kleineren Breite?",
                       {"width": 4})),
    ),
    discussion=(
        f"Vokabulare sind groß ({vocabulary.sizes()}). Warum kann man die Breite nicht einfach so groß wählen, "
        "dass nie etwas verworfen wird?",
        "Mit α ändert sich, welche Antwort gewinnt. Welche Antwort ist dann „die beste“?",
    ),
    teacher=(
        "Ohne Verwerfen wächst die Zahl der Folgen mit jedem Schritt um den Faktor Vokabulargröße. "
        "Jede behaltene Folge kostet Rechenzeit und Speicher, darum bleibt Beam Search eine Näherung.",
        "Das hängt vom Kriterium ab: α = 0 sucht die wahrscheinlichste Folge, α > 0 bevorzugt längere. "
        "Man wählt α nach dem Zweck, etwa damit Übersetzungen nicht zu kurz werden.",
    ),
    misconceptions=(
        "„Beam Search findet immer die wahrscheinlichste Folge.“ – Nein, was einmal aus dem Beam fällt, "
        "wird nie weiter verfolgt.",
        "„Die Breite ist wie k bei Top-k und lost aus.“ – Nein, Beam Search zieht nichts zufällig, "
        "die Breite zählt behaltene Folgen.",
    ),
)
