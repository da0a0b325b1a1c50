"""IRT: the Rasch model on a small table of two agents and three tasks.

Each cell holds k successes out of ATTEMPTS = 5 attempts (CONCEPTS.md §4, P data: agent 1 = 4, 4, 0;
agent 2 = 5, 4, 3). The Rasch model says

    P(agent a solves task j) = σ(θ_a − b_j),

with a latent ability θ_a per agent and a latent difficulty b_j per task. The fit maximises the
binomial log-likelihood minus the penalty (κ/2)·(Σθ² + Σb²), κ = 0.1 by default and nothing else,
by Newton's method with step halving (pure Python, five unknowns, deterministic).

The model only sees differences θ − b: shifting every number by the same amount changes nothing.
With κ > 0 the penalty picks the shift with Σθ + Σb = 0 by itself. The fit always adds the term
½(Σθ + Σb)², which is zero at that optimum and so changes nothing for κ > 0; for κ = 0 it fixes
the same zero point, the κ → 0 limit, and keeps the Newton system solvable.

Without penalty a perfect row (or column, or an all-zero one) has no maximum: the likelihood keeps
rising as one number runs off. Newton then moves that number by a steady amount per step. The fit
stops once two numbers lie more than RUNAWAY apart (a gap no finite table can ask for: a chance of
about 1 in 10¹¹) and reports the runaway instead of raising.
"""

from __future__ import annotations

import math
from html import escape

from ..kit import fmt, svg
from ..kit.contract import Param, Preset, Readout, View
from ..kit.layout import NARROW, WIDE, width
from ..kit.lesson import Lesson, Near, Prediction, Task
from ..kit.table import Cell, table

SLUG = "irt"
TITLE = "IRT (Rasch-Modell)"
GROUP = "Lernen und Bewerten"
TEASER = "Aus einer kleinen Erfolgstabelle zweierlei schätzen: wie fähig ein Agent und wie schwer eine Aufgabe ist."

ATTEMPTS = 5
AGENTS = ("Agent 1", "Agent 2")
TASKS = ("A", "B", "C")
P_TABLE = ((4, 4, 0), (5, 4, 3))
KAPPAS = (0.1, 0.01, 0.0)
RUNAWAY = 25  # two numbers this far apart mean a chance of about 1 in 10¹¹
MAX_STEPS = 100
TOLERANCE = 1e-12
NAMES = ("θ₁", "θ₂", "b_A", "b_B", "b_C")

PARAMS = (*tuple(Param(f"k{a + 1}{t.lower()}", f"Agent {a + 1} · {t}", "int", P_TABLE[a][j], lo=0, hi=ATTEMPTS, step=1, widget="number") for a in range(2) for j, t in enumerate(TASKS)), Param("c1", "Agent 1 versucht C", "bool", True, help="Aus: Agent 1 hat Aufgabe C nie bearbeitet; die Zelle zählt dann nicht."), Param("kappa", "Strafe κ", "choice", 0.1, choices=tuple((k, "0 (keine)" if k == 0 else fmt.de_auto(k)) for k in KAPPAS), help="Zieht alle Zahlen leicht zur 0. Ohne Strafe kann eine perfekte Zeile davonlaufen."))

PRESETS = (
    Preset("Von vorn", {}, "Agent 1 schafft A und B meist, Agent 2 auch C."),
    Preset("C ausgelassen", {"c1": False},
           "Agent 1 versucht C gar nicht: gleiche Erfolgsquote, verschiedene Fähigkeit."),
    Preset("Perfekte Zeile", {"k2a": 5, "k2b": 5, "k2c": 5}, "Agent 2 löst alles, mit Strafe κ = 0,1."),
    Preset("Perfekt, ohne Strafe", {"k2a": 5, "k2b": 5, "k2c": 5, "kappa": 0.0},
           "Ohne Strafe gibt es keine beste Schätzung: θ₂ läuft davon."),
)


# -- the model ------------------------------------------------------------------------

def sigmoid(z: float) -> float:
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def _log_sigmoid(z: float) -> float:
    return -math.log1p(math.exp(-z)) if z >= 0 else z - math.log1p(math.exp(z))


