"""Continual learning: a tiny real classifier learns Reklamationen after Lieferung and Rücksendungen.

The article's results table is lost (CONCEPTS.md D5) and was invented anyway. Here the numbers are
measured, on a model small enough to train in the browser:

* messages: ``continual_learning_messages.py`` (written for this site): 30 training messages per department,
  held-out tests of 100 old messages (50 Lieferung, 50 Rücksendungen) and 100 Reklamationen;
* features: which words occur (lower case, letters only; a bias feature); vocabulary = the words of all
  training messages, other words are ignored;
* model: softmax regression with three outputs (one per department), weights start at 0;
* old task: mini-batch SGD (batches of 10, learning rate 0.5) for 30 epochs on the 60 old messages,
  order shuffled by ``random.Random(ORDER_SEED)``; the Reklamationen output never gets an example;
* new task, from that model, the same SGD for up to 30 epochs on the 30 Reklamationen:
  - „ohne Schutz“: only the Reklamationen;
  - „mit Wiederholungen“: plus ``keep`` stored old messages (20 in the article), drawn from the 60 old
    training messages by ``random.Random(seed).sample``;
  - „EWC“: only the Reklamationen, plus the penalty (λ/2)·Σ F_i (w_i − w*_i)² around the old weights w*,
    F = the diagonal Fisher information on the old training messages. For a softmax it is exact and
    closed: F[c][j] = mean over messages of x_j · p_c (1 − p_c). The penalty is applied after each batch
    as a proximal step w ← (w + a·w*)/(1 + a), a = learning rate · λ · F, which is stable for every λ;
* tests after every epoch: the department with the highest score (class-incremental); with the task hint
  the choice is restricted to the departments of the message's task (task-incremental, van de Ven and
  Tolias §2): Lieferung/Rücksendungen for old messages, Reklamationen for new ones.

Everything is deterministic: the same seeds give the same numbers in CPython and in Pyodide.
A trajectory (all epochs of one variant) is trained once and cached; moving the epoch slider or the
hint switch only reads it.
"""

from __future__ import annotations

import math
import random
import re
from functools import cache, lru_cache

from ..kit import fmt, svg
from ..kit.contract import Param, Preset, Readout, View
from ..kit.layout import NARROW, WIDE, width
from ..kit.lesson import Lesson, Near, Prediction, Task
from ..kit.table import table
from . import continual_learning_messages as cm
from .continual_learning_trajectories import TRAJECTORIES

SLUG = "continual-learning"
TITLE = "Continual Learning"
GROUP = "Lernen und Bewerten"
TEASER = "Ein kleines Modell lernt Reklamationen dazu – und ein getrennter Test zeigt, was es dabei vergisst."

DEPARTMENTS = (cm.DELIVERY, cm.RETURN, cm.COMPLAINT)
OLD, NEW = (0, 1), (2,)
LEARNING_RATE = 0.5
BATCH = 10
OLD_EPOCHS = 30
MAX_EPOCHS = 30
ORDER_SEED = 1           # shuffles the old task's batches
NEW_ORDER_SEED = 2       # shuffles the new task's batches (the same for every variant)
DEFAULT_SEED = 3         # which old messages are kept
DEFAULT_KEEP = 20
DEFAULT_EPOCHS = 20
DEFAULT_LAM = 100

VARIANTS = (("none", "ohne Schutz"), ("replay", "mit Wiederholungen"), ("ewc", "EWC"))
KEEPS = ((5, "5"), (10, "10"), (20, "20"), (40, "40"), (60, "alle 60"))
LAMS = ((1, "1"), (10, "10"), (30, "30"), (100, "100"), (300, "300"), (1000, "1000"))

PARAMS = (
    Param("epochs", "Epochen mit Reklamationen", "int", DEFAULT_EPOCHS, lo=0, hi=MAX_EPOCHS, step=1,
          help="Wie oft das Modell die neuen Beispiele durchgeht (0 = vor dem Update)."),
    Param("variant", "Training", "choice", "replay", choices=VARIANTS,
          help="Wie das Training auf die alten Abteilungen Rücksicht nimmt."),
    Param("keep", "Aufbewahrte alte Nachrichten", "choice", DEFAULT_KEEP, choices=KEEPS,
          help="Gilt für „mit Wiederholungen“; im Beispiel 20 von 60."),
    Param("lam", "Stärke λ (EWC)", "choice", DEFAULT_LAM, choices=LAMS, widget="select",
          help="Gilt für „EWC“: wie fest die alten Gewichte gehalten werden."),
    Param("hint", "Hinweis auf die Aufgabe", "bool", False,
          help="Der Test verrät, ob eine Nachricht alt oder neu ist; das Modell wählt nur unter deren Abteilungen."),
    Param("seed", "Andere Stichprobe aufbewahren", "seed", DEFAULT_SEED,
          help="Zieht andere alte Nachrichten."),
)

