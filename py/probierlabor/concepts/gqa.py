"""Grouped-Query Attention: H query heads in G groups share G sets of keys and values.

Ainslie et al., GQA, §2.2: with H query heads and G groups there are G K/V sets ("GQA-G");
G = 1 is multi-query attention (MQA), G = H is ordinary multi-head attention (MHA). Every
query head still computes its own attention weights; only K and V are shared in a group.

The memory of the KV cache (CONCEPTS.md §23; the formula was lost from the article and is
reconstructed there):

    bytes = 2 · batch · layers · tokens · kv_heads · head_dim · bytes_per_number

The first 2 stands for K and V. The article's case: batch 1, 32 layers, 1024 tokens, head
dimension 128, 2 bytes per number: 128 MiB with 8 K/V heads (MHA), 32 MiB with 2, 16 MiB
with 1 (MQA); 1 MiB = 2²⁰ bytes. All arithmetic is in integers; MiB are exact fractions.

G must divide H (equal groups). A G that does not is replaced by the nearest divisor of H
(ties go down), and the figure and the summary say so; a G larger than H becomes H.
"""

from __future__ import annotations

import textwrap
from fractions import Fraction
from html import escape

from ..kit import fmt, svg
from ..kit.contract import Param, Preset, Readout, View
from ..kit.layout import NARROW, WIDE, width
from ..kit.lesson import Lesson, Near, Prediction, Task
from ..kit.table import table

SLUG = "gqa"
TITLE = "Grouped-Query Attention (GQA)"
GROUP = "Attention und Architektur"
TEASER = "Query-Köpfe in Gruppen teilen sich Keys und Values – und der KV-Cache schrumpft um genau diesen Faktor."

PARAMS = (
    Param("groups", "Gruppen G (= K/V-Köpfe)", "int", 2, lo=1, hi=64, step=1,
          help="G muss H teilen, damit alle Gruppen gleich groß sind."),
    Param("heads", "Query-Köpfe H", "int", 8, lo=1, hi=64, step=1),
    Param("batch", "Batchgröße", "int", 1, lo=1, hi=1024, step=1, widget="number",
          help="Wie viele Texte gleichzeitig im Cache liegen."),
    Param("layers", "Schichten", "int", 32, lo=1, hi=512, step=1, widget="number"),
    Param("tokens", "Gespeicherte Tokens", "int", 1024, lo=1, hi=10_000_000, step=1, widget="number"),
    Param("head_dim", "Dimension je K/V-Kopf", "int", 128, lo=1, hi=1024, step=1, widget="number"),
    Param("bytes_per", "Byte pro Zahl", "int", 2, lo=1, hi=8, step=1, widget="number",
          help="2 für 16-Bit-Zahlen, 1 für 8 Bit, 4 für 32 Bit."),
)

PRESETS = (
    Preset("MHA (G = 8)", {"groups": 8}, "Jeder der 8 Köpfe hat eigene Keys und Values."),
    Preset("GQA, 2 Gruppen", {}, "8 Köpfe in 2 Gruppen zu je 4: zwei K/V-Köpfe."),
    Preset("GQA, 4 Gruppen", {"groups": 4}, "8 Köpfe in 4 Gruppen zu je 2."),
    Preset("MQA (G = 1)", {"groups": 1}, "Alle 8 Köpfe teilen einen K/V-Kopf."),
    Preset("G = 3 geht nicht", {"groups": 3}, "3 teilt 8 nicht – was passiert?"),
)


def divisors(n: int) -> list[int]:
    return [d for d in range(1, n + 1) if n % d == 0]


def valid_groups(groups: int, heads: int) -> tuple[int, str | None]:
    """The group count actually used, and a German note if it differs from the one asked for."""
    if groups > heads:
        return heads, (f"G = {groups} ist mehr als H = {heads}: Jede Gruppe braucht mindestens einen "
                       f"Query-Kopf. Gerechnet wird mit G = {heads} (MHA).")
    if heads % groups == 0:
        return groups, None
    best = min(divisors(heads), key=lambda d: (abs(d - groups), d))
    return best, (f"G = {groups} teilt H = {heads} nicht: {heads} Köpfe lassen sich nicht in {groups} "
                  f"gleich große Gruppen aufteilen. Gerechnet wird mit dem nächsten Teiler G = {best}.")


