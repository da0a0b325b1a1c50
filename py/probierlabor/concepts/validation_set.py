"""Validation set: an ice-cream stand's notebook, three rules, and three disjoint kinds of days.

The data (CONCEPTS.md §1; R = reconstructed, P = proposal):

* notebook (training) days, R: (20 °C, 20), (22 °C, 30), (24 °C, 28) portions; the 22 °C day
  carries the unusually large tour group;
* validation days, stated: (21 °C, 23), (23 °C, 25), (25 °C, 31);
* test days, P: (19 °C, 19), (26 °C, 31).

The three rules are fitted on the notebook only, in exact fractions:

* „Gerade“: the straight line with the smallest mean absolute error in the notebook. With three
  points the best such line runs through two of them; here it is 2·T − 20, the article's line;
* „Kurve“: the parabola through all three notebook points, 30.5 − (T − 23) − 1.5·(T − 23)²;
* „Mittelwert“ (P): the constant notebook mean, 26.

The curve's damping λ (P) is a hyper-parameter of its own: with λ > 0 the curve is the least-squares
parabola a + b·(T − 23) + c·(T − 23)² with the penalty λ·c² (ridge on the bend), fitted exactly on
the notebook. λ = 0 is the parabola through the three points; a large λ straightens it towards the
least-squares line 2·T − 18. Choosing λ on the validation days is the page's question once more.

The test days open only once a rule is fixed (parameter ``fixed``). The rule in use now is the
parameter ``rule``. If both differ while the test days are open, the reader has looked at the
test and moved on: the test days have then served as selection data, and the page says so.
A shared link carries both parameters, so it restores that state too.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache, partial
from html import escape
from itertools import combinations

from ..kit import fmt, svg
from ..kit.contract import Param, Preset, Readout, View
from ..kit.layout import NARROW, WIDE, width
from ..kit.lesson import Lesson, Near, Prediction, Task
from ..kit.table import Cell, table

SLUG = "validation-set"
TITLE = "Validation Set"
GROUP = "Lernen und Bewerten"
TEASER = "Im Heft gewinnt die Kurve, an beiseitegelegten Tagen die Gerade – und der Test kommt zuletzt."

NOTEBOOK = ((20, 20), (22, 30), (24, 28))
VALIDATION = ((21, 23), (23, 25), (25, 31))
TEST = ((19, 19), (26, 31))
SPLITS = (("notebook", "Heft", NOTEBOOK), ("validation", "Validierung", VALIDATION), ("test", "Test", TEST))

RULES = (("line", "Gerade"), ("curve", "Kurve"), ("mean", "Mittelwert"))
RULE_LABEL = dict(RULES)
FIXED = (("none", "noch keine"), *RULES)
CENTRE = 23  # the curve's bend is measured around the middle of the days, so λ means the same on every side
DAMPING = ((0, "0 (durch alle Punkte)"), (0.1, "0,1"), (1, "1"), (10, "10"), (100, "100"))

PARAMS = (
    Param("rule", "Regel", "choice", "curve", choices=RULES,
          help="Die Regel, die du gerade benutzt. Ihre Fehler sind im Bild als senkrechte Striche zu sehen."),
    Param("fixed", "Regel festlegen", "choice", "none", choices=FIXED, widget="select",
          help="Erst festlegen, dann öffnen sich die Testtage. Wer danach die Regel wechselt, "
               "hat die Testtage zur Auswahl benutzt."),
    Param("lam", "Dämpfung der Kurve λ", "choice", 0, choices=DAMPING, widget="select",
          help="Ein Hyperparameter der Kurve: Je größer λ, desto weniger darf sie sich biegen. "
               "0 heißt: genau durch die drei Tage im Heft."),
)

PRESETS = (
    Preset("Von vorn", {}, "Die Kurve, die das Heft fehlerfrei trifft; Testtage verdeckt."),
    Preset("Gerade", {"rule": "line"}, "Die Gerade, Testtage verdeckt."),
    Preset("Gerade festlegen", {"rule": "line", "fixed": "line"},
           "Die Validierung hat die Gerade gewählt: festlegen und einmal testen."),
    Preset("Kurve festlegen", {"rule": "curve", "fixed": "curve"},
           "Wer nach dem Heft wählt, legt die Kurve fest."),
    Preset("Nach dem Test gewechselt", {"rule": "line", "fixed": "curve"},
           "Die Kurve war festgelegt, der Test fiel schlecht aus, jetzt soll es die Gerade sein."),
)


# -- fitting on the notebook, exactly ---------------------------------------------------

def _line_through(p, q) -> tuple[Fraction, Fraction, Fraction]:
    (t1, y1), (t2, y2) = p, q
    slope = Fraction(y2 - y1, t2 - t1)
    return (y1 - slope * t1, slope, Fraction(0))


def fit_line(days=NOTEBOOK) -> tuple[Fraction, Fraction, Fraction]:
    """The line with the smallest sum of absolute errors. Some best line always passes through two
    of the points (a linear programme's vertex), so trying every pair finds it."""
    candidates = [_line_through(p, q) for p, q in combinations(days, 2) if p[0] != q[0]]
    return min(candidates, key=lambda c: (sum(abs(y - predict(c, t)) for t, y in days), c[1]))


def fit_curve(days=NOTEBOOK) -> tuple[Fraction, Fraction, Fraction]:
    """The parabola c₀ + c₁T + c₂T² through three points (Lagrange form, expanded)."""
    c = [Fraction(0)] * 3
    for i, (ti, yi) in enumerate(days):
        others = [t for j, (t, _) in enumerate(days) if j != i]
        denom = Fraction((ti - others[0]) * (ti - others[1]))
        a, b = others
        # yi · (T − a)(T − b) / denom  =  yi/denom · (T² − (a + b)T + ab)
        w = yi / denom
        c[0] += w * a * b
        c[1] -= w * (a + b)
        c[2] += w
    return tuple(c)


def fit_damped_curve(lam, days=NOTEBOOK) -> tuple[Fraction, Fraction, Fraction]:
    """The least-squares parabola with the penalty λ·c² on its bend c (around CENTRE), exactly: the normal
    equations (XᵀX + λ·E₃₃)·(a, b, c) = Xᵀy by Cramer's rule, then back to powers of T."""
    lam = fmt.as_fraction(lam)
    rows = [(Fraction(1), Fraction(t - CENTRE), Fraction((t - CENTRE) ** 2)) for t, _ in days]
    m = [[sum(r[i] * r[j] for r in rows) + (lam if i == j == 2 else 0) for j in range(3)] for i in range(3)]
    rhs = [sum(r[i] * y for r, (_, y) in zip(rows, days)) for i in range(3)]

    def det(a):
        return (a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
                + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]))

    whole = det(m)
    a, b, c = (det([[rhs[i] if j == k else m[i][j] for j in range(3)] for i in range(3)]) / whole for k in range(3))
    return (a - CENTRE * b + CENTRE ** 2 * c, b - 2 * CENTRE * c, c)