PRESETS = (
    Preset("Vor dem Update", {"epochs": 0}, "Das Modell nach der alten Aufgabe."),
    Preset("Nur Reklamationen", {"variant": "none"}, "Weitertrainieren ohne Schutz."),
    Preset("Mit 20 gespeicherten", {"variant": "replay"}, "20 alte Nachrichten werden beigemischt."),
    Preset("EWC", {"variant": "ewc"}, "Wichtige Gewichte werden festgehalten."),
    Preset("Mit Hinweis", {"variant": "none", "hint": True}, "Der Test verrät die Aufgabe."),
)


# -- data ---------------------------------------------------------------------------

def words(text: str) -> list[str]:
    return sorted(set(re.findall(r"[a-zäöüß]+", text.lower())))


@cache
def _data():
    vocab: dict[str, int] = {}
    for dep in DEPARTMENTS:
        for text in cm.TRAIN[dep]:
            for w in words(text):
                vocab.setdefault(w, len(vocab))
    bias = len(vocab)

    def features(text):
        return tuple([vocab[w] for w in words(text) if w in vocab] + [bias])

    train = {c: tuple((features(t), c) for t in cm.TRAIN[dep]) for c, dep in enumerate(DEPARTMENTS)}
    test = {c: tuple((features(t), c) for t in cm.TEST[dep]) for c, dep in enumerate(DEPARTMENTS)}
    return vocab, train, test


def size() -> int:
    """Number of weights per department (vocabulary + bias)."""
    return len(_data()[0]) + 1


def old_training() -> tuple:
    _, train, _ = _data()
    return train[0] + train[1]


def stored_sample(keep: int, seed: int) -> tuple:
    """The old training messages that were kept before the archive was deleted."""
    pool = old_training()
    if keep >= len(pool):
        return pool
    return tuple(pool[i] for i in sorted(random.Random(seed).sample(range(len(pool)), keep)))


# -- the model ------------------------------------------------------------------------

def _softmax(scores):
    top = max(scores)
    e = [math.exp(s - top) for s in scores]
    z = sum(e)
    return [v / z for v in e]


def _epoch(W, data, rng, prox=None):
    """One pass of mini-batch SGD on the mean cross-entropy; ``prox`` applies the EWC penalty.
    Written out for three outputs: this loop runs some 10 000 times per trajectory in the browser."""
    exp = math.exp
    W0, W1, W2 = W
    g0, g1, g2 = W0.__getitem__, W1.__getitem__, W2.__getitem__
    order = list(data)
    rng.shuffle(order)
    for start in range(0, len(order), BATCH):
        batch = order[start:start + BATCH]
        step = LEARNING_RATE / len(batch)
        updates = []
        for x, y in batch:  # all probabilities from the weights at the start of the batch
            s0, s1, s2 = sum(map(g0, x)), sum(map(g1, x)), sum(map(g2, x))
            top = max(s0, s1, s2)
            e0, e1, e2 = exp(s0 - top), exp(s1 - top), exp(s2 - top)
            z = step / (e0 + e1 + e2)
            d0, d1, d2 = e0 * z, e1 * z, e2 * z  # step · p_c
            if y == 0:
                d0 -= step
            elif y == 1:
                d1 -= step
            else:
                d2 -= step
            updates.append((x, d0, d1, d2))
        for x, d0, d1, d2 in updates:
            for j in x:
                W0[j] -= d0
                W1[j] -= d1
                W2[j] -= d2
        if prox:  # per department: w ← w·keep + pull, in place (keep = 1, pull = 0 where F = 0)
            for Wc, keep, pull in zip(W, *prox):
                Wc[:] = [w * k + q for w, k, q in zip(Wc, keep, pull)]


