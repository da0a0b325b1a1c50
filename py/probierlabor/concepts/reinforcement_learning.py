"""Reinforcement learning: a game with one fork and two rounds, and the return G = r₁ + γ·r₂.

The game (CONCEPTS.md §10): path A pays 2 coins in round 1 and 0 in round 2, path B pays 0 and
then 5. The return of a path is G = r₁ + γ·r₂ (Spinning Up, „Reward and Return“, finite horizon:
γ = 0 and γ = 1 are both allowed because the game ends after two rounds).

Everything is exact: γ enters as the decimal the reader set (``Fraction(str(γ))``), so
G_B = 5·γ is 1 exactly at γ = 0,2 and the two paths tie exactly at γ = 2/5.
Nothing is trained here: the experiment compares two objectives for the same fixed game.

Own game: the reader types the four rewards (A in rounds 1 and 2, then B; 0 to 20 coins, exact as
typed). The tie is then γ = (a₁ − b₁)/(b₂ − a₂); it may lie outside 0 … 1, or not exist when both
paths pay the same in round 2.
"""

from __future__ import annotations

from fractions import Fraction
from functools import partial

from ..kit import distribution, fmt, svg
from ..kit.contract import Param, Preset, Readout, View
from ..kit.layout import NARROW, WIDE, width
from ..kit.lesson import Lesson, Near, Prediction, Task

SLUG = "reinforcement-learning"
TITLE = "Reinforcement Learning (RL)"
GROUP = "Lernen und Bewerten"
TEASER = "Zwei Münzen sofort oder fünf später? Der Return entscheidet – und γ, wie viel „später“ zählt."

REWARDS = {"A": (Fraction(2), Fraction(0)), "B": (Fraction(0), Fraction(5))}
PATHS = (("A", "Weg A"), ("B", "Weg B"))
REVEAL = (("none", "verdeckt"), ("own", "nur mein Weg"), ("both", "beide Wege"))

PARAMS = (
    Param("gamma", "Gewicht der Zukunft γ", "float", 0.9, lo=0.0, hi=1.0, step=0.05,
          help="Wie viel eine Münze aus Runde 2 im Return zählt (1 = voll, 0 = gar nicht)."),
    Param("path", "Weg an der Gabelung", "choice", "A", choices=PATHS,
          help="Welchen Weg der Agent in dieser Partie geht."),
    Param("reveal", "Runde 2 aufdecken", "choice", "none", choices=REVEAL,
          help="Die Belohnung der zweiten Runde ist erst nach dem Spielen bekannt."),
    Param("rewards", "Eigene Münzen (A1; A2; B1; B2)", "values", (), lo=0.0, hi=20.0, count=(4, 4),
          widget="z. B. 3; 1; 0; 6",
          help="Vier Zahlen von 0 bis 20: Weg A in Runde 1 und 2, dann Weg B. Leer: 2; 0; 0; 5 wie im Spiel."),
)

PRESETS = (
    Preset("Von vorn", {}, "Weg A gewählt, Runde 2 noch verdeckt."),
    Preset("Nur A gespielt", {"reveal": "own"}, "Über Weg B weiß der Agent noch nichts."),
    Preset("γ = 1", {"gamma": 1.0, "reveal": "both", "path": "B"}, "Beide Runden zählen voll."),
    Preset("γ = 0,2", {"gamma": 0.2, "reveal": "both"}, "Die Zukunft zählt nur ein Fünftel."),
    Preset("γ = 0", {"gamma": 0.0, "reveal": "both"}, "Nur die erste Runde zählt."),
    Preset("Gleichstand", {"gamma": 0.4, "reveal": "both"}, "Bei γ = 0,4 sind beide Wege gleich gut."),
)


def return_of(path: str, gamma, rewards=REWARDS) -> Fraction:
    r1, r2 = rewards[path]
    return r1 + fmt.as_fraction(gamma) * r2