def fit_mean(days=NOTEBOOK) -> tuple[Fraction, Fraction, Fraction]:
    return (Fraction(sum(y for _, y in days), len(days)), Fraction(0), Fraction(0))


def rules(lam=0) -> dict[str, tuple[Fraction, Fraction, Fraction]]:
    return dict(_rules(lam))


# The days are fixed and λ has five values: every fit and every mean error is exact arithmetic that a
# change of the rule or of the switch would otherwise repeat.
@lru_cache(maxsize=None, typed=True)
def _rules(lam) -> tuple:
    return (("line", fit_line()), ("curve", fit_damped_curve(lam) if lam else fit_curve()), ("mean", fit_mean()))


def predict(coef, t) -> Fraction:
    return coef[0] + coef[1] * t + coef[2] * t * t


@lru_cache(maxsize=256)
def mae(coef, days) -> Fraction:
    return sum((abs(y - predict(coef, t)) for t, y in days), Fraction(0)) / len(days)


def state_of(rule: str, fixed: str) -> str:
    """„hidden“: no rule fixed, test days closed; „honest“: the fixed rule is in use, measured once;
    „used“: the rule changed after the test was seen."""
    if fixed == "none":
        return "hidden"
    return "honest" if rule == fixed else "used"


# -- the experiment --------------------------------------------------------------------

