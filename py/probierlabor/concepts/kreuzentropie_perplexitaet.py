"""Cross-entropy and perplexity: the loss a language model is trained on, on a short sentence.

For every token of a text the model gave the token that really came next some probability p; its loss
is −ln p (in nats; −log₂ p in bits). The cross-entropy is the mean over the text, the perplexity
e^(mean) = (p₁ · … · pₙ)^(−1/n): „so unsicher wie zwischen N gleich guten Tokens“ (Jurafsky & Martin,
Speech and Language Processing, ch. 3; Goodfellow, Bengio, Courville: Deep Learning, 5.5; Shannon 1948).

The model here is a hand-made next-token table: after each word a few continuations with exact fractions,
and every other token of the table's 16 shares the rest equally (an exact fraction too). A word the table
does not know counts as its token „(anderes Wort)“. The probabilities and their product are exact; a
logarithm is irrational (except −ln 1 = 0), so losses are floats, shown rounded with „≈“. The perplexity
is exact where the n-th root of the product's inverse is rational (all p = 1/2 → exactly 2).

The reader picks a sentence, types one from the table's words (others too), or types the probabilities
themselves; a bar of the p panel is a handle that writes its value into that list (kit/drag.py ``direct``).
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

from ..kit import drag, fmt, svg, table
from ..kit.contract import Param, Preset, Readout, View
from ..kit.layout import WIDE, width
from ..kit.lesson import Lesson, Near, Prediction, Task, unless_own

SLUG = "kreuzentropie-perplexitaet"
TITLE = "Kreuzentropie und Perplexität"
GROUP = "Grundlagen"
TEASER = "Womit ein Sprachmodell lernt: −ln p des richtigen Tokens, gemittelt – und wie viele gleich gute Tokens das sind."

START = "(Anfang)"
OTHER = "(anderes Wort)"
# The table's tokens: every row gives all of them a probability (the rows' „rest“ is shared by the others).
VOCAB = ("die", "der", "Katze", "Hund", "schläft", "frisst", "bellt", "miaut", "gern", "Fisch", "Knochen",
         "auf", "dem", "Sofa", ".", OTHER)
_H, _Q, _E = Fraction(1, 2), Fraction(1, 4), Fraction(1, 8)
_OPENING = {"die": _H, "der": _Q}
# After a word (the context), its likely continuations; the tokens not named share what is left.
TABLE: dict[str, dict[str, Fraction]] = {
    START: _OPENING,
    ".": _OPENING,  # a new sentence starts as the first did
    "die": {"Katze": _H, OTHER: _Q},
    "der": {"Hund": _H, OTHER: _Q},
    "Katze": {"schläft": _H, "frisst": _Q, "miaut": _E},
    "Hund": {"bellt": _H, "schläft": _Q, "frisst": _E},
    "schläft": {".": _H, "auf": _Q, "gern": _E},
    "frisst": {"Fisch": _Q, "Knochen": _Q, "gern": _Q},
    "bellt": {".": _H, "gern": _Q},
    "miaut": {".": _H, "gern": _Q},
    "gern": {"Fisch": _Q, "Knochen": _Q, ".": _Q},
    "Fisch": {".": Fraction(3, 4)},
    "Knochen": {".": Fraction(3, 4)},
    "auf": {"dem": _H, OTHER: _Q},
    "dem": {"Sofa": _H, OTHER: _Q},
    "Sofa": {".": Fraction(3, 4)},
    OTHER: {},  # after a word it does not know, the table knows nothing: every token 1/16
}
VOCAB_SIZE = len(VOCAB)
_KNOWN = {w.lower(): w for w in VOCAB if w != OTHER}

SENTENCES = {
    "katze": "Die Katze schläft.",
    "hund": "Der Hund bellt.",
    "miaut": "Der Hund miaut.",
    "fisch": "Die Katze frisst gern Fisch.",
    "sofa": "Die Katze schläft auf dem Sofa.",
    "maus": "Die Maus schläft.",
}
SENTENCE_CHOICES = tuple((key, f"„{text}“") for key, text in SENTENCES.items())
MAX_TOKENS = 10  # bars the figure can still label, on a phone too
LONGEST = 60  # characters of an own sentence
TYPABLE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyzÄÖÜäöüß ."
P_MIN = 0.0001  # −ln 0,0001 ≈ 9,2 nats: p = 0 would cost infinitely much
DRAG_STEP = 0.01

OWN_P = Param("p", "Eigene Wahrscheinlichkeiten", "values", (), lo=P_MIN, hi=1.0, count=(1, MAX_TOKENS),
              widget="z. B. 0,5; 0,25; 1",
              help="Die Wahrscheinlichkeit, die das Modell dem richtigen Token gab, eine je Token, mit Semikolon "
                   "getrennt (0,0001 bis 1). Leer: die Werte der Tabelle. Die Balken oben lassen sich ziehen.")

PARAMS = (
    Param("satz", "Satz", "choice", "katze", choices=SENTENCE_CHOICES,
          help="Ein Satz aus den Wörtern der Tabelle. „Maus“ kennt die Tabelle nicht."),
    Param("text", "Eigener Satz", "text", "", count=(1, LONGEST), allowed=TYPABLE,
          widget="z. B. Der Hund frisst gern Knochen.",
          help="Bis zu 60 Zeichen: Wörter und Punkte, höchstens 10 Tokens. Die Tabelle kennt die, der, Katze, "
               "Hund, schläft, frisst, bellt, miaut, gern, Fisch, Knochen, auf, dem, Sofa. Leer: der Satz oben."),
    OWN_P,
)

PRESETS = (
    Preset("Die Katze schläft.", {}, "Jedes Token bekommt 1/2."),
    Preset("Der Hund bellt.", {"satz": "hund"}, "Das erste Token ist seltener."),
    Preset("Der Hund miaut.", {"satz": "miaut"}, "Ein überraschendes Wort."),
    Preset("Die Katze frisst gern Fisch.", {"satz": "fisch"}, "Ein längerer Satz."),
    Preset("Ein unbekanntes Wort", {"satz": "maus"}, "„Maus“ steht nicht in der Tabelle."),
    Preset("Ein Token mit 1/100", {"p": (0.5, 0.5, 0.01, 0.5)}, "Drei Tokens 1/2, eins fast unmöglich."),
    Preset("Alles sicher: p = 1", {"p": (1.0, 1.0, 1.0, 1.0)}, "Das Modell gibt jedem richtigen Token 1."),
)


# -- the table ----------------------------------------------------------------------------------

def row(context: str) -> dict[str, Fraction]:
    """The next-token distribution after ``context``: the named continuations, the rest shared equally."""
    named = TABLE[context]
    others = [t for t in VOCAB if t not in named]
    share = (1 - sum(named.values(), Fraction(0))) / len(others)
    return {t: named.get(t, share) for t in VOCAB}


def tokens_of(text: str) -> list[tuple[str, str]]:
    """(as typed, the table's token) for each word and full stop of ``text``."""
    return [(w, _KNOWN.get(w.lower(), OTHER)) for w in re.findall(r"[^\W\d_]+|\.", text)]


def _likeliest(dist: dict[str, Fraction]) -> str:
    """The table's likeliest token after a context; none where all are equal (after an unknown word)."""
    best = max(dist.values())
    if best == min(dist.values()):
        return f"keins, alle {fmt.ratio(best)}"
    return next(t for t in VOCAB if dist[t] == best)


# -- the numbers -----------------------------------------------------------------------------------

def losses(probs) -> list[float]:
    """−ln p of each right token in nats; p = 1 costs exactly 0."""
    return [0.0 if p == 1 else -math.log(p) for p in probs]


def perplexity(probs) -> tuple[float, Fraction | None]:
    """e^(mean loss) = (p₁ · … · pₙ)^(−1/n), with its exact value where that is a fraction."""
    product = math.prod(probs, start=Fraction(1))
    n = len(probs)
    exact = fmt.root(1 / product, n)
    return (float(exact) if exact is not None else math.exp(sum(losses(probs)) / n)), exact


FACTOR_LIMIT = 10**12  # beyond this a typed p is not factored: its share counts as rounded


def _prime_powers(n: int) -> dict[int, int] | None:
    """n's prime factors with their powers, by trial division; None where n is too large to try."""
    if n > FACTOR_LIMIT:
        return None
    powers, d = {}, 2
    while d * d <= n:
        while n % d == 0:
            powers[d] = powers.get(d, 0) + 1
            n //= d
        d += 1
    if n > 1:
        powers[n] = powers.get(n, 0) + 1
    return powers


def _log_vector(q: Fraction) -> dict[int, int] | None:
    """−ln q as a sum of logarithms of primes: the power of each prime in 1/q."""
    num, den = _prime_powers(q.numerator), _prime_powers(q.denominator)
    if num is None or den is None:
        return None
    vector = dict(den)
    for prime, power in num.items():
        vector[prime] = vector.get(prime, 0) - power
    return vector


def exact_share(probs, i: int) -> Fraction | None:
    """−ln pᵢ / Σ −ln p exactly, where it is a fraction (1/2 of 1/2 · 1/4 · 1/2 … is 1/4); else None.

    Logarithms of primes are independent over the rationals, so the ratio is a fraction exactly where
    the primes' powers of the sum are one multiple of those of pᵢ."""
    vectors = [_log_vector(Fraction(q)) for q in probs]
    if any(v is None for v in vectors) or not any(vectors[i].values()):
        return None
    total: dict[int, int] = {}
    for vector in vectors:
        for prime, power in vector.items():
            total[prime] = total.get(prime, 0) + power
    prime = next(k for k, v in vectors[i].items() if v)
    times = Fraction(total.get(prime, 0), vectors[i][prime])
    if times == 0 or any(total.get(k, 0) != times * vectors[i].get(k, 0) for k in set(total) | set(vectors[i])):
        return None
    return 1 / times


def compute(satz: str = "katze", text: str = "", p: tuple = ()) -> dict:
    typed = tokens_of(text) if text else []
    pairs = typed if typed else tokens_of(SENTENCES[satz])
    cut = max(0, len(pairs) - MAX_TOKENS)
    pairs = pairs[:MAX_TOKENS]
    contexts = [START] + [token for _, token in pairs[:-1]]
    rows = [row(c) for c in contexts]
    table_p = [r[token] for r, (_, token) in zip(rows, pairs)]
    # a dragged bar writes every bar's value into the list: an untouched one arrives as the float of its
    # table fraction (1/104 as 0.009615384615384616) and keeps the exact fraction
    own = [table_p[i] if i < len(table_p) and float(v) == float(table_p[i]) else fmt.as_fraction(v)
           for i, v in enumerate(p)]
    probs = [own[i] if i < len(own) else q for i, q in enumerate(table_p)]
    loss = losses(probs)
    n = len(probs)
    mean = sum(loss) / n
    ppl, ppl_exact = perplexity(probs)
    worst = max(range(n), key=lambda i: loss[i])
    total = sum(loss)
    share = exact_share(probs, worst) if total > 0 else None
    return {
        "sentence": text if typed else SENTENCES[satz],
        "source": "eigen" if typed else satz,
        "own": bool(own),
        "words": [w for w, _ in pairs],
        "tokens": [t for _, t in pairs],
        "contexts": contexts,
        "unknown": [w for w, t in pairs if t == OTHER],
        "cut": cut,
        "unused": max(0, len(own) - n),
        "probs": [float(q) for q in probs],
        "probs_exact": [str(q) for q in probs],
        "table_probs_exact": [str(q) for q in table_p],
        "expected": [_likeliest(r) for r in rows],
        "loss": loss,
        "bits": [v / math.log(2) for v in loss],
        "n": n,
        "total": total,
        "mean": mean,
        "mean_bits": mean / math.log(2),
        "perplexity": ppl,
        "perplexity_exact": None if ppl_exact is None else str(ppl_exact),
        "worst": worst,
        "worst_share": loss[worst] / total if total > 0 else 0.0,
        "worst_share_exact": None if share is None else str(share),
        "worst_percent": 100 * loss[worst] / total if total > 0 else 0.0,
        "changed": [i for i in range(min(len(own), n)) if own[i] != table_p[i]],
    }


# -- what the page shows -----------------------------------------------------------------------------

UNIT = "Nat"  # of the natural logarithm, as „Bit“ is of log₂ (the glossary holds both)


def _nats(value: float, digits: int = 2) -> str:
    return "0" if value == 0 else fmt.APPROX + fmt.de(value, digits)


def _p_text(r: dict, i: int) -> str:
    q = Fraction(r["probs_exact"][i])
    # the table's fractions as fractions, typed probabilities as the decimals they were typed as
    return fmt.ratio(q) if q.denominator < 1000 and i not in r["changed"] else fmt.exact(q)


def _p_is(r: dict, i: int) -> str:
    text = _p_text(r, i)
    return "p " + text if text.startswith(fmt.APPROX) else "p = " + text


def _ppl_text(r: dict) -> str:
    if r["perplexity_exact"] is not None:
        return fmt.exact(Fraction(r["perplexity_exact"]), 3, 2, fraction=True)
    return fmt.APPROX + fmt.de(r["perplexity"], 2)


def _as_many(r: dict) -> str:
    """How many equally good tokens: the whole number where the perplexity is one, else the two around it."""
    exact = r["perplexity_exact"]
    if exact is not None and Fraction(exact).denominator == 1:
        return fmt.de(Fraction(exact).numerator)
    low = math.floor(r["perplexity"])
    return f"{fmt.de(low)} und {fmt.de(low + 1)}"


def _bits_text(r: dict) -> str:
    """The mean in bits: exact where the perplexity is an exact power of two."""
    exact = r["perplexity_exact"]
    if exact is not None and Fraction(exact).denominator == 1 and Fraction(exact).numerator & (Fraction(exact).numerator - 1) == 0:
        return fmt.de(Fraction(exact).numerator.bit_length() - 1)
    return fmt.APPROX + fmt.de(r["mean_bits"], 2)


def _own_note(r: dict) -> str:
    """Which probabilities are in force: typed ones stay when the reader picks another sentence, so the
    page says so, names the tokens they change and how to get the table's back."""
    changed = [r["words"][i] for i in r["changed"]]
    if not changed:
        return "Eigene Wahrscheinlichkeiten, gleich denen der Tabelle."
    words = ", ".join(f"„{w}“" for w in dict.fromkeys(changed))
    return (f"Es gelten deine eigenen Wahrscheinlichkeiten, nicht die der Tabelle (anders bei {words}). "
            f"Leere „{OWN_P.label}“, dann gilt wieder die Tabelle.")


def _lead(r: dict) -> str:
    parts = []
    if r["source"] == "eigen":
        parts.append(f"Eigener Satz „{r['sentence']}“.")
    if r["unknown"]:
        words = ", ".join(f"„{w}“" for w in dict.fromkeys(r["unknown"]))
        verb = "zählt" if len(set(r["unknown"])) == 1 else "zählen"
        parts.append(f"{words} kennt die Tabelle nicht: {verb} als {OTHER}.")
    if r["cut"]:
        parts.append(f"Die Tabelle liest nur die ersten {MAX_TOKENS} Tokens.")
    if r["own"]:
        parts.append(_own_note(r))
    if r["unused"]:
        parts.append(f"{fmt.count(r['unused'], 'eigener Wert bleibt', 'eigene Werte bleiben')} ohne Token.")
    return " ".join(parts)


def _key_sentence(r: dict) -> str:
    """Under the figure: how many tokens, the mean loss, the perplexity read out, and who costs most."""
    n = r["n"]
    lead = _lead(r)
    mean = (f"{fmt.count(n, 'Token', 'Tokens')}, Verlust im Mittel {_nats(r['mean'], 3)} {UNIT} "
            f"({_bits_text(r)} Bit).")
    if r["total"] == 0:
        body = (f"{mean} Jedes richtige Token hatte p = 1: Das kostet nichts, die Perplexität ist genau 1. "
                "Das Modell war nie unsicher.")
    else:
        ppl = f"Perplexität {_ppl_text(r)}: so unsicher wie zwischen {_as_many(r)} gleich guten Tokens."
        i = r["worst"]
        if not _has_worst(r):
            who = f"Alle Tokens kosten gleich viel, {_p_is(r, i)}."
        else:
            who = (f"Am teuersten ist „{r['words'][i]}“ mit {_p_is(r, i)} ({_nats(r['loss'][i])} {UNIT}, "
                   f"{_share_text(r)} des ganzen Verlusts).")
        body = f"{mean} {ppl} {who}"
    return f"{lead} {body}" if lead else body


def _share(result: dict) -> Fraction | float:
    """The costliest token's share of the loss, exact where it is a fraction (two thirds is not more than
    two thirds, whatever the floats say)."""
    exact = result["worst_share_exact"]
    return result["worst_share"] if exact is None else Fraction(exact)


def _share_text(r: dict) -> str:
    """The costliest token's share of the loss, in whole percent: exact where it is (1/2 is 50 %)."""
    share = _share(r)
    if isinstance(share, Fraction) and (100 * share).denominator == 1:
        return fmt.de(int(100 * share)) + fmt.THIN_NBSP + "%"
    return fmt.APPROX + fmt.pct(r["worst_share"], 0)


def _short(word: str, room: float) -> str:
    """A word that fits ``room`` pixels at 12 px, else cut with „…“."""
    most = max(2, int(room / 7.2))
    return word if len(word) <= most else word[:most - 1] + "…"


def view(r: dict, layout: str = WIDE) -> View:
    w = width(640, layout)
    top_h, low_h = 230, 250
    body = (_prob_panel(r, w, top_h, layout)
            + f'<g transform="translate(0 {top_h + 12})">{_loss_panel(r, w, low_h, layout)}</g>')
    label = "Oben die Wahrscheinlichkeit jedes richtigen Tokens, unten sein Verlust −ln p und das Mittel"
    figure = svg.figure(w, top_h + 12 + low_h, body, label=label, cls="pl-ce", layout=layout)
    probs = " · ".join(f"{word} {_p_text(r, i)}" for i, word in enumerate(r["words"]))
    readouts = [
        Readout("probs", "p des richtigen Tokens", probs, r["probs"]),
        Readout("mean", "Kreuzentropie (Mittel)", f"{_nats(r['mean'], 3)} {UNIT} ({_bits_text(r)} Bit)", r["mean"], True),
        Readout("perplexity", "Perplexität",
                "1: keine Unsicherheit" if r["total"] == 0 else f"{_ppl_text(r)} gleich gute Tokens",
                r["perplexity"], True),
        Readout("total", "Verlust zusammen", f"{_nats(r['total'], 3)} {UNIT} über {fmt.count(r['n'], 'Token', 'Tokens')}",
                r["total"]),
    ]
    return View(figure, readouts, _key_sentence(r), _table(r))


def _labels(plot: svg.Plot, r: dict, layout: str) -> None:
    room = plot.px(1) - plot.px(0)
    for i, word in enumerate(r["words"]):
        plot.text(i + 0.5, 0, _short(word, room), "pl-axis", "middle", dy=18)


def _prob_panel(r: dict, w: float, h: float, layout: str) -> str:
    n = r["n"]
    plot = svg.Plot(w, h, (0, n), (0, 1.15), label="Wahrscheinlichkeiten", margin=(12, 10, 40, 58), layout=layout)
    plot.grid(xticks=[], yticks=[0, 0.25, 0.5, 0.75, 1], xlabel="p des richtigen Tokens (ziehen oder tippen)",
              ylabel="p", yfmt=lambda v: fmt.de(v, 2))
    room = plot.px(1) - plot.px(0)
    for i, (word, q) in enumerate(zip(r["words"], r["probs"])):
        x0, x1 = plot.px(i + 0.18), plot.px(i + 0.82)
        attrs = drag.attrs(OWN_P.name, i, q, at=(plot.py(0), plot.py(1), 0, 1), lo=P_MIN, hi=1, step=DRAG_STEP,
                           label=f"p von {word}", valuetext=f"{word}: {fmt.de_auto(q)}", direct=True)
        plot.hits.append(drag.hit((x0 + x1) / 2, drag.target_width(room), plot.top, plot.bottom, OWN_P.name, i))
        y = plot.py(q)
        plot.body.append(f'<rect class="pl-ce-p pl-bar-handle" x="{x0:.1f}" y="{y:.1f}" width="{x1 - x0:.1f}" '
                         f'height="{max(plot.py(0) - y, 1.5):.1f}"{drag.markup(attrs)}/>')
        plot.text(i + 0.5, q, _p_text(r, i), "pl-ce-value", "middle", dy=-5)
    _labels(plot, r, layout)
    return plot.inner()


def _has_worst(r: dict) -> bool:
    """One token costs most (not all the same, not all 0)."""
    return len(set(r["probs_exact"])) > 1


def _loss_top(r: dict) -> float:
    return max(3.0, math.ceil(max(r["loss"]) + 0.6))


def _loss_panel(r: dict, w: float, h: float, layout: str) -> str:
    n, top = r["n"], _loss_top(r)
    plot = svg.Plot(w, h, (0, n), (0, top), label="Verluste", margin=(22, 10, 40, 58), layout=layout)
    step = 1 if top <= 6 else 2
    plot.grid(xticks=[], yticks=list(range(0, int(top) + 1, step)), xlabel=f"Verlust −ln p in {UNIT}", ylabel="−ln p")
    for i, value in enumerate(r["loss"]):
        x0, x1 = plot.px(i + 0.18), plot.px(i + 0.82)
        cls = "pl-ce-loss pl-ce-worst" if i == r["worst"] and _has_worst(r) else "pl-ce-loss"
        plot.body.append(svg.rect(x0, plot.py(value), x1 - x0, max(plot.py(0) - plot.py(value), 1.5), cls))
        plot.text(i + 0.5, value, fmt.de(value, 2), "pl-ce-value", "middle", dy=-5)
    plot.hline(r["mean"], "pl-ce-mean")
    ppl = _ppl_text(r)
    equals = ppl if ppl.startswith(fmt.APPROX) else "= " + ppl
    note = (f"Mittel {_nats(r['mean'])} {UNIT} · Perplexität e^Mittel {equals}"
            if layout == WIDE else f"Mittel {_nats(r['mean'])} · Perplexität {ppl}")
    plot.front.append(svg.key_row([("pl-ce-mean", note)], plot.left + 6, plot.top - 6, lines=("pl-ce-mean",)))
    _labels(plot, r, layout)
    return plot.inner()


def _table(r: dict) -> str:
    """Each token with what the table expected after its context: the table the page computes from."""
    rows = []
    for i, word in enumerate(r["words"]):
        token = r["tokens"][i]
        shown = word if token != OTHER else f"{word} → {OTHER}"
        table_p = Fraction(r["table_probs_exact"][i])
        p = _p_text(r, i) + (f" (Tabelle {fmt.ratio(table_p)})" if i in r["changed"] else "")
        rows.append([r["contexts"][i], shown, p, _nats(r["loss"][i], 3), r["expected"][i]])
    return table.table(["nach", "richtiges Token", "p", f"−ln p ({UNIT})", "am wahrscheinlichsten wäre"], rows,
                       caption="Die Tabelle des Modells, Token für Token", row_heads=False,
                       highlight=r["worst"] if _has_worst(r) else None)


# -- the lesson ----------------------------------------------------------------------------------

DOMINANT = Fraction(2, 3)  # one token carries more than two thirds of the whole loss (no listed sentence does)
HIGH = 8  # „Perplexität über 8“ by one probability alone
_CATS = [token for _, token in tokens_of(SENTENCES["katze"])]
_GUESS = (0.5, 0.5, 0.01, 0.5)  # the guess: one of four tokens falls to 1/100


def _one_changed_on_katze(result) -> bool:
    return result["source"] == "katze" and result["own"] and len(result["changed"]) == 1 and not result["unused"]


def _unequal(result) -> bool:
    return len(set(result["probs_exact"])) > 1


def _guess_figures() -> dict:
    before, after = losses([_H] * 4), losses([Fraction(p).limit_denominator(1000) for p in _GUESS])
    return {"one": fmt.de(after[2], 1), "before": fmt.de(sum(before) / 4, 2), "after": fmt.de(sum(after) / 4, 2),
            "ppl": fmt.de(perplexity([Fraction(p).limit_denominator(1000) for p in _GUESS])[0], 1)}


_G = _guess_figures()

LESSON = Lesson(
    prediction=Prediction(
        question="Vier Tokens mit je p = 1/2 haben die Perplexität 2. Nun fällt eins auf 1/100. "
                 "Was passiert mit der Perplexität?",
        choices=("Kaum etwas", "Mehr als doppelt so groß", "Fünfzigmal so groß"),
        answer=1,
        shown=lambda params, result: _one_changed_on_katze(result) and result["probs"][2] == 0.01,
        explain=f"−ln(1/100) ≈ {_G['one']} {UNIT} ist so viel wie fast sieben Tokens mit 1/2. Das Mittel steigt von "
                f"≈ {_G['before']} auf ≈ {_G['after']} {UNIT}, die Perplexität von 2 auf ≈ {_G['ppl']}.",
        example={"p": _GUESS},
        why_not=("Im Mittel zählt jedes Token gleich, aber −ln p wächst ohne Grenze, wenn p gegen 0 geht. "
                 "Ein einziges sehr unwahrscheinliches Token zieht das Mittel weit nach oben.",
                 "",
                 "Die Perplexität ist ein geometrisches Mittel: Der Faktor 50 wird auf vier Tokens verteilt, "
                 "als vierte Wurzel."),
    ),
    tasks=(
        Task("surprise", "Wähle oder tippe einen Satz, in dem ein einziges Token mehr als zwei Drittel des ganzen "
                         "Verlusts trägt. Nimm die Werte der Tabelle.",
             solved=unless_own(lambda params, result: _share(result) > DOMINANT),
             explain="Ein Wort, das die Tabelle nach seinem Vorgänger kaum erwartet, kostet viel mehr als alle "
                     "anderen zusammen, erst recht, wenn die anderen gut vorhergesagt sind.",
             example={"text": "Die Katze bellt."},
             hints=("Schaue in der Tabelle unter dem Bild, welches Wort nach welchem selten ist.",
                    "Je billiger die anderen Tokens, desto größer der Anteil des teuren: „Die“ am Anfang "
                    "kostet weniger als „Der“.",
                    "Eine Katze, die etwas tut, was sonst ein Hund tut?"),
             near=Near(unless_own(lambda params, result: 0.5 < _share(result) <= DOMINANT),
                       "Fast: Ein Token trägt schon mehr als die Hälfte. Mache die anderen Tokens billiger.",
                       {"satz": "miaut"})),
        Task("high", f"Ändere bei „Die Katze schläft.“ eine einzige Wahrscheinlichkeit so, dass die Perplexität "
                     f"über {HIGH} steigt.",
             solved=lambda params, result: _one_changed_on_katze(result) and result["perplexity"] > HIGH,
             explain="Geht p gegen 0, wächst −ln p ohne Grenze. Ein einziges Token reicht für ein großes Mittel.",
             example={"p": (0.5, 0.5, 0.001, 0.5)},
             hints=("Ziehe einen Balken im oberen Bild nach unten.",
                    "Wie klein muss p werden? Probiere 0,01 und dann noch kleiner.",
                    f"Über {HIGH} heißt: Das Produkt der vier p muss unter 1/{HIGH}⁴ = 1/{HIGH ** 4} fallen. "
                    "Drei Faktoren 1/2 ergeben schon 1/8."),
             near=Near(lambda params, result: _one_changed_on_katze(result) and 5 <= result["perplexity"] <= HIGH,
                       "Fast: schon über 5. Mache das eine p noch kleiner.", {"p": _GUESS})),
        Task("four", "Tippe eigene Wahrscheinlichkeiten, nicht alle gleich, bei denen die Perplexität genau 4 ist.",
             solved=lambda params, result: result["own"] and _unequal(result) and result["perplexity_exact"] == "4",
             explain="Die Perplexität ist ein geometrisches Mittel: Es zählt nur das Produkt der p. Halbierst du "
                     "ein p und verdoppelst ein anderes, bleibt sie gleich. Auch zwei Tokens mit 1/2 und 1/8 "
                     "ergeben genau 4.",
             example={"p": (0.5, 0.5, 0.125, 0.125)},
             hints=("Vier Tokens mit je 1/4 ergeben genau 4. Es soll aber nicht jedes p gleich sein.",
                    "Es kommt nur auf das Produkt an: Bei vier Tokens muss es 1/256 sein.",
                    "Halbiere ein p und verdopple ein anderes."),
             near=Near(lambda params, result: (result["own"] and not _unequal(result)
                                               and result["perplexity_exact"] == "4"),
                       "Fast: Das ist genau 4, aber jedes p ist gleich. Mache sie verschieden, ohne dass sich "
                       "die Perplexität ändert.", {"p": (0.25, 0.25, 0.25, 0.25)})),
        Task("zero", "Wähle einen anderen Satz als „Die Katze schläft.“ und mache seinen Verlust genau 0.",
             solved=lambda params, result: result["total"] == 0 and result["tokens"] != _CATS,
             explain="−ln 1 = 0: Ein Token, das das Modell sicher vorhersagt, kostet nichts, in jedem Satz. Die "
                     "Perplexität ist dann genau 1. Deine eigenen Wahrscheinlichkeiten gelten für den Satz, "
                     "den du gerade gewählt hast.",
             example={"satz": "hund", "p": (1.0, 1.0, 1.0, 1.0)},
             hints=("Welches p kostet nichts?",
                    "Wähle zuerst den Satz, dann ziehe alle seine Balken ganz nach oben.",
                    "Jedes Token des Satzes braucht ein eigenes p: Zähle die Balken."),
             near=Near(lambda params, result: result["total"] == 0 and result["tokens"] == _CATS,
                       "Fast: Der Verlust ist 0, aber bei „Die Katze schläft.“. Wähle einen anderen Satz.",
                       {"p": (1.0, 1.0, 1.0, 1.0)})),
    ),
    discussion=(
        "Warum darf ein Sprachmodell keinem Token die Wahrscheinlichkeit genau 0 geben?",
        "Ein Modell hat Perplexität 12. Heißt das, es rät zwischen 12 Wörtern?",
    ),
    teacher=(
        "Bei p = 0 wäre −ln p unendlich: Ein einziges unerwartetes Token machte den Verlust unendlich. "
        "Die Softmax gibt jedem Token mehr als 0 – gut so, denn so bleibt der Verlust endlich.",
        "Nein, es ist ein Mittel. Mal ist das Modell sicher, mal schwankt es zwischen hunderten Tokens. "
        "Im geometrischen Mittel ist es so unsicher wie bei 12 gleich guten Tokens.",
    ),
    misconceptions=(
        "„Ein unerwartetes Token zählt im Mittel kaum.“ – Das Gegenteil: −ln p wächst ohne Grenze, unerwartete "
        "Tokens (kleines p) bestimmen den Verlust. Ein seltenes Wort, das das Modell gut vorhersagt, kostet wenig.",
        "„Perplexität und Verlust messen Verschiedenes.“ – Die Perplexität ist e hoch der Kreuzentropie, "
        "nur anders ausgedrückt.",
    ),
)