def tie_gamma(rewards=REWARDS) -> Fraction | None:
    """The γ at which both paths have the same return (2 + γ·0 = 0 + γ·5 in the game); None where the
    second rounds pay the same, so the returns never cross."""
    (a1, a2), (b1, b2) = rewards["A"], rewards["B"]
    return None if b2 == a2 else (a1 - b1) / (b2 - a2)


def game(rewards=()) -> dict:
    """The game's rewards, or the four the reader typed (exact decimals)."""
    if not rewards:
        return REWARDS
    a1, a2, b1, b2 = distribution.exact(rewards)
    return {"A": (a1, a2), "B": (b1, b2)}


# Returns are checked by hand: exact decimals, a fraction such as 1/3 before its rounding.
exact_text = partial(fmt.exact, fraction=True)


def compute(gamma: float = 0.9, path: str = "A", reveal: str = "none", rewards: tuple = ()) -> dict:
    g = fmt.as_fraction(gamma)
    game_ = game(rewards)
    returns = {p: return_of(p, g, game_) for p in game_}
    known = {p: reveal == "both" or (reveal == "own" and p == path) for p in game_}
    tie = tie_gamma(game_)
    (a1, _), (b1, _) = game_["A"], game_["B"]
    better = "gleich" if returns["A"] == returns["B"] else "A" if returns["A"] > returns["B"] else "B"
    return {
        "gamma": float(g),
        "gamma_exact": str(g),
        "path": path,
        "reveal": reveal,
        "own": bool(rewards),
        "rewards": {p: [float(r) for r in rs] for p, rs in game_.items()},
        "rewards_exact": {p: [str(r) for r in rs] for p, rs in game_.items()},
        "coins": {p: float(sum(rs)) for p, rs in game_.items()},
        "returns": {p: float(v) for p, v in returns.items()},
        "returns_exact": {p: str(v) for p, v in returns.items()},
        "own_return": float(returns[path]),
        "known": known,
        "better": better,
        "tie_gamma": None if tie is None else float(tie),
        "tie_gamma_exact": None if tie is None else str(tie),
        "round1_leader": "gleich" if a1 == b1 else "A" if a1 > b1 else "B",
    }


def _rewards(r: dict) -> dict:
    return {p: tuple(Fraction(x) for x in rs) for p, rs in r["rewards_exact"].items()}


# -- what the page shows -----------------------------------------------------

def _return_lines(p: str, r: dict) -> tuple[str, str]:
    g = Fraction(r["gamma_exact"])
    r1, r2 = _rewards(r)[p]
    gt = exact_text(g)
    if not r["known"][p]:
        return f"G = {exact_text(r1)} + {gt} · ?", ""
    return f"G = {exact_text(r1)} + {gt} · {exact_text(r2)}", f"= {exact_text(return_of(p, g, _rewards(r)))}"