def compute(rule: str = "curve", fixed: str = "none", lam: float = 0) -> dict:
    coefs = rules(lam)
    state = state_of(rule, fixed)
    days = []
    for split, _, data in SPLITS:
        for t, y in data:
            hidden = split == "test" and state == "hidden"
            pred = {r: predict(c, t) for r, c in coefs.items()}
            days.append({
                "split": split,
                "T": t,
                "y": None if hidden else y,
                "pred": {r: float(p) for r, p in pred.items()},
                "err": {r: None if hidden else float(abs(y - p)) for r, p in pred.items()},
                "err_exact": {r: None if hidden else str(abs(y - p)) for r, p in pred.items()},
            })
    table, exact, parts = {}, {}, {}
    for r, c in coefs.items():
        table[r], exact[r], parts[r] = {}, {}, {}
        for split, _, data in SPLITS:
            shown = split != "test" or state == "used" or (state == "honest" and r == fixed)
            value = mae(c, data) if shown else None
            table[r][split] = None if value is None else float(value)
            exact[r][split] = None if value is None else str(value)
            parts[r][split] = None if value is None else [value.numerator, value.denominator]
    winner = {split: min(coefs, key=lambda r: mae(coefs[r], data)) for split, _, data in SPLITS[:2]}
    return {
        "rule": rule,
        "fixed": fixed,
        "lam": lam,
        "state": state,
        "test_open": state != "hidden",
        "coef": {r: [float(x) for x in c] for r, c in coefs.items()},
        "coef_exact": {r: [str(x) for x in c] for r, c in coefs.items()},
        "days": days,
        "mae": table,
        "mae_exact": exact,
        "mae_frac": parts,  # [numerator, denominator], for the prose
        "winner": winner,
    }


# -- display helpers --------------------------------------------------------------------

# Errors in portions, exact however many decimals they need (35/6 ≈ 5,83 keeps the fraction one checks by hand).
exact_de = partial(fmt.exact, most=None, approx=2, fraction=True)


def portions(value) -> str:
    return exact_de(value) + (" Kugel" if Fraction(value) == 1 else " Kugeln")


def formula(rule: str, coef=None) -> str:
    """The rule as the legend writes it; a damped curve (``coef`` in powers of T) around T = 23, rounded."""
    if rule == "curve" and coef is not None:
        c0, c1, c2 = coef
        a, b = c0 + CENTRE * c1 + CENTRE ** 2 * c2, c1 + 2 * CENTRE * c2
        def term(x, what):
            return f" {'−' if x < 0 else '+'} {fmt.de_auto(abs(x), 3)}·{what}"
        return f"{fmt.de_auto(a, 3)}{term(b, '(T − 23)')}{term(c2, '(T − 23)²')}"
    return {
        "line": "2·T − 20",
        "curve": "30,5 − (T − 23) − 1,5·(T − 23)²",
        "mean": "26",
    }[rule]


def _marker(split: str, x: float, y: float, size: float, inner: str = "", extra_cls: str = "") -> str:
    """A split's marker (circle, square, triangle: told apart without colour), for the days and the key."""
    cls = f"pl-vs-day pl-vs-{split}{extra_cls}"
    if split == "notebook":
        return f'<circle class="{cls}" cx="{x:.1f}" cy="{y:.1f}" r="{size:.1f}">{inner}</circle>'
    if split == "validation":
        h = 0.9 * size
        return f'<rect class="{cls}" x="{x - h:.1f}" y="{y - h:.1f}" width="{2 * h:.1f}" height="{2 * h:.1f}">{inner}</rect>'
    top, side, bottom = 1.2 * size, 1.15 * size, 0.8 * size
    return (f'<path class="{cls}" d="M{x:.1f} {y - top:.1f} L{x + side:.1f} {y + bottom:.1f} '
            f'L{x - side:.1f} {y + bottom:.1f} Z">{inner}</path>')


def _shape(plot: svg.Plot, split: str, t: float, y: float, extra_cls: str = "", title: str = "") -> None:
    tip = f"<title>{escape(title)}</title>" if title else ""
    plot.front.append(_marker(split, plot.px(t), plot.py(y), 6, tip, extra_cls))