@cache
def old_model() -> tuple[tuple[float, ...], ...]:
    """The weights after the old task (Lieferung, Rücksendungen)."""
    W = [[0.0] * size() for _ in range(3)]
    rng = random.Random(ORDER_SEED)
    data = old_training()
    for _ in range(OLD_EPOCHS):
        _epoch(W, data, rng)
    return tuple(tuple(row) for row in W)


@cache
def fisher() -> tuple[tuple[float, ...], ...]:
    """Diagonal Fisher information of the old model on the old training messages (exact for softmax)."""
    W = old_model()
    F = [[0.0] * size() for _ in range(3)]
    data = old_training()
    for x, _ in data:
        p = _softmax([sum(Wc[j] for j in x) for Wc in W])
        for c in range(3):
            v = p[c] * (1 - p[c]) / len(data)
            for j in x:
                F[c][j] += v
    return tuple(tuple(row) for row in F)


def _evaluate(W) -> tuple[int, ...]:
    """Correct answers (Lieferung, Rücksendungen, Reklamationen) without and with the task hint,
    then the number of old test messages answered with Reklamationen (without hint)."""
    _, _, test = _data()
    g0, g1, g2 = (Wc.__getitem__ for Wc in W)
    plain, hinted = [0, 0, 0], [0, 0, 0]
    old_as_new = 0
    for c in range(3):
        right = hint_right = 0
        for x, _ in test[c]:
            s0, s1, s2 = sum(map(g0, x)), sum(map(g1, x)), sum(map(g2, x))
            # the highest score wins; a tie goes to the earlier department (as max() would)
            best = 0 if s0 >= s1 and s0 >= s2 else (1 if s1 >= s2 else 2)
            right += best == c
            old_as_new += c != 2 and best == 2
            if c == 2:
                hint_right += 1  # the hint leaves a new message only one department
            else:
                hint_right += (0 if s0 >= s1 else 1) == c
        plain[c], hinted[c] = right, hint_right
    return tuple(plain + hinted + [old_as_new])


def proximal_factors(lam: float) -> tuple[list[list[float]], list[list[float]]]:
    """The EWC penalty step w ← (w + a·w*)/(1 + a) = w·keep + pull with a = learning rate · λ · F,
    the exact minimiser of (λ/2)·F·(w − w*)² + (w − v)²/(2·learning rate) around the weights v after a batch."""
    F, old = fisher(), old_model()
    keep, pull = [], []
    for Fc, oc in zip(F, old):
        a = [LEARNING_RATE * lam * f for f in Fc]
        keep.append([1 / (1 + ai) for ai in a])
        pull.append([ai * o / (1 + ai) for ai, o in zip(a, oc)])
    return keep, pull


@lru_cache(maxsize=64)
def trajectory(variant: str, lam: float = DEFAULT_LAM, keep: int = DEFAULT_KEEP, seed: int = DEFAULT_SEED):
    """Test results after 0, 1, …, MAX_EPOCHS epochs of the new task; each entry from ``_evaluate``.
    Everything the page offers without a new stored sample was trained once by
    tools/train_continual_learning.py (tests/concepts/test_continual_learning.py retrains and compares),
    so opening the page trains nothing; a new sample is trained here, once, and cached."""
    stored = TRAJECTORIES.get((variant, float(lam), keep, seed))
    return stored if stored is not None else train(variant, lam, keep, seed)


def train(variant: str, lam: float = DEFAULT_LAM, keep: int = DEFAULT_KEEP, seed: int = DEFAULT_SEED):
    """Train one variant on the new task from the old model, testing after every epoch."""
    _, train, _ = _data()
    W = [list(row) for row in old_model()]
    data = train[2]
    prox = None
    if variant == "replay":
        data = data + stored_sample(keep, seed)
    elif variant == "ewc":
        prox = proximal_factors(lam)
    rng = random.Random(NEW_ORDER_SEED)
    results = [_evaluate(W)]
    for _ in range(MAX_EPOCHS):
        _epoch(W, data, rng, prox)
        results.append(_evaluate(W))
    return tuple(results)