def _board(r: dict, layout: str) -> str:
    # a narrow board: narrower boxes closer together, the returns right after them
    narrow = layout == NARROW
    lanes = {"A": 74, "B": 176}
    xs, half, x_ret = ((108, 172), 28, 208) if narrow else ((130, 214), 32, 262)
    out = [
        svg.text(xs[0], 20, "Runde 1", "pl-axis", "middle"),
        svg.text(xs[1], 20, "Runde 2", "pl-axis", "middle"),
        svg.text(x_ret, 20, "Return", "pl-axis"),
        '<circle class="pl-rl-start" cx="28" cy="125" r="22"/>',
        svg.text(28, 129, "Start", "pl-rl-small", "middle"),
    ]
    for p, y in lanes.items():
        chosen = p == r["path"]
        cls = "pl-rl-lane pl-rl-chosen" if chosen else "pl-rl-lane"
        out.append(f'<path class="{cls}" d="M50,125 C70,125 70,{y} 92,{y} L{x_ret - 8},{y}"/>')
        out.append(svg.text(60, y - 32 if p == "A" else y + 44, f"Weg {p}" + (" (gewählt)" if chosen else ""),
                      "pl-label pl-rl-lanename" + (" pl-rl-chosen-text" if chosen else "")))
        for k, x in enumerate(xs):
            value = _rewards(r)[p][k]
            hidden = k == 1 and not r["known"][p]
            box = "pl-rl-box" + (" pl-rl-hidden" if hidden else "") + (" pl-rl-box-chosen" if chosen else "")
            out.append(f'<rect class="{box}" x="{x - half}" y="{y - 26}" width="{2 * half}" height="52" rx="8">'
                       f"<title>Weg {p}, Runde {k + 1}: {'verdeckt' if hidden else exact_text(value)}</title></rect>")
            out.append(svg.text(x, y + (8 if hidden else 4), "?" if hidden else exact_text(value),
                                "pl-rl-coin", "middle"))
            if not hidden:
                out.append(svg.text(x, y + 19, "Münzen" if value != 1 else "Münze", "pl-rl-small", "middle"))
        first, second = _return_lines(p, r)
        out.append(svg.text(x_ret, y + (5 if not second else -3), first, "pl-label pl-rl-return"))
        if second:
            out.append(svg.text(x_ret, y + 17, second, "pl-label pl-rl-return pl-rl-total"
                          + (" pl-rl-chosen-text" if chosen else "")))
    both = all(r["known"].values())
    if both:
        verdict = ("Beide Wege sind gleich gut." if r["better"] == "gleich"
                   else f"Bei γ = {fmt.de_auto(r['gamma']) if r['gamma'] else '0'} ist Weg {r['better']} besser.")
    elif r["known"][r["path"]]:
        other = "B" if r["path"] == "A" else "A"
        verdict = f"Über Weg {other} weißt du nur Runde 1."
    elif r["round1_leader"] == "gleich":
        verdict = "Nach Runde 1 stehen beide Wege gleich. Und dann?"
    else:
        verdict = f"Nach Runde 1 liegt Weg {r['round1_leader']} vorn. Und dann?"
    w = width(420, layout)
    out.append(svg.text(w / 2, 244, verdict, "pl-label pl-rl-verdict", "middle"))
    return svg.figure(w, 254, out, label="Spielbrett mit zwei Wegen und zwei Runden", cls="pl-rl", layout=layout)


def _chart(r: dict, layout: str) -> str:
    (a1, a2), (b1, b2) = r["rewards"]["A"], r["rewards"]["B"]
    top = max(a1, a1 + a2, b1, b1 + b2, 1)  # the game: returns up to 5, drawn up to 5,4
    every = 1 if top <= 6 else 2 if top <= 12 else 5
    plot = svg.Plot(320, 230, (0, 1), (0, top * 1.08), label="Return in Abhängigkeit von γ", margin=(14, 14, 42, 46),
                    layout=layout)
    plot.grid(xticks=[0, 0.2, 0.4, 0.6, 0.8, 1], yticks=list(range(0, int(top) + 1, every)), xlabel="γ",
              ylabel="Return G", xfmt=lambda v: fmt.de_auto(v) if v else "0", yfmt=lambda v: fmt.de(v))
    plot.line(r["gamma"], 0, r["gamma"], top * 1.08, "pl-rl-now")
    if r["known"]["A"]:
        plot.line(0, a1, 1, a1 + a2, "pl-rl-line-a")
        plot.text(0.03, a1 + 0.03 * a2, "A", "pl-label pl-rl-a-text", dy=-6)
    if r["known"]["B"]:
        plot.line(0, b1, 1, b1 + b2, "pl-rl-line-b")
        plot.text(0.86, b1 + 0.86 * b2, "B", "pl-label pl-rl-b-text", dy=-4)
    tie = r["tie_gamma"]
    if all(r["known"].values()) and tie is not None and 0 <= tie <= 1:
        plot.point(tie, a1 + tie * a2, 4, "pl-rl-tie", title=f"Gleichstand bei γ = {fmt.de_auto(tie)}")
    for p, cls in (("A", "pl-rl-dot-a"), ("B", "pl-rl-dot-b")):
        if r["known"][p]:
            plot.point(r["gamma"], r["returns"][p], 5, cls,
                       title=f"Return {p} bei γ = {fmt.de_auto(r['gamma'])}: {exact_text(Fraction(r['returns_exact'][p]))}")
    if not any(r["known"].values()):
        plot.text(0.5, 3.6, "Runde 2 noch verdeckt", "pl-label", "middle")
    return plot.render()