T_LO, T_HI, Y_LO, Y_HI = 18.0, 27.0, 0.0, 40.0
STATE_TEXT = {
    "hidden": "verdeckt",
    "honest": "einmal gemessen",
    "used": "zur Auswahl benutzt",
}
WARNING = "Testtage wurden zur Auswahl benutzt"


# article and pronouns (nominative, accusative) of each rule, for the sentence that reads the figure
NAMED = {"line": ("die", "sie", "sie"), "curve": ("die", "sie", "sie"), "mean": ("der", "er", "ihn")}


def _named(rule: str, lam: float = 0) -> str:
    article = NAMED[rule][0]
    if rule == "curve" and lam:
        return f"{article} mit λ = {fmt.de_auto(lam)} gedämpfte Kurve"
    return f"{article} {RULE_LABEL[rule]}"


def _key_sentence(r: dict, rule: str, state: str) -> tuple[str, str]:
    """The sentence under the plot: the rule's error in the notebook and at validation, whether
    validation picks the rule the notebook favours, and what the test days may still say; and apart
    from it the rule that wins at validation when it is another one, which answers the lesson's guess."""
    me = r["mae_exact"][rule]
    name, it, it_acc = _named(rule, r["lam"]), NAMED[rule][1], NAMED[rule][2]
    name = name[0].upper() + name[1:]
    on_notebook, pick = r["winner"]["notebook"], r["winner"]["validation"]
    best = Fraction(r["mae_exact"][pick]["validation"])
    chosen = Fraction(me["validation"]) == best
    nb, val = portions(me["notebook"]), portions(me["validation"])
    winner = f"Bei der Validierung gewinnt {_named(pick)} mit {portions(r['mae_exact'][pick]['validation'])}."
    answer = "" if chosen else winner
    if on_notebook == rule and not chosen:
        text = (f"{name} trifft das Heft am besten, im Mittel {nb} daneben. Bei der Validierung liegt {it} aber "
                f"{val} daneben.")
    elif chosen and on_notebook != rule:
        text = (f"{name} liegt im Heft {nb} daneben, bei der Validierung nur {val}: Die Validierung wählt "
                f"{it_acc}, obwohl im Heft {_named(on_notebook, r['lam'])} besser ist.")
    elif chosen:
        text = f"{name} liegt im Heft {nb} daneben, bei der Validierung {val}: Beide Male ist {it} die beste Regel."
    else:
        text = f"{name} liegt im Heft {nb} daneben, bei der Validierung {val}."
    if state == "hidden":
        return text + " Die Testtage bleiben verdeckt, bis du eine Regel festlegst.", answer
    if state == "honest":
        return text + f" Festgelegt und einmal getestet: An den Testtagen liegt {it} {portions(me['test'])} daneben.", answer
    return text + (f" {WARNING}: Festgelegt war {RULE_LABEL[r['fixed']]}, jetzt gilt {RULE_LABEL[rule]} "
                   f"(Testfehler {exact_de(me['test'])}) – der Test bewertet die Wahl nicht mehr unabhängig."), answer