def kv_bytes(kv_heads: int, batch: int = 1, layers: int = 32, tokens: int = 1024, head_dim: int = 128,
             bytes_per: int = 2) -> int:
    """Bytes of the K and V entries alone (no weights, buffers, alignment or replication)."""
    return 2 * batch * layers * tokens * kv_heads * head_dim * bytes_per


def compute(groups: int = 2, heads: int = 8, batch: int = 1, layers: int = 32, tokens: int = 1024,
            head_dim: int = 128, bytes_per: int = 2) -> dict:
    used, note = valid_groups(groups, heads)
    factors = {"batch": batch, "layers": layers, "tokens": tokens, "head_dim": head_dim, "bytes_per": bytes_per}
    sizes = {"gqa": kv_bytes(used, **factors), "mha": kv_bytes(heads, **factors), "mqa": kv_bytes(1, **factors)}
    return {
        "groups_asked": groups,
        "groups": used,
        "heads": heads,
        "heads_per_group": heads // used,
        "kv_sets": used,
        "note": note,
        "assignment": [h // (heads // used) for h in range(heads)],  # query head → its group
        **factors,
        "bytes": sizes["gqa"],
        "bytes_mha": sizes["mha"],
        "bytes_mqa": sizes["mqa"],
        "mib": Fraction(sizes["gqa"], fmt.MIB),
        "mib_mha": Fraction(sizes["mha"], fmt.MIB),
        "mib_mqa": Fraction(sizes["mqa"], fmt.MIB),
        "mib_exact": str(Fraction(sizes["gqa"], fmt.MIB)),
        "factor_vs_mha": heads // used,
    }


# -- text -------------------------------------------------------------------------------

def mib_text(n_bytes: int) -> str:
    """Exact MiB where short (128 MiB, 31,25 MiB), else rounded with ≈; large ones also in GiB."""
    text = fmt.size(n_bytes, "MiB")
    return text + f" ({fmt.size(n_bytes, 'GiB')})" if n_bytes >= fmt.GIB else text




COLOURS = 6


def _key_sentence(r: dict) -> str:
    """The sentence under the figure: how the heads are grouped and where that puts the cache between
    MHA (G = H) and MQA (G = 1) – the trade the page is about."""
    heads, groups, per = r["heads"], r["groups"], r["heads_per_group"]
    cache, mha, mqa = mib_text(r["bytes"]), mib_text(r["bytes_mha"]), mib_text(r["bytes_mqa"])
    if heads == 1:
        text = f"Mit einem Query-Kopf sind MHA, GQA und MQA dasselbe: ein K/V-Kopf, der KV-Cache hat {cache}."
    elif groups == heads:
        text = (f"Mit G = H = {heads} hat jeder Query-Kopf seinen eigenen K/V-Kopf: Das ist MHA, der KV-Cache "
                f"bleibt bei {cache}. MQA bräuchte nur {mqa}.")
    elif groups == 1:
        text = (f"Mit G = 1 teilen sich alle {heads} Query-Köpfe einen K/V-Kopf: Das ist MQA. Der KV-Cache "
                f"schrumpft von {mha} (MHA) auf {cache}, {fmt.de(r['factor_vs_mha'])}-mal kleiner.")
    else:
        text = (f"{heads} Query-Köpfe teilen sich in {groups} Gruppen zu je {per}, also {groups} K/V-Köpfe statt "
                f"{heads}. Der KV-Cache braucht {cache}, zwischen den Extremen: MHA bräuchte das "
                f"{fmt.de(r['factor_vs_mha'])}-Fache ({mha}), MQA nur {mqa}.")
    return (r["note"] + " " if r["note"] else "") + text


def view(r: dict, layout: str = WIDE) -> View:
    narrow = layout == NARROW
    w = width(500, layout)
    note_lines = textwrap.wrap(r["note"], 74 if not narrow else 46) if r["note"] else []
    # a narrow figure writes the explanations of the two rows on lines of their own
    explain = 18 if narrow else 0
    top = 14 + 16 * len(note_lines) + explain
    heads, groups = r["heads"], r["groups"]
    left, right = 16, w - 16
    slot = (right - left) / heads
    gap = min(4.0, slot * 0.2)
    parts = []
    for k, line in enumerate(note_lines):
        parts.append(svg.text(left, 14 + 16 * k, line, "pl-label pl-gqa-note"))
    y_q, y_kv = top + 26, top + 118
    box_h = 28
    q_title, q_text = f"Query-Köpfe (H = {heads})", "jeder rechnet eigene Gewichte"
    kv_title, kv_text = f"K/V-Köpfe (G = {groups})", "je Gruppe einer"
    if narrow:
        parts.append(svg.text(left, y_q - 8 - explain, q_title, "pl-axis"))
        parts.append(svg.text(left, y_q - 8, q_text, "pl-tick"))
        parts.append(svg.text(left, y_kv + box_h + 20, kv_title, "pl-axis"))
        parts.append(svg.text(left, y_kv + box_h + 20 + explain, kv_text, "pl-tick"))
    else:
        parts.append(svg.text(left, y_q - 8, f"{q_title} – {q_text}", "pl-axis"))
        parts.append(svg.text(left, y_kv + box_h + 20, f"{kv_title} – {kv_text}", "pl-axis"))
    per = r["heads_per_group"]
    # connections first, boxes on top
    for q, g in enumerate(r["assignment"]):
        xq = left + slot * (q + 0.5)
        xg = left + slot * per * (g + 0.5)
        parts.append(f'<line class="pl-gqa-link pl-gqa-c{g % COLOURS}" x1="{xq:.1f}" y1="{y_q + box_h}" '
                     f'x2="{xg:.1f}" y2="{y_kv}"/>')
    for q, g in enumerate(r["assignment"]):
        x = left + slot * q + gap / 2
        parts.append(f'<rect class="pl-gqa-q pl-gqa-c{g % COLOURS}" x="{x:.1f}" y="{y_q}" '
                     f'width="{slot - gap:.1f}" height="{box_h}" rx="3"><title>Query-Kopf {q + 1}, Gruppe {g + 1}'
                     f'</title></rect>')
        if slot >= (30 if narrow and q >= 9 else 24):  # "Q10" needs more room at 12 px
            parts.append(svg.text(x + (slot - gap) / 2, y_q + 19, f"Q{q + 1}", "pl-tick pl-gqa-in", "middle"))
    for g in range(groups):
        x = left + slot * per * g + gap / 2
        width_g = slot * per - gap
        parts.append(f'<rect class="pl-gqa-kv pl-gqa-c{g % COLOURS}" x="{x:.1f}" y="{y_kv}" width="{width_g:.1f}" '
                     f'height="{box_h}" rx="3"><title>K/V-Kopf {g + 1} für die Köpfe '
                     f'{g * per + 1} bis {(g + 1) * per}</title></rect>')
        if width_g >= 40:
            parts.append(svg.text(x + width_g / 2, y_kv + 19, f"K/V {g + 1}", "pl-tick pl-gqa-in", "middle"))
    # the cache bars: MHA, chosen, MQA; on a narrow figure each label stands above its bar
    y_bars = y_kv + box_h + 62 + explain
    parts.append(svg.text(left, y_bars, "KV-Cache (nur K und V)", "pl-axis"))
    rows = (("mha", f"MHA (G = {heads})", r["bytes_mha"]), ("gqa", f"gewählt (G = {groups})", r["bytes"]),
            ("mqa", "MQA (G = 1)", r["bytes_mqa"]))
    longest = max(len(mib_text(n)) for _, _, n in rows)
    label_w = 0 if narrow else 150
    row_h = 42 if narrow else 26
    bar_max = right - left - label_w - 7.5 * longest - 8  # leave room for the value behind the longest bar
    for k, (key, label, n_bytes) in enumerate(rows):
        y = y_bars + 12 + row_h * k + (16 if narrow else 0)
        bar_w = bar_max * n_bytes / r["bytes_mha"]
        current = " pl-gqa-current" if key == "gqa" else ""
        parts.append(svg.text(left, y - 4 if narrow else y + 14, label, "pl-label" + current))
        parts.append(f'<rect class="pl-gqa-bar{current}" x="{left + label_w}" y="{y}" width="{max(bar_w, 1.5):.1f}" '
                     f'height="18"/>')
        parts.append(svg.text(left + label_w + bar_w + 6, y + 14, mib_text(n_bytes), "pl-label" + current))
    h = y_bars + 12 + row_h * 3 + 16 if narrow else top + 318
    figure = svg.figure(w, h, parts, label=f"{heads} Query-Köpfe in {groups} Gruppen, {groups} K/V-Köpfe",
                        layout=layout)

    readouts = [
        Readout("kv_sets", "K/V-Köpfe je Schicht", fmt.de(r["kv_sets"]), r["kv_sets"], True),
        Readout("heads_per_group", "Query-Köpfe je Gruppe", fmt.de(r["heads_per_group"]), r["heads_per_group"]),
        Readout("cache", "KV-Cache", mib_text(r["bytes"]), r["bytes"], True),
        Readout("cache_mha", "zum Vergleich MHA (G = H)", mib_text(r["bytes_mha"]), r["bytes_mha"]),
        Readout("cache_mqa", "zum Vergleich MQA (G = 1)", mib_text(r["bytes_mqa"]), r["bytes_mqa"]),
        Readout("factor", "gegenüber MHA", "gleich groß" if r["factor_vs_mha"] == 1 else
                f"{fmt.de(r['factor_vs_mha'])}-mal kleiner", r["factor_vs_mha"]),
    ]
    summary = _key_sentence(r)
    return View(figure, readouts, summary, _table(r))




def _table(r: dict) -> str:
    factors = " × ".join(fmt.de(v) for v in (r["batch"], r["layers"], r["tokens"]))
    tail = " × ".join(fmt.de(v) for v in (r["head_dim"], r["bytes_per"]))
    rows = [(label, fmt.de(kv), fmt.de(n_bytes), mib_text(n_bytes))
            for label, kv, n_bytes in (("MHA", r["heads"], r["bytes_mha"]), ("gewählt", r["groups"], r["bytes"]),
                                       ("MQA", 1, r["bytes_mqa"]))]
    note = f'<p class="pl-attn-note">{escape(r["note"])}</p>' if r["note"] else ""
    caption = f"Byte = 2 × {factors} × K/V-Köpfe × {tail}; 1 MiB = 2²⁰ Byte"
    return note + table(("", "K/V-Köpfe", "Byte", "MiB"), rows, caption=caption, highlight=1,
                        row_heads=True, numeric=True, wide=True)


# -- the lesson ----------------------------------------------------------------------------

DEFAULTS = {p.name: p.default for p in PARAMS}
LONG_TEXT = 4 * DEFAULTS["tokens"]
# 256 MiB: the largest G within it is 4, not the default 2, so typing the long text alone solves nothing
BUDGET = 256 * fmt.MIB


def _as_example_except(result, **changed) -> bool:
    """The page's standard example with only ``changed`` set differently (and a G that divides H)."""
    return result["note"] is None and all(result[k] == v for k, v in {**DEFAULTS, **changed}.items())


def _largest_g_within_budget(params, result) -> bool:
    if not _as_example_except(result, tokens=LONG_TEXT, groups=result["groups"]) or result["bytes"] > BUDGET:
        return False
    factors = {k: result[k] for k in ("batch", "layers", "tokens", "head_dim", "bytes_per")}
    return all(kv_bytes(g, **factors) > BUDGET for g in divisors(result["heads"]) if g > result["groups"])


def _one_divisor_beside_the_largest_g(params, result) -> bool:
    """The long text as asked, and G is the divisor of H just above or just below the answer."""
    if not _as_example_except(result, tokens=LONG_TEXT, groups=result["groups"]):
        return False
    factors = {k: result[k] for k in ("batch", "layers", "tokens", "head_dim", "bytes_per")}
    options = divisors(result["heads"])
    best = max(g for g in options if kv_bytes(g, **factors) <= BUDGET)
    return abs(options.index(result["groups"]) - options.index(best)) == 1


_SWAP = compute(groups=1, tokens=2 * DEFAULTS["tokens"])
_LONG = compute(groups=4, tokens=LONG_TEXT)

LESSON = Lesson(
    prediction=Prediction(
        question=f"Im Beispiel braucht der Cache {mib_text(compute()['bytes'])}. Du verdoppelst die Tokens auf "
                 f"{fmt.de(2 * DEFAULTS['tokens'])} und gehst von {DEFAULTS['groups']} Gruppen auf 1. Wie groß wird er?",
        choices=tuple(mib_text(b) for b in (_SWAP["bytes"] // 2, _SWAP["bytes"], 2 * _SWAP["bytes"])),
        answer=1,
        shown=lambda params, result: _as_example_except(result, groups=1, tokens=2 * DEFAULTS["tokens"]),
        explain="Doppelt so viele Tokens verdoppeln den Cache, halb so viele K/V-Köpfe halbieren ihn. "
                "Beides zusammen hebt sich auf.",
        example={"tokens": 2 * DEFAULTS["tokens"], "groups": 1},
        why_not=(f"Der Schritt von {DEFAULTS['groups']} Gruppen auf 1 halbiert den Cache, das stimmt. "
                 "Doppelt so viele Tokens verdoppeln ihn aber wieder.",
                 "",
                 "Doppelt so viele Tokens verdoppeln den Cache, das stimmt. "
                 f"Nur noch ein K/V-Kopf statt {DEFAULTS['groups']} halbiert ihn aber wieder."),
    ),
    tasks=(
        Task("long_text", f"Stelle {fmt.de(LONG_TEXT)} gespeicherte Tokens ein. Finde die größte Gruppenzahl G, "
                          f"bei der der Cache höchstens {mib_text(BUDGET)} braucht.",
             solved=_largest_g_within_budget,
             explain=f"Viermal so viele Tokens brauchen viermal so viel Speicher. Mit G = {_LONG['groups']} "
                     f"bleibst du bei {mib_text(_LONG['bytes'])}, MHA bräuchte {mib_text(_LONG['bytes_mha'])}.",
             example={"tokens": LONG_TEXT, "groups": 4},
             hints=("Schau, wie der Cache mit den Tokens wächst: viermal so viele Tokens, viermal so viel Speicher.",
                    "Jede Gruppe hat einen eigenen K/V-Kopf. Mehr Gruppen kosten mehr Speicher.",
                    f"Stelle „Gespeicherte Tokens“ auf {fmt.de(LONG_TEXT)} und erhöhe „Gruppen G (= K/V-Köpfe)“, "
                    f"solange der Cache in {mib_text(BUDGET)} passt."),
             near=Near(_one_divisor_beside_the_largest_g,
                       "Fast: Du liegst nur einen Teiler von H neben der gesuchten Gruppenzahl.",
                       {"tokens": LONG_TEXT, "groups": 2})),
        Task("third", "Stelle H = 12 ein. Finde die Gruppenzahl, bei der der Cache ein Drittel von MHA braucht.",
             solved=lambda params, result: (result["heads"] == 12 and result["note"] is None
                                            and result["factor_vs_mha"] == 3),
             explain="Der Cache schrumpft um den Faktor H/G. 12 Köpfe in 4 Gruppen zu je 3 brauchen "
                     "nur 4 statt 12 K/V-Köpfe.",
             example={"heads": 12, "groups": 4},
             hints=("Schaue auf die Zeile „gegenüber MHA“.",
                    "MHA speichert H K/V-Köpfe, GQA nur G. Der Cache schrumpft also um den Faktor H/G.",
                    "Stelle „Query-Köpfe H“ auf 12 und probiere die Gruppenzahlen, die 12 teilen."),
             near=Near(lambda params, result: (result["heads"] == 12 and result["note"] is None
                                               and result["factor_vs_mha"] in (2, 4)),
                       "Fast: Der Cache braucht schon die Hälfte oder ein Viertel von MHA. "
                       "Die Antwort liegt direkt dazwischen.",
                       {"heads": 12, "groups": 3})),
    ),
    discussion=(
        "Warum sparen die Entwickler eines Modells gerade beim KV-Cache und nicht bei den Query-Köpfen?",
        "Ein Chat-Dienst bedient viele Nutzer gleichzeitig mit langen Gesprächen. Welche Zahlen der Formel "
        "wachsen dabei, und was hilft GQA?",
    ),
    teacher=(
        "Der KV-Cache wächst mit jedem Token und jedem Text im Batch und muss bei jedem Schritt gelesen werden. "
        "Die Queries werden nur für das aktuelle Token gebraucht und nicht aufgehoben.",
        "Batchgröße und Tokens wachsen. GQA teilt den Cache durch H/G, sodass mehr Gespräche "
        "oder längere Texte in denselben Speicher passen.",
    ),
    misconceptions=(
        "„Mit weniger K/V-Köpfen wird der Kontext kürzer.“ – Nein, es werden genauso viele Tokens "
        "gespeichert, nur in weniger K/V-Köpfen.",
        "„GQA hat weniger Query-Köpfe.“ – Nein, alle H Query-Köpfe bleiben; sie teilen sich nur Keys und Values.",
    ),
)