def _key_sentence(r: dict, gamma: str) -> str:
    """The sentence under the board: the first round's lead while round 2 is hidden, then the returns
    and whether the better path at this γ is also the one with more coins."""
    game_ = _rewards(r)
    p = r["path"]
    if not all(r["known"].values()):
        lead = ("stehen beide Wege gleich" if r["round1_leader"] == "gleich" else f"liegt Weg {r['round1_leader']} vorn")
        first = f"Nach Runde 1 {lead}, {exact_text(game_['A'][0])} zu {exact_text(game_['B'][0])} Münzen."
        if not r["known"][p]:
            return f"{first} Runde 2 ist noch verdeckt; ihre Münzen zählen mit γ = {gamma}."
        c1, c2 = game_[p]
        other = "B" if p == "A" else "A"
        return (f"{first} Dein Weg {p} bringt in Runde 2 {exact_text(c2)}: Return {exact_text(c1)} + {gamma} · "
                f"{exact_text(c2)} = {exact_text(Fraction(r['returns_exact'][p]))}. Runde 2 von Weg {other} ist noch verdeckt.")
    ret = {q: exact_text(Fraction(r["returns_exact"][q])) for q in "AB"}
    text = f"Bei γ = {gamma} hat Weg A den Return {ret['A']}, Weg B {ret['B']}: "
    better = r["better"]
    if better == "gleich":
        return text + "Beide Wege sind gleich gut."
    coins = {q: sum(game_[q]) for q in "AB"}
    count = f"{exact_text(coins[better])} zu {exact_text(coins['B' if better == 'A' else 'A'])}"
    if coins["A"] == coins["B"]:
        return text + f"{better} ist besser, bei gleich vielen Münzen ({count}) – seine kommen früher."
    if coins[better] == max(coins.values()):
        return text + f"{better} ist besser und bringt auch mehr Münzen ({count})."
    # fewer coins and still better: its lead lies in round 1, and γ < 1 discounts the other's round 2
    return text + f"{better} ist besser, obwohl es weniger Münzen bringt ({count}) – γ wertet Runde 2 ab."


def view(r: dict, layout: str = WIDE) -> View:
    p = r["path"]
    coins = _rewards(r)[p]
    readouts = [
        Readout("coins", "Münzen auf deinem Weg",
                f"{exact_text(coins[0])} + {exact_text(coins[1]) if r['known'][p] else '?'}"
                + (f" = {exact_text(sum(coins))}" if r["known"][p] else ""), r["coins"][p]),
        Readout("own_return", "Return deines Wegs",
                exact_text(Fraction(r["returns_exact"][p])) if r["known"][p] else "noch offen", r["own_return"], True),
        Readout("return_a", "Return A", exact_text(Fraction(r["returns_exact"]["A"])) if r["known"]["A"] else "?",
                r["returns"]["A"]),
        Readout("return_b", "Return B", exact_text(Fraction(r["returns_exact"]["B"])) if r["known"]["B"] else "?",
                r["returns"]["B"]),
        Readout("better", "Besser bei diesem γ",
                ({"gleich": "beide gleich"}.get(r["better"], f"Weg {r['better']}")
                 if all(r["known"].values()) else "noch unbekannt"), r["better"], True),
    ]
    gamma = fmt.de_auto(r["gamma"]) if r["gamma"] else "0"
    summary = _key_sentence(r, gamma)
    if r["own"]:
        game_ = _rewards(r)
        summary += (f" Eigene Münzen: A {exact_text(game_['A'][0])} und {exact_text(game_['A'][1])}, "
                    f"B {exact_text(game_['B'][0])} und {exact_text(game_['B'][1])}; "
                    + (f"Gleichstand bei γ = {exact_text(Fraction(r['tie_gamma_exact']))}"
                       + ("" if 0 <= r["tie_gamma"] <= 1 else ", außerhalb von 0 bis 1") + "."
                       if r["tie_gamma"] is not None else
                       # equal second rounds: γ weighs both paths alike, so the first round decides for every γ
                       "bei jedem γ gleich gut." if game_["A"][0] == game_["B"][0] else
                       "ein Gleichstand durch γ ist unmöglich."))
    return View(_board(r, layout), readouts, summary, _chart(r, layout))