def view(r: dict, layout: str = WIDE) -> View:
    # a narrow figure: the plot at phone width under its keys, the locked test's note in a row of its
    # own, the rules' formulas one a row (too wide for a legend box inside the plot)
    narrow = layout == NARROW
    # a damped curve's formula is longer than the phone's width after its name: it gets a line of its own
    split_curve = narrow and bool(r["lam"])
    extra = (66 + (18 if split_curve else 0)) if narrow else 0
    rule, state = r["rule"], r["state"]
    plot = svg.Plot(width(480, layout), 350 + extra, (T_LO, T_HI), (Y_LO, Y_HI), layout=layout,
                    label="Verkaufte Kugeln nach Temperatur", margin=(34 + extra, 14, 46, 52))
    plot.grid(xticks=range(18, 28), yticks=range(0, 41, 10), xlabel="Temperatur (°C)",
              ylabel="Kugeln", xfmt=lambda v: f"{v:g}")
    grid_t = [T_LO + (T_HI - T_LO) * i / 90 for i in range(91)]
    for name, _ in RULES:
        if name != rule:
            plot.polyline([(t, sum(c * t ** k for k, c in enumerate(r["coef"][name]))) for t in grid_t],
                          f"pl-vs-rule pl-vs-{name}")
    plot.polyline([(t, sum(c * t ** k for k, c in enumerate(r["coef"][rule]))) for t in grid_t],
                  f"pl-vs-rule pl-vs-{rule} pl-vs-current")
    names = {s: label for s, label, _ in SPLITS}
    for day in r["days"]:
        t = day["T"]
        if day["y"] is None:
            x = plot.px(t)
            plot.front.append(f'<rect class="pl-vs-hidden" x="{x - 11:.1f}" y="{plot.py(24) :.1f}" '
                              f'width="22" height="{plot.py(16) - plot.py(24):.1f}" rx="3">'
                              f"<title>Testtag bei {t} °C: verdeckt, bis eine Regel festgelegt ist</title></rect>")
            plot.text(t, 20, "?", "pl-vs-hidden-mark", "middle", dy=6)
            continue
        pred = day["pred"][rule]
        plot.line(t, day["y"], t, pred, f"pl-vs-resid pl-vs-{rule}-resid")
        err = day["err"][rule]
        if err:
            # a damped curve's errors are fractions like 121/31: on a phone the rounded value, else they touch
            parts_ = exact_de(day["err_exact"][rule], approx=1).split(" ≈ ")
            plot.text(t, (day["y"] + pred) / 2, parts_[-1] if narrow else parts_[0], "pl-vs-err", "start", dy=4)
    for day in r["days"]:
        if day["y"] is not None:
            _shape(plot, day["split"], day["T"], day["y"],
                   title=f"{names[day['split']]}: {day['T']} °C, {day['y']} Kugeln")
    damped = r["coef"]["curve"] if r["lam"] else None
    legend = [(f"pl-vs-rule pl-vs-{n}" + (" pl-vs-current" if n == rule else ""),
               f"{label}: {formula(n, damped if n == 'curve' else None)}") for n, label in RULES]
    if narrow:
        y = 56
        for (n, label), entry in zip(RULES, legend):
            if split_curve and n == "curve":
                plot.front.append(svg.key_row([(entry[0], f"{label}:")], 14, y, w=24, gap=6, lines=[entry[0]]))
                y += 18
                plot.front.append(svg.text(14 + 24 + 6, y, entry[1].split(": ", 1)[1], "pl-legend"))
            else:
                plot.front.append(svg.key_row([entry], 14, y, w=24, gap=6, lines=[entry[0]]))
            y += 18
    else:
        plot.legend(legend, corner="tl")
    # key of the three kinds of days, above the plot
    key_y = 16
    keys = [("notebook", "Heft", 60), ("validation", "Validierung", 168), ("test", "Test", 290)]
    if narrow:
        keys = [("notebook", "Heft", 20), ("validation", "Validierung", 120), ("test", "Test", 230)]
    for split, label, x in keys:
        plot.front.append(_marker(split, x, key_y, 5))
        plot.front.append(f'<text class="pl-legend" x="{x + 10}" y="{key_y + 4}">{label}</text>')
    if state == "used":
        plot.front.append(f'<text class="pl-vs-banner" x="{plot.right - 4}" y="{plot.bottom - 10}" '
                          f'text-anchor="end">⚠ {WARNING}</text>')
    elif state == "hidden":
        plot.front.append(f'<text class="pl-vs-locked" x="{plot.right - 4}" y="{key_y + 4 + (18 if narrow else 0)}" '
                          f'text-anchor="end">Test: erst festlegen</text>')

    m = r["mae"][rule]
    me = r["mae_exact"][rule]
    label = RULE_LABEL[rule]
    test_value = "verdeckt" if me["test"] is None else exact_de(me["test"])
    readouts = [
        Readout("notebook", "Fehler im Heft (MAE)", exact_de(me["notebook"]), m["notebook"], True),
        Readout("validation", "Fehler bei der Validierung", exact_de(me["validation"]), m["validation"], True),
        Readout("test", "Fehler an den Testtagen", test_value, m["test"], True),
        Readout("winner", "Beste Regel: Heft / Validierung",
                f"{RULE_LABEL[r['winner']['notebook']]} / {RULE_LABEL[r['winner']['validation']]}",
                [r["winner"]["notebook"], r["winner"]["validation"]], answers=True),
        Readout("state", "Testtage", STATE_TEXT[state], state, state == "used"),
    ]
    summary, answer = _key_sentence(r, rule, state)
    # the table has every rule's error at validation
    return View(plot.render(), readouts, summary, _table(r), answer=answer, extra_answers=True)