def cells(table, skip=()) -> list[tuple[int, int, int]]:
    """(agent, task, successes) for every cell that counts."""
    return [(a, j, table[a][j]) for a in range(2) for j in range(3) if (a, j) not in skip]


def objective(x, data, kappa: float) -> float:
    """Negative penalised log-likelihood (without the gauge term)."""
    total = kappa * sum(v * v for v in x) / 2
    for a, j, k in data:
        z = x[a] - x[2 + j]
        total -= k * _log_sigmoid(z) + (ATTEMPTS - k) * _log_sigmoid(-z)
    return total


def _gradient_hessian(x, data, kappa):
    n = len(x)
    g = [kappa * v for v in x]
    h = [[kappa if i == j else 0.0 for j in range(n)] for i in range(n)]
    s = sum(x)  # gauge term ½(Σx)²
    for i in range(n):
        g[i] += s
        for j in range(n):
            h[i][j] += 1.0
    for a, j, k in data:
        t = 2 + j
        p = sigmoid(x[a] - x[t])
        r = ATTEMPTS * p - k  # d(−LL)/dθ_a
        w = ATTEMPTS * p * (1 - p)
        g[a] += r
        g[t] -= r
        h[a][a] += w
        h[t][t] += w
        h[a][t] -= w
        h[t][a] -= w
    return g, h