# -- the lesson ---------------------------------------------------------------------------

GAMMA_STEP = fmt.as_fraction(PARAMS[0].step)  # the slider's grid: „the largest γ“ means the largest on it


def _both_known(result) -> bool:
    """Both paths uncovered, in the article's game (the tasks speak of its coins)."""
    return all(result["known"].values()) and not result["own"]


def _wins(path: str, gamma) -> bool:
    other = "B" if path == "A" else "A"
    return return_of(path, gamma) > return_of(other, gamma)


def _a_last(gamma) -> bool:
    return _wins("A", gamma) and not _wins("A", gamma + GAMMA_STEP)


def _b_first(gamma) -> bool:
    return gamma - GAMMA_STEP >= 0 and _wins("B", gamma) and not _wins("B", gamma - GAMMA_STEP)


def _one_step_from(found):
    """Both paths uncovered, and one slider step up or down is the γ that ``found`` asks for."""
    def check(params, result):
        gamma = Fraction(result["gamma_exact"])
        return _both_known(result) and any(found(gamma + step) for step in (-GAMMA_STEP, GAMMA_STEP))
    return check


def _last_gamma_for_a(params, result) -> bool:
    """A wins at this γ, and one slider step further it no longer does."""
    nxt = Fraction(result["gamma_exact"]) + GAMMA_STEP
    return (_both_known(result) and result["better"] == "A"
            and return_of("A", nxt) <= return_of("B", nxt))


def _first_gamma_for_b(params, result) -> bool:
    """B wins at this γ, and one slider step lower it does not."""
    before = Fraction(result["gamma_exact"]) - GAMMA_STEP
    return (_both_known(result) and result["better"] == "B" and before >= 0
            and return_of("B", before) <= return_of("A", before))