SHORT = {"line": "Gerade", "curve": "Kurve", "mean": "Mittel&shy;wert"}


def _col(name: str, rule: str) -> str:
    return "pl-vs-col" if name == rule else ""


def _table(r: dict) -> str:
    rule, state = r["rule"], r["state"]
    parts = []
    if state == "used":
        parts.append(
            f'<p class="pl-vs-warning" role="status"><strong>⚠ {WARNING}.</strong> Festgelegt war '
            f'{escape(RULE_LABEL[r["fixed"]])}; nach dem Blick auf die Testtage gilt jetzt '
            f'{escape(RULE_LABEL[rule])}. Ihr Testfehler ist damit ein Auswahlergebnis und keine '
            f'unabhängige Bewertung mehr – unberührte Tage sind keine mehr übrig.</p>')
    elif state == "honest":
        parts.append(
            f'<p class="pl-vs-ok">{escape(RULE_LABEL[rule])} ist festgelegt; die Testtage wurden einmal '
            f'für diese Regel ausgewertet. Die anderen Regeln bleiben dort ungemessen.</p>')
    head = ["Tag", "verkauft"] + [Cell(SHORT[n], _col(n, rule), html=True) for n, _ in RULES]
    rows, classes = [], []
    for split, label, _ in SPLITS:
        rows.append(label)
        classes.append("")
        for d in (d for d in r["days"] if d["split"] == split):
            cells = []
            for n, _ in RULES:
                if d["y"] is None:
                    text = "?"
                elif split == "test" and r["mae_exact"][n]["test"] is None:
                    text = "–"
                else:
                    text = exact_de(d["err_exact"][n])
                cells.append(Cell(text, _col(n, rule)))
            sold = "?" if d["y"] is None else fmt.de(d["y"])
            rows.append([f'{d["T"]} °C', sold, *cells])
            classes.append("")
        mae_cells = []
        for n, _ in RULES:
            value = r["mae_exact"][n][split]
            if value is None:
                text = "verdeckt" if state == "hidden" else "–"
            else:  # exact fraction on one line, its decimal below
                text = "<br>".join(escape(part) for part in exact_de(value).split(" ", 1))
            mae_cells.append(Cell(text, _col(n, rule), html=True))
        rows.append([Cell("Mittel", colspan=2), *mae_cells])
        classes.append("pl-vs-mae")
    caption = "Abweichung je Tag in Kugeln (ohne Vorzeichen) und ihr Mittel (MAE), exakt"
    parts.append(table(head, rows, caption=caption, row_classes=classes, row_heads=True, numeric=True, wide=True))
    return "".join(parts)


# -- the lesson ---------------------------------------------------------------------------

def _fixed_winner_of(split: str):
    """The reader fixed the rule that wins ``split`` and uses it, so its test error is honest."""
    return lambda params, result: result["state"] == "honest" and result["fixed"] == result["winner"][split]