def table_keys() -> list[tuple]:
    """The trajectories that are stored: everything reachable without drawing a new sample."""
    keys = [_key("none", DEFAULT_LAM, DEFAULT_KEEP, DEFAULT_SEED)]
    keys += [_key("ewc", lam, DEFAULT_KEEP, DEFAULT_SEED) for lam, _ in LAMS]
    keys += [_key("replay", DEFAULT_LAM, keep, DEFAULT_SEED) for keep, _ in KEEPS]
    return keys


def _key(variant: str, lam, keep: int, seed: int):
    """Cache key: parameters a variant does not use must not cause a retraining."""
    if variant == "replay":
        return (variant, float(DEFAULT_LAM), keep, DEFAULT_SEED if keep >= 60 else seed)
    if variant == "ewc":
        return (variant, float(lam), DEFAULT_KEEP, DEFAULT_SEED)
    return (variant, float(DEFAULT_LAM), DEFAULT_KEEP, DEFAULT_SEED)


def _scores(entry, hint: bool) -> dict:
    delivery, returns, new = entry[3:6] if hint else entry[:3]
    return {"old": delivery + returns, "delivery": delivery, "returns": returns, "new": new,
            "old_as_new": 0 if hint else entry[6]}


def compute(epochs: int = DEFAULT_EPOCHS, variant: str = "replay", keep: int = DEFAULT_KEEP,
            lam: float = DEFAULT_LAM, hint: bool = False, seed: int = DEFAULT_SEED) -> dict:
    _, train, test = _data()
    n_old, n_new = len(test[0]) + len(test[1]), len(test[2])
    rows = {v: trajectory(*_key(v, lam, keep, seed)) for v, _ in VARIANTS}
    chosen = rows[variant]
    stored = stored_sample(keep, seed)
    return {
        "epochs": epochs,
        "variant": variant,
        "keep": keep,
        "lam": lam,
        "hint": hint,
        "seed": seed,
        "n_old": n_old,
        "n_new": n_new,
        "n_per_old": len(test[0]),
        "before": _scores(chosen[0], hint),
        "now": _scores(chosen[epochs], hint),
        "curve": [_scores(e, hint) for e in chosen],
        "none_curve_old": [_scores(e, hint)["old"] for e in rows["none"]],
        "table": {v: _scores(rows[v][epochs], hint) for v, _ in VARIANTS},
        "stored": {"delivery": sum(1 for _, y in stored if y == 0), "returns": sum(1 for _, y in stored if y == 1)},
        "train_new": len(train[2]),
        "train_old": len(train[0]) + len(train[1]),
        "vocabulary": size() - 1,
    }