LESSON = Lesson(
    prediction=Prediction(
        question="Weg A bringt in Runde 1 zwei Münzen, Weg B keine. Runde 2 ist noch verdeckt. "
                 "Welcher Weg hat bei γ = 0,9 den größeren Return?",
        choices=("Weg A", "Weg B", "beide gleich"),
        answer=1,
        shown=lambda params, result: _both_known(result) and result["gamma_exact"] == "9/10",
        explain="Weg B bringt in Runde 2 fünf Münzen. Bei γ = 0,9 zählen sie als 4,5 "
                "und schlagen die 2 Münzen von Weg A.",
        example={"reveal": "both"},
        why_not=("Weg A liegt nach Runde 1 vorn, und Runde 2 ist noch verdeckt. Der Return zählt aber auch "
                 "Runde 2: Bei γ = 0,9 zählen die 5 Münzen von Weg B dort als 4,5.",
                 "",
                 "Gleichstand gibt es nur bei einem einzigen γ. Bei γ = 0,9 zählt Runde 2 fast voll: "
                 "4,5 Münzen für Weg B gegen 2 für Weg A."),
    ),
    tasks=(
        Task("last_for_a", "Decke beide Wege auf. Finde das größte γ, bei dem Weg A noch besser ist als Weg B.",
             solved=_last_gamma_for_a,
             explain="Bei γ = 0,35 zählen die 5 späteren Münzen nur 1,75. Bei 0,4 zieht Weg B gleich, "
                     "darüber gewinnt er: Je mehr die Zukunft zählt, desto eher lohnt sich das Warten.",
             example={"gamma": 0.35, "reveal": "both"},
             hints=("Stelle „Runde 2 aufdecken“ auf „beide Wege“ und vergleiche die beiden Returns.",
                    "Je kleiner γ, desto weniger zählen die 5 Münzen aus Runde 2. Suche die Stelle, an der Weg B "
                    "gleichzieht.",
                    "Verschiebe „Gewicht der Zukunft γ“ in kleinen Schritten um diese Stelle."),
             near=Near(_one_step_from(_a_last),
                       "Fast: Nur ein Schritt auf dem Regler trennt dich noch vom größten γ für Weg A.",
                       {"gamma": 0.3, "reveal": "both"})),
        # Not „find a γ where the leader after round 1 loses“: the prediction's own example (γ = 0,9)
        # solved that before the reader tried anything; nor the tie, which a preset shows.
        Task("first_for_b", "Finde das kleinste γ, bei dem Weg B am Ende vorn liegt, obwohl er nach Runde 1 "
                            "hinten liegt.",
             solved=_first_gamma_for_b,
             explain="Bis γ = 0,4 zählen die fünf Münzen aus Runde 2 höchstens so viel wie die 2 Münzen von Weg A. "
                     "Erst darüber gewinnt Weg B: Wer nur auf die nächste Belohnung schaut, verpasst die große.",
             example={"gamma": 0.45, "reveal": "both"},
             hints=("Weg B gewinnt, sobald die 5 späteren Münzen mehr zählen als die 2 sofortigen.",
                    "Decke beide Wege auf. Schiebe γ von unten nach oben und schaue, ab wann Weg B vorn liegt."),
             near=Near(_one_step_from(_b_first),
                       "Fast: Nur ein Schritt auf dem Regler trennt dich noch vom kleinsten γ für Weg B.",
                       {"gamma": 0.5, "reveal": "both"})),
        Task("explore", "Lass γ bei 0,9 und decke nur deinen eigenen Weg auf. Wähle den Weg mit dem größeren Return.",
             solved=lambda params, result: (result["reveal"] == "own" and result["gamma_exact"] == "9/10"
                                            and result["path"] == result["better"] and not result["own"]),
             explain="Weg B bringt 4,5. Das erfährst du aber nur, wenn du den unbekannten Weg einmal ausprobierst. "
                     "Das nennt man Erkunden.",
             example={"path": "B", "reveal": "own"},
             hints=("Mit „nur mein Weg“ siehst du nur, was dein eigener Weg gebracht hat.",
                    "Den anderen Weg lernst du nur kennen, wenn du ihn gehst. Wechsle den „Weg an der Gabelung“.")),
    ),
    discussion=(
        "Ein Agent, der nur Weg A kennt, hält ihn für gut. Wie könnte er herausfinden, dass es etwas Besseres gibt?",
        "Wo im Alltag entscheidest du zwischen „sofort etwas“ und „später mehr“? Welches γ wählst du dort?",
    ),
    teacher=(
        "Er muss auch einmal einen Weg probieren, der im Moment schlechter aussieht. Dieses Erkunden kostet "
        "kurzfristig, sonst bleibt der Agent bei der ersten brauchbaren Lösung hängen.",
        "Zum Beispiel Taschengeld sparen oder für eine Prüfung lernen. Ein großes γ heißt: Die spätere Belohnung "
        "zählt fast so viel wie eine sofortige.",
    ),
    misconceptions=(
        "„Der Agent sollte immer den Weg nehmen, der gerade am meisten bringt.“ Falsch: Weg A führt nach Runde 1, "
        "Weg B bringt insgesamt mehr, sobald γ über 0,4 liegt.",
        "„γ ist die Wahrscheinlichkeit, dass Runde 2 stattfindet.“ Nicht hier: γ ist ein Gewicht, "
        "das wir wählen, um spätere Münzen weniger zählen zu lassen.",
    ),
)