LESSON = Lesson(
    prediction=Prediction(
        question="Die Kurve trifft alle drei Tage im Heft genau. Welche Regel liegt an den Validierungstagen "
                 "am wenigsten daneben?",
        choices=("die Kurve", "die Gerade", "der Mittelwert"),
        answer=1,
        shown=lambda params, result: params["rule"] == "line" and not params["lam"],
        explain="Die Gerade liegt an jedem Validierungstag nur 1 Kugel daneben, die Kurve im Mittel 35/6, "
                "also etwa 5,83. Die Kurve hat sich nach der Reisegruppe gebogen.",
        example={"rule": "line"},
        why_not=("Im Heft hat die Kurve den Fehler 0, weil sie genau durch seine drei Tage gebogen ist. "
                 "An den Validierungstagen liegt sie aber im Mittel 35/6 Kugeln daneben, fast 6.",
                 "",
                 "Der Mittelwert biegt sich nicht, er kann den Zufall also nicht mitlernen. Dafür übersieht er, "
                 "dass an warmen Tagen mehr Kugeln weggehen. Bei der Validierung liegt er 3 Kugeln daneben."),
    ),
    tasks=(
        Task("honest", "Lege die Regel fest, die an den Validierungstagen gewinnt, und öffne so die Testtage.",
             solved=_fixed_winner_of("validation"),
             explain="Die Gerade liegt auch an den zwei Testtagen im Mittel nur 1 Kugel daneben. "
                     "Die Validierung hat also gut gewählt.",
             example={"rule": "line", "fixed": "line"},
             hints=("Vergleiche die Regeln am „Fehler bei der Validierung“, nicht am Fehler im Heft.",
                    "Wähle unter „Regel“ die Regel mit dem kleinsten Fehler bei der Validierung.",
                    "Stelle dann „Regel festlegen“ auf dieselbe Regel."),
             near=Near(lambda params, result: (result["state"] == "hidden"
                                               and params["rule"] == result["winner"]["validation"]),
                       "Fast: Diese Regel gewinnt an den Validierungstagen. Lege sie jetzt unter „Regel festlegen“ fest.",
                       {"rule": "line"})),
        Task("notebook_pick", "Lege stattdessen die Regel fest, die im Heft gewinnt. "
                             "Wie schlägt sie sich im Test?",
             solved=lambda params, result: _fixed_winner_of("notebook")(params, result) and not params["lam"],
             explain="Die Kurve hat im Heft den Fehler 0, an den Testtagen aber 12,75 Kugeln. "
                     "Ein Fehler von 0 im Heft sagt nichts über neue Tage.",
             example={"rule": "curve", "fixed": "curve"},
             hints=("Welche Regel hat den kleinsten „Fehler im Heft“? Lass die Dämpfung λ dabei auf 0.",
                    "Stelle „Regel festlegen“ auf diese Regel und schaue auf die Testtage.")),
        Task("peeked", "Wechsle die Regel, nachdem du die Testtage gesehen hast. Was meldet das Experiment?",
             solved=lambda params, result: result["state"] == "used",
             explain="Jetzt haben die Testtage bei der Auswahl mitgeredet. Ihr Fehler ist keine ehrliche Schätzung "
                     "für neue Tage mehr.",
             example={"rule": "line", "fixed": "curve"},
             hints=("Die Testtage öffnen sich erst, wenn eine Regel festgelegt ist.",
                    "Lege eine Regel fest und wähle danach unter „Regel“ eine andere.")),
    ),
    discussion=(
        "Warum darf man die Regel nicht einfach nach dem Heft auswählen?",
        "Der Test fiel schlecht aus, und du willst eine andere Regel nehmen. Was brauchst du dann, "
        "um sie wieder ehrlich zu bewerten?",
        "Hier gibt es nur drei Validierungstage. Wie sehr würdest du dem Sieger trauen?",
    ),
    teacher=(
        "Das Heft hat die Zahlen der Regeln festgelegt. Eine biegsame Regel passt sich dabei auch an Zufälle an, "
        "etwa an die Reisegruppe. Deshalb gewinnt im Heft fast immer die biegsamste Regel.",
        "Man braucht neue, bisher ungesehene Testdaten. Die alten Testtage haben schon bei der Wahl geholfen "
        "und schätzen den Fehler deshalb zu günstig.",
        "Wenig. Bei drei Tagen kann ein einziger ungewöhnlicher Tag den Sieger ändern. "
        "Mit mehr Validierungsdaten wird die Wahl sicherer.",
    ),
    misconceptions=(
        "„Fehler 0 im Heft heißt, die Regel ist perfekt.“ Falsch: Die Kurve hat sich die Daten gemerkt, "
        "auch den Zufall, und liegt an neuen Tagen weit daneben.",
        "„Validierung und Test sind dasselbe.“ Falsch: Mit der Validierung wählt man aus. "
        "Der Test bewertet die gewählte Regel nur ein einziges Mal.",
    ),
)