@lru_cache(maxsize=8)
def sample_study(samples: int = 51, keep: int = DEFAULT_KEEP, epochs: int = DEFAULT_EPOCHS, first_seed: int = 1) -> dict:
    """How much the result of „mit Wiederholungen“ depends on which old messages were kept."""
    olds = sorted(_scores(trajectory("replay", DEFAULT_LAM, keep, s)[epochs], False)["old"]
                  for s in range(first_seed, first_seed + samples))
    return {"samples": samples, "min_old": olds[0], "max_old": olds[-1], "median_old": olds[len(olds) // 2]}


# -- what the page shows --------------------------------------------------------------

def _of(n: int, total: int) -> str:
    return f"{n}/{total}"


def view(r: dict, layout: str = WIDE) -> View:
    # a narrow figure: the plot at phone width, its legend in two rows above it
    narrow = layout == NARROW
    n_old, n_new, epochs = r["n_old"], r["n_new"], r["epochs"]
    label = dict(VARIANTS)[r["variant"]]
    plot = svg.Plot(width(480, layout), 320 + (18 if narrow else 0), (0, MAX_EPOCHS), (0, 100),
                    margin=(52 if narrow else 34, 14, 46, 56), layout=layout,
                    label=f"Treffer in beiden Tests während des Trainings ({label})")
    plot.grid(xticks=range(0, MAX_EPOCHS + 1, 5), yticks=range(0, 101, 25),
              xlabel="Epochen mit Reklamationen", ylabel="richtig (von 100)")
    curve = r["curve"]
    xs = range(len(curve))
    if r["variant"] != "none":
        plot.polyline([(x, 100 * v / n_old) for x, v in zip(xs, r["none_curve_old"])], "pl-cl-ref")
    plot.polyline([(x, 100 * e["new"] / n_new) for x, e in zip(xs, curve)], "pl-cl-new")
    plot.polyline([(x, 100 * e["old"] / n_old) for x, e in zip(xs, curve)], "pl-cl-old")
    plot.line(epochs, 0, epochs, 100, "pl-cl-now")
    now = r["now"]
    for key, n, cls, text in (("old", n_old, "pl-cl-old-dot", "alte Nachrichten"),
                              ("new", n_new, "pl-cl-new-dot", "Reklamationen")):
        plot.point(epochs, 100 * now[key] / n, 6, cls, title=f"{text}: {now[key]} von {n} richtig")
    # the legend goes above the plot: the curves can be anywhere inside it
    legend = [("pl-cl-old", "alte Nachrichten"), ("pl-cl-new", "Reklamationen")]
    if r["variant"] != "none":
        legend.append(("pl-cl-ref", "alte, ohne Schutz"))
    rows = [legend[:2], legend[2:]] if narrow else [legend]
    for k, entries in enumerate(rows):
        plot.front.append(svg.key_row(entries, 12, 20 + 18 * k, w=26, gap=6, space=20,
                                      lines=[cls for cls, _ in entries]))

    readouts = [
        Readout("old", f"Alte Nachrichten richtig (von {n_old})", _of(now["old"], n_old), now["old"], True),
        Readout("new", f"Reklamationen richtig (von {n_new})", _of(now["new"], n_new), now["new"], True),
        Readout("delivery", "davon Lieferung", _of(now["delivery"], r["n_per_old"]), now["delivery"]),
        Readout("returns", "davon Rücksendungen", _of(now["returns"], r["n_per_old"]), now["returns"]),
        Readout("before", "Alte Nachrichten vor dem Update", _of(r["before"]["old"], n_old), r["before"]["old"]),
    ]
    s = r["stored"]  # always shown, so that the set of readouts never changes
    readouts.append(Readout("stored", "Aufbewahrt (für Wiederholungen)",
                            f"{s['delivery']} Lieferung + {s['returns']} Rücksendungen", s["delivery"] + s["returns"]))
    kept = "alle 60 alten Nachrichten aufbewahrt" if r["keep"] >= 60 else f"{r['keep']} aufbewahrte Nachrichten"
    detail = {"none": "", "replay": f" ({kept})", "ewc": f" (λ = {fmt.de(r['lam'])})"}
    summary, answer = _key_sentence(r, label, detail)
    # the table has what training without protection leaves of the old messages
    return View(plot.render(), readouts, summary, _table(r), answer=answer, extra_answers=True)


def _key_sentence(r: dict, label: str, detail: dict) -> tuple[str, str]:
    """The sentence under the curves: both tests now against the old messages before the update; and
    apart from it, for a protection, what it keeps of the old and costs of the new compared with none,
    and the other ways of training: they tell what training without protection leaves, the lesson's guess."""
    now, before, epochs = r["now"], r["before"]["old"], r["epochs"]
    n_old, n_new = r["n_old"], r["n_new"]
    hint = " und mit Hinweis auf die Aufgabe" if r["hint"] else ""
    if epochs == 0:
        return (f"Vor dem Update{hint} erkennt das Modell {now['old']} von {n_old} alten Nachrichten, aber "
                f"{now['new']} von {n_new} Reklamationen: Diese Abteilung wurde noch nicht trainiert."), ""
    how = "Mit EWC" if r["variant"] == "ewc" else label[0].upper() + label[1:]
    text = (f"{how}{detail[r['variant']]}{hint} erkennt das Modell nach {epochs} "
            f"{'Epoche' if epochs == 1 else 'Epochen'} {now['old']} von {n_old} alten Nachrichten (vorher {before}) "
            f"und {now['new']} von {n_new} Reklamationen.")
    answer = ""
    if r["variant"] == "none":
        lost = before - now["old"]
        text += (" Das Neue verdrängt das Alte." if 2 * lost > before else
                 f" {fmt.count(lost, 'alte Nachricht geht', 'alte Nachrichten gehen')} verloren." if lost > 0 else " Das Alte bleibt erhalten.")
    else:
        bare = r["table"]["none"]
        kept, cost = now["old"] - bare["old"], bare["new"] - now["new"]
        if kept <= 0:
            answer = "Gegenüber ohne Schutz rettet das keine alte Nachricht."
        else:
            answer = (f"Der Schutz rettet {fmt.count(kept, 'alte Nachricht', 'alte Nachrichten')}"
                     + (f", kostet aber {fmt.count(cost, 'Reklamation', 'Reklamationen')}." if cost > 0
                        else " und kostet keine Reklamation."))
    # The table compares all three ways of training; a screen reader hears that comparison too, so
    # a change to λ or to the number kept is audible whichever way is shown.
    others = [f"{name}{detail[v]} {r['table'][v]['old']}" for v, name in VARIANTS if v != r["variant"]]
    return text, f"{answer} Alte Nachrichten zum Vergleich: {others[0]}, {others[1]}.".lstrip()


def _table(r: dict) -> str:
    n_old, n_new, per = r["n_old"], r["n_new"], r["n_per_old"]
    names = {"none": "nur Reklamationen",
             "replay": f"Reklamationen + {r['keep']} aufbewahrte",
             "ewc": f"EWC, λ = {fmt.de(r['lam'])}"}
    rows = [("before", "vor dem Update", r["before"])] + [(v, names[v], r["table"][v]) for v, _ in VARIANTS]
    cells = [(name, _of(s["old"], n_old), _of(s["delivery"], per), _of(s["returns"], per), _of(s["new"], n_new))
             for _, name, s in rows]
    current = [i for i, (key, _, _) in enumerate(rows) if key == r["variant"] and r["epochs"]]
    hint = "mit Hinweis auf die Aufgabe" if r["hint"] else "ohne Hinweis"
    return table(("Training", "alte Nachrichten", "Lieferung", "Rücksendungen", "Reklamationen"), cells,
                 caption=f'Gemessen nach {r["epochs"]} {"Epoche" if r["epochs"] == 1 else "Epochen"}, {hint}',
                 highlight=current, row_heads=True)


# -- the lesson ---------------------------------------------------------------------------

def _measured(variant: str, least_epochs: int):
    """The state of a finished run of ``variant``, measured without the task hint."""
    return lambda params, result: (result["variant"] == variant and not result["hint"]
                                   and result["epochs"] >= least_epochs)


LESSON = Lesson(
    prediction=Prediction(
        question="Das Modell lernt 20 Epochen lang nur Reklamationen dazu, ganz ohne Schutz. Eine Epoche ist ein "
                 "Durchgang durch alle Trainingsbeispiele. Vorher erkannte es 86 von "
                 "100 alten Nachrichten. Wie viele sind es danach?",
        choices=("noch etwa 80", "etwa die Hälfte", "weniger als 10"),
        answer=2,
        shown=lambda params, result: _measured("none", 20)(params, result) and result["epochs"] == 20,
        explain="Nur 6 von 100 bleiben richtig. 94 alte Nachrichten hält das Modell jetzt für Reklamationen, "
                "weil es lange nur diese gesehen hat.",
        example={"variant": "none"},
        why_not=("Wer Neues lernt, vergisst doch nicht gleich alles, denkt man. Ohne Schutz schiebt aber jede Epoche "
                 "die Gewichte weiter zu den Reklamationen hin.",
                 "Die Hälfte klingt nach einem Ausgleich zwischen Alt und Neu. Das Modell sucht aber keinen "
                 "Ausgleich: Es sieht 20 Epochen lang nur Reklamationen und hält bald fast alles dafür.",
                 ""),
    ),
    tasks=(
        Task("ewc_balance", "Finde mit EWC ein λ, bei dem alte Nachrichten und Reklamationen beide mindestens "
                            "70 von 100 richtig sind.",
             solved=lambda params, result: (_measured("ewc", 1)(params, result)
                                            and result["now"]["old"] >= 70 and result["now"]["new"] >= 70),
             explain="Ein mittleres λ hält die wichtigen alten Gewichte fest und lässt dem Neuen doch Platz. "
                     "Ist λ zu groß, lernt das Modell kaum Reklamationen; ist es zu klein, vergisst es das Alte.",
             example={"variant": "ewc", "lam": 30},
             hints=("Stelle „Training“ auf EWC. Die „Stärke λ (EWC)“ legt fest, wie fest die alten Gewichte "
                    "gehalten werden.",
                    "Bei großem λ lernt das Modell kaum Reklamationen, bei kleinem vergisst es das Alte. "
                    "Probiere die Werte dazwischen."),
             near=Near(lambda params, result: (_measured("ewc", 1)(params, result)
                                               and min(result["now"]["old"], result["now"]["new"]) >= 60),
                       "Fast: Alte Nachrichten und Reklamationen stimmen schon beide mindestens 60-mal von 100. "
                       "Es fehlt nur noch wenig.",
                       {"variant": "ewc", "lam": 30, "epochs": 8})),
        Task("hint_reveals", "Trainiere ohne Schutz und schalte den Hinweis auf die Aufgabe ein. "
                             "Wie viele alte Nachrichten stimmen jetzt?",
             solved=lambda params, result: (result["variant"] == "none" and result["hint"]
                                            and result["epochs"] >= 10 and result["now"]["old"] >= 80),
             explain="Mit Hinweis stimmen über 80 alte Nachrichten. Das Modell kann Lieferung und Rücksendungen "
                     "noch trennen. Ohne Hinweis landen die meisten davon fälschlich bei den Reklamationen.",
             example={"variant": "none", "hint": True},
             hints=("Stelle „Training“ auf „ohne Schutz“ und schalte „Hinweis auf die Aufgabe“ ein.",
                    "Lass mindestens 10 „Epochen mit Reklamationen“ laufen und lies dann die alten Nachrichten ab."),
             near=Near(lambda params, result: (result["variant"] == "none" and result["hint"]
                                               and result["epochs"] < 10),
                       "Fast: Der Hinweis ist an. Aber das Modell hat erst wenige Epochen lang Reklamationen gelernt.",
                       {"variant": "none", "hint": True, "epochs": 5})),
        Task("replay_more", "Finde mit Wiederholungen nach mindestens 20 Epochen eine Einstellung, bei der "
                            "mindestens 70 alte Nachrichten richtig bleiben.",
             solved=lambda params, result: _measured("replay", 20)(params, result) and result["now"]["old"] >= 70,
             explain="Dafür braucht es sehr viele aufbewahrte Nachrichten. "
                     "Die 86 von vorher erreicht das Modell trotzdem nicht.",
             example={"keep": 60},
             hints=("Stelle „Training“ auf „mit Wiederholungen“ und lass mindestens 20 Epochen laufen.",
                    "Je mehr alte Nachrichten aufbewahrt werden, desto mehr bleibt vom Alten. "
                    "Erhöhe „Aufbewahrte alte Nachrichten“."),
             near=Near(lambda params, result: (_measured("replay", 20)(params, result)
                                               and 60 <= result["now"]["old"] < 70),
                       "Fast: Schon mindestens 60 alte Nachrichten bleiben richtig. Noch ein paar mehr.",
                       {"keep": 40})),
    ),
    discussion=(
        "Warum ist es so wichtig, die alten Abteilungen mit einem getrennten Test zu prüfen und nicht nur die neue?",
        "Mit Hinweis auf die Aufgabe sieht das Vergessen viel kleiner aus. Welche Zahl ist für einen echten "
        "Kundendienst die ehrlichere?",
        "Wiederholungen brauchen Speicher für alte Nachrichten, EWC nicht. Wann würdest du welches Verfahren wählen?",
    ),
    teacher=(
        "Beim Training mit Reklamationen sieht man nur, dass die neue Aufgabe klappt. "
        "Das Vergessen zeigt sich erst, wenn man auch die alten Abteilungen misst.",
        "Ohne Hinweis: Im echten Betrieb sagt niemand dem Modell, ob eine Nachricht zu den alten oder zur neuen "
        "Aufgabe gehört. Es muss unter allen drei Abteilungen wählen.",
        "Wenn alte Daten aufbewahrt werden dürfen und Platz da ist, sind Wiederholungen einfach. Wenn alte Daten "
        "gelöscht werden müssen, etwa aus Datenschutzgründen, bleibt EWC.",
    ),
    misconceptions=(
        "„Das Modell hat das Alte komplett gelöscht.“ Nicht ganz: Mit Hinweis trennt es Lieferung und "
        "Rücksendungen noch gut. Verloren ist vor allem die Grenze zur neuen Abteilung.",
        "„Ein größeres λ ist immer besser.“ Falsch: Bei λ = 1000 bleiben die alten Nachrichten gut, "
        "aber Reklamationen werden kaum gelernt.",
    ),
)
