"""Embeddings: every token is a vector, and similar tokens point in similar directions.

Three parts, one experiment:

* Two vectors a and b in the plane, dragged by their tips. The dot product a·b = a₁b₁ + a₂b₂ and the
  cosine similarity cos φ = a·b / (|a|·|b|) are the readouts. Both are computed from the typed
  decimals as fractions: a·b and |a|² are exact, the cosine is exact where the root is rational
  (otherwise rounded, with „≈“).
* Absolute positions (Vaswani et al. 2017, §3.5): the model adds a position vector to each token's
  embedding, PE(p)₂ᵢ = sin(p·ωᵢ), PE(p)₂ᵢ₊₁ = cos(p·ωᵢ) with ωᵢ = 10000^(−2i/d). The plane shows the
  fastest pair (i = 0, ω = 1): a at position pa becomes a′ = a + PE(pa). Two tokens then have
  another dot product at every place, even at the same distance; RoPE (its own page) rotates instead,
  so that only the distance counts. sin and cos are irrational here: computed in floats, shown rounded.
* The site's trained model (model/weights/target.npz, 1024 tokens × 192 numbers): the nearest tokens
  of a typed word's token by cosine, and a map of all tokens on the first two principal components.
  The page has no numpy: tools/embedding_table.py derives both from the weights into
  ``embeddings_table.py``, and the typed word is cut by the model's own tokenizer (kit/site_tokenizer.py).
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction

from ..kit import fmt, svg, table
from ..kit.contract import Param, Preset, Readout, View
from ..kit.layout import WIDE, width
from ..kit.lesson import Lesson, Near, Prediction, Task
from ..kit.site_tokenizer import TOKENIZER
from . import embeddings_table as data

SLUG = "embeddings"
TITLE = "Embeddings"
GROUP = "Grundlagen"
TEASER = "Jedes Token ist ein Vektor: Welche Tokens liegen im Modell dieser Website nah beieinander?"

A, B = (3.0, 1.0), (1.0, 2.0)
WORD = "und"
VEC_RANGE = (-4.0, 4.0)
VIEW = 5.0  # the plane shows −5 … 5: a vector of the range plus a position vector of length 1 still fits
NEIGHBOURS = len(data.TABLE[0][1])
DIMENSIONS = data.DIMENSIONS
MAP_PERCENT = fmt.pct(data.MAP_SHARE, 0)  # how much of the spread the map's two axes hold
MAX_POSITION = 20
PLACES = (0, 1)  # where a and b stand unless the reader moves them
MAX_PIECE = 8
WORD_CHARS = ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyzÄÖÜäöüß0123456789"
              ".,;:!?-'()\"„“")

PARAMS = (
    Param("a", "Vektor a (x; y)", "values", A, lo=VEC_RANGE[0], hi=VEC_RANGE[1], count=(2, 2),
          help="Zwei Zahlen von −4 bis 4, mit Semikolon getrennt. Du kannst die Spitze von a auch im Bild ziehen."),
    Param("b", "Vektor b (x; y)", "values", B, lo=VEC_RANGE[0], hi=VEC_RANGE[1], count=(2, 2),
          help="Zwei Zahlen von −4 bis 4, mit Semikolon getrennt. Du kannst die Spitze von b auch im Bild ziehen."),
    Param("word", "Wort", "text", WORD, count=(1, 24), allowed=WORD_CHARS,
          help="Ein Wort ohne Leerzeichen, gelesen wie mitten im Satz: mit Leerzeichen davor. "
               "Mit Bindestrich davor („-ung“) ein Stück ohne Leerzeichen."),
    Param("k", "Nachbarn", "int", 5, lo=1, hi=NEIGHBOURS, step=1,
          help="Wie viele nächste Tokens die Liste und die Karte zeigen."),
    Param("piece", "Teil des Worts", "int", 1, lo=1, hi=MAX_PIECE, step=1,
          help="Zerfällt das Wort in mehrere Tokens: welches davon."),
    Param("positions", "Positionen addieren", "bool", False,
          help="Addiert zu a und b den Positionsvektor ihrer Stelle im Text."),
    Param("pa", "Stelle von a", "int", PLACES[0], lo=0, hi=MAX_POSITION, step=1,
          help="An welcher Stelle im Text das Token a steht (nur mit Positionen)."),
    Param("pb", "Stelle von b", "int", PLACES[1], lo=0, hi=MAX_POSITION, step=1,
          help="An welcher Stelle im Text das Token b steht (nur mit Positionen)."),
)

PRESETS = (
    Preset("Von vorn", {}, "a = (3; 1), b = (1; 2) und das Wort „und“."),
    Preset("Senkrecht", {"b": (-1.0, 3.0)}, "a·b = 0: Die Vektoren haben keinen gemeinsamen Anteil."),
    Preset("Entgegengesetzt", {"b": (-3.0, -1.0)}, "b = −a: Kosinus −1."),
    Preset("Zahlen", {"word": "2"}, "Die Nachbarn des Tokens „␣2“: andere Ziffern."),
    Preset("Langes Wort", {"word": "Straßenbahn"}, "Ein seltenes Wort zerfällt in mehrere Tokens."),
    Preset("Endung", {"word": "-ung"}, "Das Stück „ung“ ohne Leerzeichen: Seine Nachbarn sind andere Endungen."),
    Preset("Mit Positionen", {"positions": True, "pa": 2, "pb": 5},
           "a an Stelle 2, b an Stelle 5: Das Skalarprodukt ändert sich."),
)



def tokens_of(word: str) -> list[int]:
    """The word as it stands in the middle of a sentence: a word or number takes the space before it.
    A hyphen in front („-ung“) asks for the piece inside a word, without the space: many of the model's
    tokens are such pieces, and a reader can reach them so."""
    if word.startswith("-") and word[1:2].isalnum():
        return TOKENIZER.encode(word[1:])
    return TOKENIZER.encode((" " + word) if word[:1].isalnum() else word)


def position(p: int) -> tuple[float, float]:
    """The fastest pair of the sinusoidal position vector (ω = 1): (sin p, cos p)."""
    return (math.sin(p), math.cos(p))


def cosine_exact(dot: Fraction, n2a: Fraction, n2b: Fraction) -> Fraction | None:
    """dot / √(|a|²·|b|²) as a fraction where the root is rational, else None."""
    product = n2a * n2b
    num, den = math.isqrt(product.numerator), math.isqrt(product.denominator)
    if num * num == product.numerator and den * den == product.denominator:
        return dot / Fraction(num, den)
    return None


# the angles whose cosine has a rational square: cos² → the angle in degrees for a positive cosine
_WHOLE_ANGLES = {Fraction(1): 0, Fraction(3, 4): 30, Fraction(1, 2): 45, Fraction(1, 4): 60, Fraction(0): 90}


def exact_angle(dot: Fraction, norms2: Fraction) -> int | None:
    """The angle in whole degrees where it is exactly one (cos² = (a·b)² / (|a|²|b|²) is 0, 1/4, 1/2, 3/4 or 1)."""
    angle = _WHOLE_ANGLES.get(dot * dot / norms2)
    if angle is None:
        return None
    return 180 - angle if dot < 0 else angle


def compute(a: tuple = A, b: tuple = B, word: str = WORD, k: int = 5, piece: int = 1,
            positions: bool = False, pa: int = PLACES[0], pb: int = PLACES[1]) -> dict:
    va, vb = tuple(fmt.as_fraction(x) for x in a), tuple(fmt.as_fraction(x) for x in b)
    dot = va[0] * vb[0] + va[1] * vb[1]
    n2a, n2b = va[0] ** 2 + va[1] ** 2, vb[0] ** 2 + vb[1] ** 2
    zero = n2a == 0 or n2b == 0
    exact = None if zero else cosine_exact(dot, n2a, n2b)
    cos = None if zero else float(exact) if exact is not None else float(dot) / math.sqrt(n2a * n2b)
    angle = None if cos is None else math.degrees(math.acos(max(-1.0, min(1.0, cos))))
    angle_exact = None if zero else exact_angle(dot, n2a * n2b)
    out = {
        "a": [float(x) for x in va], "b": [float(x) for x in vb],
        "dot": float(dot), "dot_exact": str(dot),
        "norm2_a": str(n2a), "norm2_b": str(n2b),
        "len_a": math.sqrt(n2a), "len_b": math.sqrt(n2b),
        "cos": cos, "cos_exact": None if exact is None else str(exact), "angle": angle, "angle_exact": angle_exact,
        "positions": positions, "pa": pa, "pb": pb,
    }
    if positions:
        pe_a, pe_b = position(pa), position(pb)
        a2 = (float(va[0]) + pe_a[0], float(va[1]) + pe_a[1])
        b2 = (float(vb[0]) + pe_b[0], float(vb[1]) + pe_b[1])
        dot2 = a2[0] * b2[0] + a2[1] * b2[1]
        lengths = math.hypot(*a2) * math.hypot(*b2)
        out.update(pe_a=list(pe_a), pe_b=list(pe_b), a2=list(a2), b2=list(b2), dot2=dot2,
                   cos2=dot2 / lengths if lengths > 1e-12 else None)
    typed = bool(word)
    word = word or WORD  # an emptied field: the page's word, and the key sentence says so
    ids = tokens_of(word)
    index = min(piece, len(ids)) - 1
    token = ids[index]
    text, near, cosines, _ = data.TABLE[token]
    out.update(word=word, typed=typed, ids=ids, count=len(ids), pieces=[data.TABLE[i][0] for i in ids], piece=index + 1, asked=piece,
               piece_clamped=piece > len(ids), token=token, token_text=text, k=k,
               neighbours=list(near[:k]), neighbour_texts=[data.TABLE[i][0] for i in near[:k]],
               cosines=list(cosines[:k]))
    return out


# -- what the page shows -----------------------------------------------------------------

def _vec(v) -> str:
    return f"({fmt.de(v[0], 2, trim=True)}; {fmt.de(v[1], 2, trim=True)})"


def _cos(r: dict) -> str:
    if r["cos"] is None:
        return "nicht definiert"
    return fmt.exact(Fraction(r["cos_exact"])) if r["cos_exact"] is not None else fmt.APPROX + fmt.de(r["cos"], 3)


def _length(norm2: str) -> str:
    """|a| exact where |a|² is a square of a decimal (|(3; 4)| = 5), else rounded."""
    n2 = Fraction(norm2)
    num, den = math.isqrt(n2.numerator), math.isqrt(n2.denominator)
    if num * num == n2.numerator and den * den == n2.denominator:
        return fmt.exact(Fraction(num, den))
    return fmt.APPROX + fmt.de(math.sqrt(n2), 3)


def _direction(cos: float) -> str:
    if cos == 1:
        return "zeigen in genau dieselbe Richtung"
    if cos == -1:
        return "zeigen genau gegeneinander"
    if cos == 0:
        return "stehen senkrecht aufeinander: Sie haben keinen gemeinsamen Anteil"
    if cos > 0.9:
        return "zeigen fast in dieselbe Richtung"
    if cos > 0.3:
        return "zeigen in ähnliche Richtungen"
    if cos > -0.3:
        return "stehen fast senkrecht aufeinander"
    if cos > -0.9:
        return "zeigen eher gegeneinander"
    return "zeigen fast genau gegeneinander"


def _quoted(texts) -> str:
    return ", ".join(f"„{fmt.token(t)}“" for t in texts)


def _key_sentence(r: dict) -> str:
    dot = fmt.exact(Fraction(r["dot_exact"]))
    if r["cos"] is None:
        which = "a" if Fraction(r["norm2_a"]) == 0 else "b"
        text = (f"{which} ist der Nullvektor: Er hat keine Richtung. Das Skalarprodukt ist 0, "
                "der Kosinus ist nicht definiert.")
    else:
        text = (f"a·b = {dot}, der Kosinus ist {_cos(r).removeprefix('≈ ')}"
                if r["cos_exact"] is not None else f"a·b = {dot}, der Kosinus ist {_cos(r)}")
        angle = (fmt.de(r["angle_exact"]) if r["angle_exact"] is not None
                 else fmt.APPROX + fmt.de(r["angle"], 0))
        text += f" (Winkel {angle}°): a und b {_direction(r['cos'])}."
    if r["positions"]:
        text += (f" Mit Positionen (a an Stelle {r['pa']}, b an Stelle {r['pb']}) wird daraus "
                 f"a′·b′ {fmt.APPROX}{fmt.de(r['dot2'], 2)}")
        text += (f", Kosinus {fmt.APPROX}{fmt.de(r['cos2'], 3)}." if r["cos2"] is not None else ".")
    elif (r["pa"], r["pb"]) != PLACES:
        text += (f" Die Stellen (a an {r['pa']}, b an {r['pb']}) zählen erst, wenn du „Positionen addieren“ "
                 "einschaltest.")
    pieces = r["pieces"]
    if not r["typed"]:
        text += f" Kein Wort eingetippt: Die Seite zeigt „{r['word']}“."
    if len(pieces) == 1:
        text += f" „{r['word']}“ ist ein Token, „{fmt.token(r['token_text'])}“" + (
            f": Es hat nur Teil 1, keinen Teil {r['asked']}." if r["piece_clamped"] else ".")
    else:
        text += (f" „{r['word']}“ zerfällt in {len(pieces)} Tokens: {' + '.join('„' + fmt.token(p) + '“' for p in pieces)}. "
                 f"{'Es hat keinen Teil ' + str(r['piece'] + 1) + '; gezeigt' if r['piece_clamped'] else 'Gezeigt'} "
                 f"wird Teil {r['piece']}, „{fmt.token(r['token_text'])}“.")
    best = fmt.de(r["cosines"][0], 2)
    if r["k"] == 1:
        text += f" Sein nächster Nachbar im Modell: „{fmt.token(r['neighbour_texts'][0])}“ (Kosinus {fmt.APPROX}{best})."
    else:
        text += (f" Seine {r['k']} nächsten Nachbarn im Modell: {_quoted(r['neighbour_texts'])}; "
                 f"der nächste mit Kosinus {fmt.APPROX}{best}.")
    return text


# The map's extent: all tokens with a margin, fixed by the table (not by the state), so nothing jumps.
_XS = [row[3][0] for row in data.TABLE]
_YS = [row[3][1] for row in data.TABLE]
MAP_X = (math.floor(min(_XS) * 10) / 10, math.ceil(max(_XS) * 10) / 10)
MAP_Y = (math.floor(min(_YS) * 10) / 10, math.ceil(max(_YS) * 10) / 10)


def _marks(points) -> str:
    """Marks as one path of zero-length strokes (the CSS gives them width and round caps): one element
    however many tokens, about ten characters each, so a redraw sends little."""
    return "".join(f"M{x:.0f} {y:.0f}h0" for x, y in points)


@functools.lru_cache(maxsize=2)
def _all_marks(layout: str) -> str:
    """All tokens on the map: the same for every state, drawn once per layout."""
    plot = _map_plot(layout)
    return _marks((plot.px(x), plot.py(y)) for x, y in zip(_XS, _YS))


def _handle(plot: svg.Plot, name: str, v) -> None:
    x, y = v
    # a finger's target (static/js/experiment/drag.js: data-drag-xy) under the visible tip
    plot.hits.append(f'<circle class="pl-drag-hit" cx="{plot.px(x):.1f}" cy="{plot.py(y):.1f}" r="22" '
                     f'data-drag-xy="{name}"/>')
    plot.point(x, y, 7, f"pl-emb-tip pl-emb-{name}",
               {"data-drag-xy": name, "data-drag-step": "0.1", "tabindex": 0, "role": "slider",
                "aria-label": f"Spitze von {name}, Pfeiltasten: links, rechts x, hoch, runter y",
                "aria-valuemin": f"{VEC_RANGE[0]:g}", "aria-valuemax": f"{VEC_RANGE[1]:g}",
                "aria-valuenow": repr(x), "aria-valuetext": f"{name} = {_vec(v)}",
                "data-drag-value": f"{x!r} {y!r}"},
               title=f"{name} = {_vec(v)}: ziehen")


def _plane(r: dict, layout: str) -> svg.Plot:
    size = width(300, layout)
    plot = svg.Plot(size, size, (-VIEW, VIEW), (-VIEW, VIEW), label="Die Vektoren a und b in der Ebene",
                    layout=layout, margin=(14, 14, 44, 48))
    ticks = [-4, -2, 0, 2, 4]
    plot.grid(xticks=ticks, yticks=ticks, xlabel="x", ylabel="y")
    ox, oy = plot.px(0), plot.py(0)
    for name in ("a", "b"):
        v = r[name]
        plot.body.append(svg.arrow(ox, oy, plot.px(v[0]), plot.py(v[1]), f"pl-emb-vec pl-emb-{name}"))
        if r["positions"]:
            moved = r[name + "2"]
            plot.body.append(svg.arrow(plot.px(v[0]), plot.py(v[1]), plot.px(moved[0]), plot.py(moved[1]),
                                       "pl-emb-pe"))
            plot.body.append(svg.arrow(ox, oy, plot.px(moved[0]), plot.py(moved[1]), f"pl-emb-moved pl-emb-{name}"))
            plot.text(*moved, f"{name}′", "pl-label", "middle", dy=-10)
    for name in ("a", "b"):
        _handle(plot, name, r[name])
        plot.text(*r[name], name, "pl-label pl-emb-name", "start", dx=9, dy=-8)
    return plot


def _map_plot(layout: str) -> svg.Plot:
    return svg.Plot(width(400, layout), 300, MAP_X, MAP_Y, label="Karte aller Tokens des Modells (Hauptkomponenten)",
                    layout=layout, margin=(14, 10, 44, 16))


def _map(r: dict, layout: str) -> svg.Plot:
    plot = _map_plot(layout)
    plot.back.append(f'<rect class="pl-frame" x="{plot.left}" y="{plot.top}" width="{plot.right - plot.left}" '
                     f'height="{plot.bottom - plot.top}"/>')
    plot.back.append(f'<text class="pl-axis" x="{(plot.left + plot.right) / 2:.1f}" y="{plot.h - 8}" '
                     f'text-anchor="middle">Karte aller {len(data.TABLE)} Tokens ({fmt.pct(data.MAP_SHARE, 0)} der Streuung)</text>')
    plot.body.append(f'<path class="pl-emb-all" d="{_all_marks(layout)}"/>')
    near = [data.TABLE[i][3] for i in r["neighbours"]]
    plot.body.append(f'<path class="pl-emb-near" d="{_marks((plot.px(x), plot.py(y)) for x, y in near)}"/>')
    tx, ty = data.TABLE[r["token"]][3]
    plot.point(tx, ty, 7, "pl-emb-token", title=f"„{fmt.token(r['token_text'])}“")
    plot.text(tx, ty, fmt.token(r["token_text"]), "pl-label pl-emb-token-label", "start", dx=9, dy=-8)
    return plot


def _figure(r: dict, layout: str) -> str:
    plane, chart = _plane(r, layout), _map(r, layout)
    w, h, body = svg.panels([(plane.w, plane.h, plane.inner()), (chart.w, chart.h, chart.inner())], layout)
    # the drag handles live in the plane (the first panel, at the origin): the browser maps pixels by its box
    attrs = {"data-box": f"{plane.left} {plane.top} {plane.right} {plane.bottom}",
             "data-xrange": f"{-VIEW:g} {VIEW:g}", "data-yrange": f"{-VIEW:g} {VIEW:g}"}
    return svg.figure(w, h, body, label="Zwei Vektoren zum Ziehen und die Karte der Tokens des Modells",
                      cls="pl-emb", attrs=attrs, layout=layout)


def _neighbour_table(r: dict) -> str:
    rows = [(str(i + 1), f"„{fmt.token(text)}“", fmt.APPROX + fmt.de(c, 3))
            for i, (text, c) in enumerate(zip(r["neighbour_texts"], r["cosines"]))]
    return table.table(("Rang", "Token", "Kosinus"), rows, numeric=True,
                       caption=f"Die nächsten Tokens zu „{fmt.token(r['token_text'])}“ im Modell der Website "
                               f"({data.DIMENSIONS} Zahlen je Token, Kosinus gerundet)")


def view(r: dict, layout: str = WIDE) -> View:
    readouts = [
        Readout("dot", "Skalarprodukt a·b", fmt.exact(Fraction(r["dot_exact"])), r["dot"], True),
        Readout("lengths", "Längen |a|; |b|", f"{_length(r['norm2_a'])}; {_length(r['norm2_b'])}",
                [r["len_a"], r["len_b"]]),
        Readout("cos", "Kosinus-Ähnlichkeit", _cos(r), r["cos"], True),
    ]
    if r["positions"]:
        readouts.append(Readout("dot2", "mit Positionen a′·b′", fmt.APPROX + fmt.de(r["dot2"], 2), r["dot2"]))
    readouts += [
        Readout("token", "Token", f"„{fmt.token(r['token_text'])}“ (Nr. {r['token']})", r["token"]),
        Readout("nearest", "Nächster Nachbar",
                f"„{fmt.token(r['neighbour_texts'][0])}“ ({fmt.APPROX}{fmt.de(r['cosines'][0], 2)})", r["cosines"][0]),
    ]
    return View(_figure(r, layout), readouts, _key_sentence(r), _neighbour_table(r))


# -- the lesson ---------------------------------------------------------------------------

CLOSE = 0.65  # above every preset's word: „␣2“ (the „Zahlen“ preset) has its nearest neighbour at ≈ 0,63


def same_place_dots(a, b) -> list[float]:
    """a′·b′ with a and b both at place p, for every place the slider offers."""
    out = []
    for p in range(MAX_POSITION + 1):
        pe = position(p)
        out.append((a[0] + pe[0]) * (b[0] + pe[0]) + (a[1] + pe[1]) * (b[1] + pe[1]))
    return out


def _same_place(result) -> bool:
    return result["positions"] and result["pa"] == result["pb"]


def _above_lowest(result) -> float | None:
    """How far a′·b′ lies above its lowest value at any shared place; None where the place does not
    matter (positions off, different places, or a + b so short that every place gives about the same)."""
    if not _same_place(result):
        return None
    dots = same_place_dots(result["a"], result["b"])
    if max(dots) - min(dots) < 1:
        return None
    return dots[result["pa"]] - min(dots)


def _parallel(result) -> bool:
    return result["cos"] == 1 and Fraction(result["norm2_a"]) != Fraction(result["norm2_b"])


def _perpendicular(result) -> bool:
    return result["a"] != list(A) and result["cos"] is not None


LESSON = Lesson(
    prediction=Prediction(
        question="b zeigt in genau dieselbe Richtung wie a, ist aber nur halb so lang. Was ist ihr Kosinus?",
        choices=("1", "0,5", "2"),
        answer=0,
        shown=lambda params, result: _parallel(result),
        explain="Der Kosinus misst nur die Richtung. Die Länge kürzt sich heraus: ½·|a|² geteilt durch "
                "|a|·½|a| ist 1. Das Skalarprodukt dagegen schrumpft mit der Länge.",
        example={"b": (1.5, 0.5)},
        why_not=("",
                 "Das Skalarprodukt halbiert sich, der Kosinus nicht: Er teilt durch beide Längen.",
                 "Der Kosinus ist nie größer als 1. Das erreicht er schon, wenn die Richtungen gleich sind."),
    ),
    tasks=(
        Task("perpendicular", "Ändere a. Finde dann ein b, mit dem das Skalarprodukt a·b genau 0 ist.",
             solved=lambda params, result: _perpendicular(result) and result["dot"] == 0,
             explain="a·b = 0 heißt: a und b stehen senkrecht aufeinander. Der Kosinus ist 0, die Vektoren "
                     "haben keinen gemeinsamen Anteil. Zu jedem a gibt es so ein b.",
             example={"a": (2.0, 1.0), "b": (-1.0, 2.0)},
             hints=("Das Skalarprodukt ist a₁·b₁ + a₂·b₂.",
                    "Drehe b um einen rechten Winkel gegenüber a.",
                    "Tausche die beiden Zahlen von a und ändere bei einer das Vorzeichen."),
             near=Near(lambda params, result: _perpendicular(result) and 0 < abs(result["cos"]) < 0.1,
                       "Fast: b steht schon fast senkrecht auf a. Ein kleines Stück noch.",
                       {"a": (2.0, 1.0), "b": (-1.0, 1.8)})),
        Task("close", f"Finde ein Wort, dessen nächster Nachbar im Modell einen Kosinus über {fmt.de(CLOSE, 2)} hat.",
             solved=lambda params, result: result["cosines"][0] > CLOSE,
             explain="Häufige Wörter kommen im Text oft vor. Das Modell hat sie gut gelernt, und ihre "
                     "Verwandten (dasselbe Wort ohne Leerzeichen, groß und klein geschrieben) liegen nah.",
             example={"word": "Die"},
             hints=("Häufige kleine Wörter haben die klarsten Nachbarn.",
                    "Die LibreOffice-Hilfe, aus der das Modell vor allem gelernt hat, beginnt viele Sätze gleich.",
                    "Probiere Wörter, mit denen ein Satz anfängt, groß geschrieben."),
             near=Near(lambda params, result: result["word"] != WORD and 0.5 < result["cosines"][0] <= CLOSE,
                       "Fast: Der nächste Nachbar liegt schon über 0,5. Probiere ein ähnliches Wort.",
                       {"word": "das"})),
        Task("place", "Schalte die Positionen ein und stelle a und b an dieselbe Stelle. Finde die Stelle, an der "
                      "a′·b′ am kleinsten ist.",
             solved=lambda params, result: _above_lowest(result) == 0,
             explain="Der Positionsabstand ist überall 0, und doch hängt a′·b′ von der Stelle ab: Addierte "
                     "Positionen machen die Ähnlichkeit von der absoluten Stelle abhängig. RoPE vermeidet das.",
             example={"positions": True, "pa": 4, "pb": 4},
             hints=("Setze „Stelle von a“ und „Stelle von b“ auf dieselbe Zahl und schiebe beide gemeinsam.",
                    "Der Positionsvektor (sin p; cos p) dreht sich mit p. Zeigt er gegen a + b, "
                    "wird a′·b′ klein.",
                    "Probiere alle Stellen von 0 bis 20 und merke dir die kleinste Zahl."),
             near=Near(lambda params, result: 0 < (_above_lowest(result) or math.inf) < 0.5,
                       "Fast: a′·b′ ist hier klein, aber an einer anderen Stelle noch kleiner.",
                       {"positions": True, "pa": 10, "pb": 10})),
    ),
    discussion=(
        "Warum misst man Ähnlichkeit lieber mit dem Kosinus als mit dem Skalarprodukt?",
        "Ein Modell mit 192 Zahlen je Token: Was kann eine Karte mit zwei Achsen davon zeigen, was nicht?",
        "Warum stört es, wenn dasselbe Wortpaar an Stelle 3 und an Stelle 300 verschieden ähnlich aussieht?",
    ),
    teacher=(
        "Das Skalarprodukt ist |a|·|b|·cos φ. Teilt man durch beide Längen, bleibt nur die Richtung. "
        "Aufgabe 1 zeigt den Fall cos φ = 0.",
        "Die Nachbarn kommen aus dem Modell der Website (rund 2 Millionen Parameter, knapp 3 MB Text). Sie sind grob: "
        "Artikel, Ziffern und Formen desselben Worts liegen nah, Bedeutungen kaum. Große Modelle lernen "
        "feinere Nachbarschaften.",
        "Sinus-Positionen werden addiert und verändern so jedes Skalarprodukt, abhängig von der absoluten "
        "Stelle. RoPE dreht Query und Key stattdessen; dann zählt nur der Abstand.",
    ),
    misconceptions=(
        "„Jede einzelne Zahl im Embedding hat eine feste Bedeutung.“ Es zählt die Richtung des ganzen "
        "Vektors: Das Modell verteilt, was es gelernt hat, auf viele Zahlen zugleich.",
        "„Die Karte zeigt die Nachbarn.“ Sie zeigt nur zwei von 192 Richtungen. Nachbarn im Modell können "
        "auf der Karte weit auseinanderliegen.",
    ),
)