def _solve(h, g):
    """Gaussian elimination with partial pivoting for the small symmetric positive definite system."""
    n = len(g)
    m = [[*row[:], g[i]] for i, row in enumerate(h)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            for k in range(c, n + 1):
                m[r][k] -= f * m[c][k]
    out = [0.0] * n
    for r in range(n - 1, -1, -1):
        out[r] = (m[r][n] - sum(m[r][k] * out[k] for k in range(r + 1, n))) / m[r][r]
    return out


def fit(table, kappa: float = 0.1, skip=()) -> dict:
    """Penalised maximum likelihood by Newton's method. Returns the estimate, the path of every
    iterate, and whether it converged or ran away."""
    data = cells(table, skip)
    x = [0.0] * 5
    path = [x[:]]
    status, steps = "limit", MAX_STEPS
    for it in range(1, MAX_STEPS + 1):
        g, h = _gradient_hessian(x, data, kappa)
        d = _solve(h, g)
        full = objective(x, data, kappa) + sum(x) ** 2 / 2
        step = 1.0
        while step > 1e-8:
            trial = [xi - step * di for xi, di in zip(x, d)]
            if objective(trial, data, kappa) + sum(trial) ** 2 / 2 <= full + 1e-12 * (1 + abs(full)):
                break
            step /= 2
        x = [xi - step * di for xi, di in zip(x, d)]
        path.append(x[:])
        if max(abs(step * di) for di in d) < TOLERANCE:
            status, steps = "converged", it
            break
        if max(x) - min(x) > RUNAWAY:
            status, steps = "runaway", it
            break
    last = [b - a for a, b in zip(path[-2], path[-1])]
    running = []
    if status != "converged":
        # Only differences θ − b mean anything, so a common drift is no runaway: compare each last
        # step with the median one. The numbers that keep moving against the others run away; the
        # rest settle. Show every iterate with its zero point at the mean of the settling numbers.
        middle = sorted(last)[2]
        relative = [v - middle for v in last]
        running = sorted((i for i in range(5) if abs(relative[i]) > 0.25), key=lambda i: -abs(relative[i]))
        settled = [i for i in range(5) if i not in running]
        path = [[v - sum(p[i] for i in settled) / len(settled) for v in p] for p in path]
        x = path[-1]
        last = relative
    return {"x": x, "path": path, "status": status, "steps": steps, "running": running, "last_step": last}


# -- the experiment ---------------------------------------------------------------------

def _gap_text(f: dict, x) -> str:
    """θ₂ − θ₁ in German; ±∞ if exactly one ability runs away, „unbestimmt“ if both do."""
    moving = [i for i in f["running"] if i < 2]
    if not moving:
        return fmt.de(x[1] - x[0], 2)
    if len(moving) == 2:
        return "unbestimmt"
    up = f["last_step"][moving[0]] > 0
    return "∞" if (moving[0] == 1) == up else fmt.MINUS + "∞"


def compute(k1a: int = 4, k1b: int = 4, k1c: int = 0, k2a: int = 5, k2b: int = 4, k2c: int = 3,
            c1: bool = True, kappa: float = 0.1) -> dict:
    table = ((k1a, k1b, k1c), (k2a, k2b, k2c))
    skip = () if c1 else ((0, 2),)
    f = fit(table, kappa, skip)
    x = f["x"]
    running = set(f["running"])
    theta = [None if i in running else x[i] for i in range(2)]
    b = [None if 2 + j in running else x[2 + j] for j in range(3)]
    attempted = [[ATTEMPTS if (a, j) not in skip else 0 for j in range(3)] for a in range(2)]
    solved = [[table[a][j] if attempted[a][j] else 0 for j in range(3)] for a in range(2)]
    prob = [[sigmoid(x[a] - x[2 + j]) for j in range(3)] for a in range(2)]
    return {
        "table": [list(row) for row in table],
        "attempted": attempted,
        "c1": c1,
        "kappa": kappa,
        "theta": theta,
        "b": b,
        "estimate": x,  # the last iterate, also when a number runs away
        "gap": None if running & {0, 1} else x[1] - x[0],
        "gap_text": _gap_text(f, x),
        "prob": prob,
        "agent_rate": [sum(solved[a]) / sum(attempted[a]) for a in range(2)],
        "agent_solved": [sum(solved[a]) for a in range(2)],
        "agent_attempted": [sum(attempted[a]) for a in range(2)],
        "task_rate": [sum(solved[a][j] for a in range(2)) / sum(attempted[a][j] for a in range(2)) for j in range(3)],
        "status": f["status"],
        "steps": f["steps"],
        "running": [NAMES[i] for i in f["running"]],
        "running_up": [f["last_step"][i] > 0 for i in f["running"]],
        "path": f["path"],
    }


# -- display ------------------------------------------------------------------------------

X_LO, X_HI = -6.0, 6.0
TASK_CLS = ("pl-irt-a", "pl-irt-b", "pl-irt-c")


def _num(v) -> str:
    return "∞" if v is None else fmt.de(v, 2)


def _values(values, names, r) -> str:
    out = []
    for v, name in zip(values, names):
        if v is None:
            up = r["running_up"][r["running"].index(name)]
            out.append("∞" if up else fmt.MINUS + "∞")
        else:
            out.append(fmt.de(v, 2))
    return "(" + "; ".join(out) + ")"


def status_text(r: dict) -> str:
    if r["status"] == "converged":
        return f"konvergiert nach {r['steps']} Newton-Schritten"
    if r["running"]:
        first, *rest = r["running"]
        text = f"{first} {'wächst' if r['running_up'][0] else 'fällt'} ohne Grenze"
        if rest:
            text += f"; außerdem {'läuft' if len(rest) == 1 else 'laufen'} {' und '.join(rest)} davon"
        return text
    return f"nach {r['steps']} Schritten nicht zur Ruhe gekommen"


def _key_sentence(r: dict) -> str:
    """The sentence under the curves: both success rates against the abilities the model sees –
    whether the rate and the ability rank the agents alike, or the tasks tried set them apart."""
    kappa = "ohne Strafe" if r["kappa"] == 0 else f"mit Strafe κ = {fmt.de_auto(r['kappa'])}"
    solved, tried = r["agent_solved"], r["agent_attempted"]
    rates = (f"Agent 1 löst {solved[0]} von {tried[0]} Versuchen ({fmt.pct(r['agent_rate'][0], 0)}), "
             f"Agent 2 {solved[1]} von {tried[1]} ({fmt.pct(r['agent_rate'][1], 0)}).")
    if r["status"] != "converged":
        return (f"{rates} Das Rasch-Modell {kappa} findet keine beste Schätzung – {status_text(r)} "
                f"(nach {r['steps']} Newton-Schritten abgebrochen).")
    text = (f"{rates} Das Rasch-Modell {kappa} schätzt θ = {_values(r['theta'], NAMES[:2], r)} und "
            f"b = {_values(r['b'], NAMES[2:], r)}. ")
    by_rate = (solved[1] * tried[0] > solved[0] * tried[1]) - (solved[1] * tried[0] < solved[0] * tried[1])
    gap = r["gap"]
    by_model = 0 if fmt.de(abs(gap), 2) == fmt.de(0, 2) else (1 if gap > 0 else -1)  # as the readout shows it
    lead, dist = 2 if by_model > 0 else 1, fmt.de(abs(gap), 2)
    if by_rate == 0 and by_model == 0:
        return text + "Gleiche Quote, gleiche Fähigkeit."
    if by_rate == 0:
        return text + f"Gleiche Quote, doch Agent {lead} liegt um {dist} vorn: Es zählt auch, welche Aufgaben jeder versucht hat."
    better = 2 if by_rate > 0 else 1
    if by_model == 0:
        return text + f"Agent {better} hat die höhere Quote, im Modell sind aber beide gleich fähig."
    if by_model == by_rate:
        return text + f"Agent {better} hat die höhere Quote und liegt auch im Modell um {dist} vorn."
    return (text + f"Agent {better} hat die höhere Quote, im Modell liegt aber Agent {lead} um {dist} vorn: "
            "Es zählt, welche Aufgaben jeder versucht hat.")


def view(r: dict, layout: str = WIDE) -> View:
    # a narrow figure: the plot at phone width, the axis's name in two lines
    narrow = layout == NARROW
    plot = svg.Plot(width(480, layout), 340 + (18 if narrow else 0), (X_LO, X_HI), (0, 1),
                    label="Erfolgswahrscheinlichkeit nach Fähigkeit und Schwierigkeit",
                    margin=(34, 16, 64 if narrow else 46, 56), layout=layout)
    plot.grid(xticks=range(-6, 7, 2), yticks=[0, 0.2, 0.4, 0.6, 0.8, 1.0],
              xlabel=("Fähigkeit θ bzw. Schwierigkeit b", "(Logit-Skala)"), ylabel="Erfolgswahrscheinlichkeit",
              xfmt=lambda v: fmt.de(int(v)), yfmt=lambda v: fmt.de(round(100 * v)) + " %")
    est = r["estimate"]
    grid = [X_LO + (X_HI - X_LO) * i / 120 for i in range(121)]
    for j, task in enumerate(TASKS):
        bj = est[2 + j]
        plot.polyline([(x, sigmoid(x - bj)) for x in grid], f"pl-irt-icc {TASK_CLS[j]}")
        if X_LO <= bj <= X_HI:
            plot.point(bj, 0.5, 4, f"pl-irt-b-dot {TASK_CLS[j]}-fill", title=f"Schwierigkeit b_{task} = {_num(r['b'][j])}")
            plot.text(bj - 0.18, 0.5, task, f"pl-label pl-irt-task-label {TASK_CLS[j]}-text", "end", dy=-3)
    for a, agent in enumerate(AGENTS):
        th = est[a]
        inside = X_LO <= th <= X_HI
        xa = min(max(th, X_LO), X_HI)
        if inside:
            plot.line(xa, 0, xa, 1, f"pl-irt-agent pl-irt-agent{a + 1}")
        label = f"{agent}: θ = {_num(r['theta'][a])}"
        # the weaker agent's label reaches left, the stronger one's right, unless the edge is near
        anchor = "end" if th < est[1 - a] or (th == est[1 - a] and a == 0) else "start"
        if anchor == "end" and plot.px(xa) - 7 * len(label) < 0:
            anchor = "start"
        elif anchor == "start" and plot.px(xa) + 7 * len(label) > plot.w:
            anchor = "end"
        arrow = "" if inside else (" ▶" if th > X_HI else "◀ ")
        text = (arrow + label) if arrow == "◀ " else (label + arrow)
        plot.front.append(f'<text class="pl-label pl-irt-agent-label" x="{plot.px(xa) + (-6 if anchor == "end" else 6):.1f}" '
                          f'y="{14 + 16 * a}" text-anchor="{anchor}">{escape(text)}</text>')
        if not inside:
            continue
        for j in range(3):
            if not r["attempted"][a][j]:
                continue
            plot.point(xa, r["prob"][a][j], 4, f"pl-irt-fitted {TASK_CLS[j]}-stroke",
                       title=f"{agent}, Aufgabe {TASKS[j]}: Modell {fmt.pct(r['prob'][a][j], 0)}")
            observed = r["table"][a][j] / ATTEMPTS
            plot.point(xa, observed, 6, f"pl-irt-observed {TASK_CLS[j]}-fill",
                       title=f"{agent}, Aufgabe {TASKS[j]}: {r['table'][a][j]} von {ATTEMPTS} gelöst")
    plot.legend([("pl-irt-icc pl-irt-a", "Aufgabe A"), ("pl-irt-icc pl-irt-b", "Aufgabe B"),
                 ("pl-irt-icc pl-irt-c", "Aufgabe C")], corner="br")

    rates = "; ".join(f"{r['agent_solved'][a]}/{r['agent_attempted'][a]} = {fmt.pct(r['agent_rate'][a], 0)}"
                      for a in range(2))
    readouts = [
        Readout("theta", "Fähigkeit θ (Agent 1; Agent 2)", _values(r["theta"], NAMES[:2], r), r["theta"], True),
        Readout("b", "Schwierigkeit b (A; B; C)", _values(r["b"], NAMES[2:], r), r["b"], True),
        Readout("gap", "Abstand θ₂ − θ₁", r["gap_text"], r["gap"]),
        Readout("rates", "Erfolgsquote (Agent 1; Agent 2)", rates, r["agent_rate"]),
        Readout("status", "Anpassung", status_text(r), r["status"], r["status"] != "converged"),
    ]
    summary = _key_sentence(r)
    return View(plot.render(), readouts, summary, _table(r) + _path_chart(r, layout))


def _table(r: dict) -> str:
    head = [""] + [Cell(t, f"{TASK_CLS[j]}-text") for j, t in enumerate(TASKS)] + ["Quote", "θ"]
    rows = []
    for a, agent in enumerate(AGENTS):
        cells = []
        for j in range(3):
            if not r["attempted"][a][j]:
                cells.append(Cell("nicht<br>versucht", "pl-irt-skip", html=True))
            else:
                cells.append(Cell(f"{r['table'][a][j]}/{ATTEMPTS}<br><small>{fmt.pct(r['prob'][a][j], 0)}</small>",
                                  html=True))
        rows.append([agent, *cells, fmt.pct(r['agent_rate'][a], 0),
                     Cell(f"<strong>{_values([r['theta'][a]], [NAMES[a]], r)[1:-1]}</strong>", html=True)])
    rows.append(["Quote", *(fmt.pct(v, 0) for v in r["task_rate"]), "", ""])
    rows.append(["b", *(Cell(f"<strong>{_values([v], [NAMES[2 + j]], r)[1:-1]}</strong>", html=True)
                        for j, v in enumerate(r["b"])), "", ""])
    caption = f"Gelöst von {ATTEMPTS} Versuchen, darunter die Wahrscheinlichkeit im Modell; b = Schwierigkeit"
    return table(head, rows, caption=caption,
                 row_classes=[""] * len(AGENTS) + ["pl-irt-sum", ""], row_heads=True, wide=True, cls="pl-irt-table")


def _path_chart(r: dict, layout: str) -> str:
    """Every Newton iterate: flat lines when the fit settles, a rising line when a number runs away."""
    path = r["path"]
    shown = max(12, len(path) - 1)
    top = max(4.0, min(RUNAWAY + 2, max(abs(v) for x in path for v in x) + 0.5))
    plot = svg.Plot(320, 220, (0, shown), (-top, top), label="Die Schätzung Schritt für Schritt",
                    margin=(14, 14, 42, 50), layout=layout)
    step = 2 if shown <= 14 else 5
    yt = 1 if top <= 4.5 else (5 if top <= 12 else 10)
    plot.grid(xticks=range(0, shown + 1, step), yticks=[v for v in range(-int(top), int(top) + 1) if v % yt == 0],
              xlabel="Newton-Schritt", ylabel="Schätzwert", xfmt=lambda v: fmt.de(int(v)),
              yfmt=lambda v: fmt.de(int(v)))
    classes = ("pl-irt-agent1-path", "pl-irt-agent2-path", *tuple(f"{c}-path" for c in TASK_CLS))
    for i, cls in enumerate(classes):
        pts = [(k, x[i]) for k, x in enumerate(path)]
        if r["status"] == "converged":
            pts.append((shown, path[-1][i]))
        plot.polyline(pts, f"pl-irt-path {cls}")
    if r["status"] != "converged":
        plot.line(len(path) - 1, -top, len(path) - 1, top, "pl-irt-stop")
        plot.text(len(path) - 1, top, "Abbruch", "pl-tick", "end", dy=14)
    plot.legend([("pl-irt-path pl-irt-agent1-path", "θ₁"), ("pl-irt-path pl-irt-agent2-path", "θ₂")], corner="br")
    return plot.render()


# -- the lesson ---------------------------------------------------------------------------

def _agent_two_untouched(params) -> bool:
    return all(params[f"k2{t.lower()}"] == P_TABLE[1][j] for j, t in enumerate(TASKS))


def _abilities(result):
    """Both θ, or None while one of them runs off (no finite estimate to compare)."""
    theta = result["theta"]
    return None if None in theta else theta


def _one_success_apart(params, result) -> bool:
    """Same attempts, and Agent 1's successes miss Agent 2's by one: a single cell away from equal θ."""
    solved, tried = result["agent_solved"], result["agent_attempted"]
    return _agent_two_untouched(params) and tried[0] == tried[1] and abs(solved[0] - solved[1]) == 1


def _same_rate_higher_ability(params, result) -> bool:
    """Equal success rates (compared as fractions), and Agent 2 already counts as the abler one."""
    theta, solved, tried = _abilities(result), result["agent_solved"], result["agent_attempted"]
    return theta is not None and solved[0] * tried[1] == solved[1] * tried[0] and theta[1] > theta[0]


def _lower_rate_higher_ability(params, result) -> bool:
    theta, rate = _abilities(result), result["agent_rate"]
    return theta is not None and rate[1] < rate[0] and theta[1] > theta[0]


LESSON = Lesson(
    prediction=Prediction(
        question="Agent 1 lässt Aufgabe C aus. Dann haben beide Agenten eine Erfolgsquote von 80 %. "
                 "Hält das Modell sie für gleich fähig?",
        choices=("ja, gleiche Quote heißt gleiche Fähigkeit", "nein, Agent 2 gilt als fähiger",
                 "nein, Agent 1 gilt als fähiger"),
        answer=1,
        shown=lambda params, result: (not params["c1"] and params["kappa"] == 0.1
                                      and result["table"] == [list(row) for row in P_TABLE]),
        explain="Agent 2 hat seine 80 % auch mit der schweren Aufgabe C geschafft. Das Modell rechnet die "
                "Schwierigkeit heraus: θ₂ = 1,06 gegen θ₁ = 0,38.",
        example={"c1": False},
        why_not=("Die Quote teilt nur Erfolge durch Versuche. Das Modell fragt auch, wie schwer die versuchten "
                 "Aufgaben waren. Es schätzt Agent 2 auf θ₂ = 1,06, Agent 1 nur auf θ₁ = 0,38.",
                 "",
                 "Wer die schwerste Aufgabe meidet, macht weniger Fehler und wirkt sicher. Das Modell wertet aber "
                 "Erfolge an schweren Aufgaben höher: Agent 2 hat bei C 3 von 5 geschafft."),
    ),
    tasks=(
        # Agent 2 as in the table: editing Agent 2 instead makes them equal too, but the task asks for Agent 1
        Task("same_ability", "Ändere eine Zahl von Agent 1 so, dass das Modell beide Agenten gleich fähig schätzt.",
             solved=lambda params, result: (_abilities(result) is not None and _agent_two_untouched(params)
                                            and abs(result["theta"][0] - result["theta"][1]) < 1e-9),
             explain="Wenn beide dieselben Aufgaben gleich oft versuchen, zählt im Rasch-Modell nur die Summe "
                     "der Erfolge. Bei gleicher Summe ist auch die Fähigkeit gleich.",
             example={"k1c": 4},
             hints=("Zähle für jeden Agenten, wie viele Versuche er insgesamt gelöst hat.",
                    "Lass „Agent 1 versucht C“ an, damit beide dieselben Aufgaben gleich oft versuchen.",
                    "Ändere die Zahl in „Agent 1 · C“."),
             near=Near(_one_success_apart,
                       "Fast: Agent 1 liegt nur einen Erfolg neben Agent 2. Die beiden θ sind schon nah beieinander.",
                       {"k1c": 3})),
        Task("rate_misleads", "Lass Agent 1 Aufgabe C auslassen. Finde eine Tabelle, in der Agent 2 die kleinere "
                              "Erfolgsquote hat, aber trotzdem als fähiger gilt.",
             solved=_lower_rate_higher_ability,
             explain="Agent 2 hat auch die schwerste Aufgabe versucht, Agent 1 nicht. Eine niedrigere Quote an "
                     "schwereren Aufgaben kann mehr Können zeigen.",
             example={"c1": False, "k2c": 2},
             hints=("Ohne Aufgabe C zählen bei Agent 1 nur A und B. Vergleiche die Erfolgsquoten und die θ.",
                    "Nimm Agent 2 Erfolge weg, am besten bei der schweren Aufgabe C."),
             near=Near(_same_rate_higher_ability,
                       "Fast: Agent 2 gilt als fähiger, aber die Quoten sind noch gleich. "
                       "Seine Quote muss noch sinken.",
                       {"c1": False})),
        Task("runaway", "Lass Agent 2 alle Aufgaben lösen und schalte die Strafe aus. Was passiert mit θ₂?",
             solved=lambda params, result: result["status"] == "runaway",
             explain="Bei einer perfekten Zeile passt jede größere Fähigkeit noch etwas besser. "
                     "Ohne Strafe gibt es keine beste Zahl, und θ₂ läuft davon.",
             example={"k2a": 5, "k2b": 5, "k2c": 5, "kappa": 0.0},
             hints=("Eine perfekte Zeile heißt: Agent 2 löst jede Aufgabe bei jedem Versuch.",
                    "Stelle alle drei Zahlen von Agent 2 auf 5 und dann die „Strafe κ“ auf 0."),
             near=Near(lambda params, result: (result["status"] != "runaway" and params["kappa"] > 0
                                               and result["agent_solved"][1] == result["agent_attempted"][1]),
                       "Fast: Agent 2 löst schon alles. Noch hält die Strafe κ θ₂ bei einer endlichen Zahl.",
                       {"k2a": 5, "k2b": 5, "k2c": 5})),
    ),
    discussion=(
        "Warum ist die Erfolgsquote ein schlechter Vergleich, wenn nicht alle dieselben Aufgaben bearbeitet haben?",
        "Ein Agent löst jede Aufgabe eines Tests. Was weißt du dann über seine Fähigkeit, und was nicht?",
        "Das Modell sieht nur den Abstand zwischen Fähigkeit und Schwierigkeit. Was bedeutet dann eine Fähigkeit "
        "von 0?",
    ),
    teacher=(
        "Die Quote mischt Können und Schwierigkeit. Wer nur leichte Aufgaben wählt, hat eine hohe Quote. "
        "Das Rasch-Modell schätzt beides getrennt und macht die Agenten so vergleichbar.",
        "Man weiß nur, dass er über allen Aufgaben liegt, aber nicht, wie weit. "
        "Erst schwerere Aufgaben, die er manchmal nicht schafft, zeigen eine obere Grenze.",
        "Für sich allein nichts. Man kann alle Fähigkeiten und Schwierigkeiten um dieselbe Zahl verschieben, "
        "ohne dass sich eine Wahrscheinlichkeit ändert. Erst der Vergleich mit anderen Zahlen hat eine Bedeutung.",
    ),
    misconceptions=(
        "„θ ist eine Erfolgsquote in Prozent.“ Falsch: θ ist eine Zahl auf einer eigenen Skala. "
        "Erst zusammen mit der Schwierigkeit b ergibt sich eine Wahrscheinlichkeit.",
        "„Alles gelöst heißt unendlich fähig.“ Falsch: Die Daten geben nur keine obere Grenze her. "
        "Die Strafe κ hält die Schätzung deshalb endlich.",
    ),
)
