"""Tokenization with byte-level BPE: the site's own tokenizer, merge by merge, on the reader's text.

The tokenizer is the one the site's trained model reads (``engine/bpe.py``, ``model/weights/tokenizer.json``:
768 merges, vocabulary 1 024; Sennrich, Haddow, Birch 2016 after Gage 1994, byte-level as in GPT-2 (Radford
et al. 2019)), read
once per interpreter by kit/site_tokenizer.py from the page's Python zip: no numpy, no download of its own.

With only the first k merges a text encodes as the full tokenizer's encoding stopped before its first merge
of rank k or later (``ByteBPE.merge_steps``: the ranks an encoding applies only grow). So one pass over
the text gives every state of the step slider and the whole curve „tokens over merges“, and all of it
is counting: exact integers, the bytes per token an exact fraction.
"""

from __future__ import annotations

from fractions import Fraction

from ..kit import fmt, svg
from ..kit.contract import Param, Preset, Readout, View
from ..kit.layout import WIDE, width
from ..kit.lesson import Lesson, Near, Prediction, Task
from ..kit.site_tokenizer import TOKENIZER

SLUG = "tokenisierung"
TITLE = "Tokenisierung"
GROUP = "Grundlagen"
TEASER = "Wie ein Sprachmodell Text in Tokens zerlegt – Merge für Merge, an deinem eigenen Text."

MERGES = len(TOKENIZER.merges)
BYTES = 256  # the first ids are the bytes themselves
VOCAB = TOKENIZER.vocab_size
LONGEST = 60  # characters of an own text: at 0 merges an emoji alone is four chips

ROWS = {
    "haus": "Haus",
    "strasse": "Straßenbahnhaltestelle",
    "schaltflaeche": "Klicke auf die Schaltfläche.",
    "emoji": "Ich 😀 dich",
    "katze": "Die Katze sitzt auf der Straße.",
}
ROW_CHOICES = tuple((key, f"„{text}“") for key, text in ROWS.items())

PARAMS = (
    Param("merges", "Merges", "int", MERGES, lo=0, hi=MERGES, step=1,
          help=f"Wie viele der gelernten Merges der Tokenizer benutzt. 0: nur Bytes. {MERGES}: der "
               "fertige Tokenizer des Modells dieser Website."),
    Param("row", "Text", "choice", "haus", choices=ROW_CHOICES, widget="select",
          help="Ein Beispieltext. Ein eigener Text darunter ersetzt ihn."),
    Param("text", "Eigener Text", "text", "", count=(1, LONGEST), allowed=str.isprintable,
          widget="z. B. Guten Morgen",
          help=f"Bis zu {LONGEST} Zeichen, jedes Zeichen geht, auch Emojis. Ein Leerzeichen am Anfang zählt mit. "
               "Leer: der Beispieltext oben."),
)

PRESETS = (
    Preset("Haus", {}, "Ein kurzes, häufiges Wort."),
    Preset("Straßenbahnhaltestelle", {"row": "strasse"}, "Ein langes, seltenes Wort zerfällt in viele Stücke."),
    Preset("Nur Bytes (0 Merges)", {"row": "strasse", "merges": 0}, "Ohne Merges ist jedes Byte ein Token."),
    Preset("Nach 100 Merges", {"row": "strasse", "merges": 100}, "Die häufigsten Paare sind schon verschmolzen."),
    Preset("Häufiges Wort", {"row": "schaltflaeche"}, "„␣Schaltfläche“ samt Leerzeichen ist ein Token."),
    Preset("Emoji", {"row": "emoji"}, "Ein Emoji mitten im Satz: ein einziges Zeichen."),
)


# -- the computation ---------------------------------------------------------------------------

def trace(text: str) -> list[tuple[str, list[tuple[int, list[int]]]]]:
    """Each chunk of ``text`` with the encoding's steps: (rank, ids after the merge)."""
    return [(chunk, list(TOKENIZER.merge_steps(chunk))) for chunk in TOKENIZER.chunks(text)]


def ids_after(chunk: str, steps, k: int) -> list[int]:
    """The chunk's ids with the first ``k`` merges: after its last step of rank below k."""
    ids = list(chunk.encode("utf-8"))
    for rank, after in steps:
        if rank >= k:
            break
        ids = after
    return ids


def counts(traced, n_bytes: int) -> list[int]:
    """The text's number of tokens for every k = 0 … MERGES: each step of rank r saves tokens from k = r + 1 on."""
    saved = [0] * (MERGES + 1)
    for chunk, steps in traced:
        before = len(chunk.encode("utf-8"))
        for rank, after in steps:
            saved[rank + 1] += before - len(after)
            before = len(after)
    out, total = [], n_bytes
    for s in saved:
        total -= s
        out.append(total)
    return out


def shown(token_id: int) -> str:
    """A token as the chips show it (kit/fmt.token): the leading space as ␣, a byte that is no whole
    character as ‹F0›."""
    return fmt.token(TOKENIZER.token_text(token_id))


def _merge_info(rank: int | None) -> dict | None:
    if rank is None:
        return None
    a, b = TOKENIZER.merges[rank]
    return {"number": rank + 1, "id": BYTES + rank, "left": shown(a), "right": shown(b), "token": shown(BYTES + rank)}


def compute(merges: int = MERGES, row: str = "haus", text: str = "") -> dict:
    own = bool(text)
    text = text or ROWS[row]
    n_bytes = len(text.encode("utf-8"))
    traced = trace(text)
    ids, chunk_of = [], []
    for c, (chunk, steps) in enumerate(traced):
        here = ids_after(chunk, steps, merges)
        ids += here
        chunk_of += [c] * len(here)
    tokens = [shown(i) for i in ids]
    applied = sorted({rank for _, steps in traced for rank, _ in steps})
    done = [r for r in applied if r < merges]
    curve = counts(traced, n_bytes)
    full = curve[MERGES]
    # the smallest k at which the text needs at most half its bytes as tokens (None: never)
    half = next((k for k, n in enumerate(curve) if 2 * n <= n_bytes), None)
    return {
        "text": text,
        "own": own,
        "row": "eigen" if own else row,
        "merges": merges,
        "vocab": BYTES + merges,
        "chars": len(text),
        "bytes": n_bytes,
        "ids": ids,
        "tokens": tokens,
        "chunk_of": chunk_of,
        "chunks": [chunk for chunk, _ in traced],
        "count": len(ids),
        "count_full": full,
        "bytes_per_token": str(Fraction(n_bytes, len(ids))),
        "curve": curve,
        "half": half,
        # tokens that are single bytes of a longer character (a byte ≥ 0x80 alone)
        "byte_pieces": sum("‹" in t for t in tokens),
        "wide_chars": [ch for ch in dict.fromkeys(text) if len(ch.encode("utf-8")) == 4],
        "last": _merge_info(done[-1] if done else None),
        "next": _merge_info(next((r for r in applied if r >= merges), None)),
        "steps_here": len(done),
        "steps_all": len(applied),
    }


# -- what the page shows --------------------------------------------------------------------------

def _quoted(text: str) -> str:
    return f"„{text}“"


def _key_sentence(r: dict) -> str:
    """The sentence under the figure: how many tokens at this k, which merge acted last or comes next, what that says."""
    lead = "Eigener Text: " if r["own"] else ""
    n, k = r["count"], r["merges"]
    size = (f"{_quoted(r['text'])} hat {fmt.count(r['chars'], 'Zeichen', 'Zeichen')} und "
            f"{fmt.count(r['bytes'], 'Byte', 'Bytes')}.")
    if k == 0:
        state = f"Ohne Merges ist jedes Byte ein Token: {fmt.count(n, 'Token', 'Tokens')}."
    else:
        state = (f"Mit {fmt.de(k)} Merges (Vokabular {fmt.de(r['vocab'])}) sind es "
                 f"{fmt.count(n, 'Token', 'Tokens')}, {fmt.exact(Fraction(r['bytes_per_token']), 2, 1)} Bytes pro Token.")
    last, coming = r["last"], r["next"]
    if last and coming:
        step = (f"Zuletzt griff hier Merge {fmt.de(last['number'])}: {last['left']} + {last['right']} → "
                f"{last['token']}; als Nächstes Merge {fmt.de(coming['number'])}.")
    elif coming:
        step = (f"Der erste Merge, der hier greift, ist Nr. {fmt.de(coming['number'])}: "
                f"{coming['left']} + {coming['right']} → {coming['token']}.")
    elif last:
        step = (f"Kein weiterer Merge greift: Der letzte war Nr. {fmt.de(last['number'])}, "
                f"{last['left']} + {last['right']} → {last['token']}.")
    else:
        step = "Kein einziger Merge passt auf diesen Text."
    if r["byte_pieces"]:
        step += (f" {fmt.count(r['byte_pieces'], 'Token ist', 'Tokens sind')} nur ein Byte eines Zeichens (‹…›): "
                 "Kein Zeichen ist unbekannt, es kostet dann eben mehrere Tokens.")
    return f"{lead}{size} {state} {step}"


CHIP_H, ROW_H, FONT, GAP, CHUNK_GAP = 32, 54, 18, 5, 12


def _chips(r: dict, w: float, layout: str) -> tuple[float, str]:
    """The tokens as chips in rows, each with its id below; a gap between chunks, the newest merge marked."""
    newest = r["last"]["id"] if r["last"] else None
    parts, x, y, left = [], 8.0, 34.0, 8.0
    parts.append(svg.text(left, 20, f"{fmt.count(r['count'], 'Token', 'Tokens')} bei {fmt.de(r['merges'])} Merges",
                          "pl-tok-head"))
    for i, (tid, label) in enumerate(zip(r["ids"], r["tokens"])):
        chip_w = max(30.0, svg.text_width(label, FONT) + 12)
        if i and r["chunk_of"][i] != r["chunk_of"][i - 1]:
            x += CHUNK_GAP
        if x + chip_w > w - 8 and x > left:
            x, y = left, y + ROW_H
        raw = " ".join(f"{b:02X}" for b in TOKENIZER.token_bytes(tid))
        cls = "pl-tok-chip" + (" pl-tok-byte" if "‹" in label or tid < BYTES else "") + \
              (" pl-tok-new" if tid == newest else "")
        parts.append(svg.rect(x, y, chip_w, CHIP_H, cls, rx=4, title=f"Token {tid}: {label} (Bytes {raw})"))
        parts.append(svg.text(x + chip_w / 2, y + 22, label, "pl-tok-text", "middle"))
        parts.append(svg.text(x + chip_w / 2, y + CHIP_H + 15, str(tid), "pl-tok-id", "middle"))
        x += chip_w + GAP
    return y + ROW_H, "".join(parts)


def _curve(r: dict, layout: str) -> str:
    """Tokens of the text over the number of merges: a staircase down from the bytes, the slider's k marked."""
    curve = r["curve"]
    plot = svg.Plot(width(400, layout), 260, (0, MERGES), (0, max(r["bytes"], 1) * 1.08),
                    label="Tokens des Textes über der Zahl der Merges", margin=(14, 16, 44 if layout == WIDE else 62, 46), layout=layout)
    ticks = [0, 256, 512, MERGES]
    step = max(1, -(-r["bytes"] // 5))
    plot.grid(xticks=ticks, yticks=list(range(0, r["bytes"] + 1, step)),
              xlabel=("Merges", f"(Vokabular 256 + Merges, bis {fmt.de(VOCAB)})"), ylabel="Tokens")
    plot.hline(r["chars"], "pl-tok-chars")
    points, last = [(0, curve[0])], curve[0]
    for k, n in enumerate(curve):
        if n != last:
            points += [(k, last), (k, n)]
            last = n
    points.append((MERGES, last))
    plot.polyline(points, "pl-tok-curve")
    plot.line(r["merges"], 0, r["merges"], r["bytes"] * 1.08, "pl-tok-now")
    plot.point(r["merges"], r["count"], 5, "pl-tok-dot")
    plot.text(MERGES, r["chars"], f"{fmt.count(r['chars'], 'Zeichen', 'Zeichen')}", "pl-tok-note", "end", dy=-4)
    return plot.render()


def view(r: dict, layout: str = WIDE) -> View:
    w = width(680, layout)
    h, body = _chips(r, w, layout)
    label = f"Die Tokens von {_quoted(r['text'])} bei {fmt.de(r['merges'])} Merges: " + " | ".join(r["tokens"])
    figure = svg.figure(w, h, body, label=label, cls="pl-tok", layout=layout)
    readouts = [
        Readout("count", "Tokens", fmt.de(r["count"]), r["count"], True),
        Readout("bytes", "Zeichen / Bytes", f"{fmt.de(r['chars'])} / {fmt.de(r['bytes'])}", r["bytes"]),
        Readout("bytes_per_token", "Bytes pro Token", fmt.exact(Fraction(r["bytes_per_token"]), 2, 2, fraction=True),
                float(Fraction(r["bytes_per_token"])), True),
        Readout("vocab", "Vokabular", f"{fmt.de(r['vocab'])} (256 Bytes + {fmt.de(r['merges'])} Merges)", r["vocab"]),
        Readout("count_full", f"Tokens mit allen {fmt.de(MERGES)} Merges", fmt.de(r["count_full"]), r["count_full"]),
    ]
    return View(figure, readouts, _key_sentence(r), _curve(r, layout))


# -- the lesson ----------------------------------------------------------------------------------

LONG_WORD = 8  # letters of a word the finished tokenizer reads as one token
MANY = 6  # tokens a word costs that falls apart
FEW = 15  # tokens of „Straßenbahnhaltestelle“: reached at a merge no preset names, not by the last one
# the words of the sample texts: the page shows them, so a task that asks for a word wants another one
SAMPLE_WORDS = frozenset(word for text in ROWS.values()
                         for word in "".join(ch if ch.isalpha() else " " for ch in text).lower().split())


def _full(result) -> bool:
    return result["merges"] == MERGES


def _one_word(result) -> bool:
    """An own text that is one word, perhaps with its leading space (one chunk)."""
    return result["own"] and len(result["chunks"]) == 1 and result["text"].strip().isalpha()


def _letters(result) -> int:
    return sum(ch.isalpha() for ch in result["text"])


def _new_word(result) -> bool:
    """An own text that is one word, and not one of the sample texts' words."""
    return _one_word(result) and result["text"].strip().lower() not in SAMPLE_WORDS


def _few_from(result) -> int | None:
    """The smallest number of merges at which the text needs at most FEW tokens."""
    return next((k for k, n in enumerate(result["curve"]) if n <= FEW), None)


def _strasse(result) -> bool:
    return not result["own"] and result["row"] == "strasse"


_STRASSE = compute(row="strasse")

LESSON = Lesson(
    prediction=Prediction(
        question="Das Emoji „😀“ ist ein einziges Zeichen. Wie viele Tokens kostet es beim fertigen Tokenizer dieser Website?",
        choices=("1 – ein Zeichen, ein Token", "2", "4 – eins pro Byte"),
        answer=2,
        shown=lambda params, result: "😀" in result["text"] and _full(result),
        explain="„😀“ ist in UTF-8 vier Bytes lang. Im Training kam es nie oft genug vor, also hat kein Merge die "
                "vier Bytes verschmolzen.",
        example={"row": "emoji"},
        why_not=("Ein Token je Zeichen gibt es nur für häufige Zeichen. Dieses Emoji hat keinen eigenen Eintrag.",
                 "Zwei Tokens hießen: Merges hätten die vier Bytes zu zwei Stücken verschmolzen. Dafür war es "
                 "im Training zu selten.",
                 ""),
    ),
    tasks=(
        Task("one", f"Finde ein Wort mit mindestens {LONG_WORD} Buchstaben, das der fertige Tokenizer als ein "
                    "einziges Token liest – ein anderes als „Schaltfläche“.",
             solved=lambda params, result: _new_word(result) and _full(result) and result["count"] == 1
             and _letters(result) >= LONG_WORD,
             explain="Häufige Wörter der Trainingstexte werden ganz verschmolzen, samt dem Leerzeichen davor.",
             example={"text": " Datenbank"},
             hints=("Die Trainingstexte enthalten viele Hilfeseiten von Programmen.",
                    "Ein Wort mitten im Satz beginnt mit einem Leerzeichen. Tippe das Leerzeichen mit.",
                    "Denke an Wörter, die in der Hilfe eines Büroprogramms auf fast jeder Seite stehen. Tippe "
                    "ein Leerzeichen davor."),
             near=Near(lambda params, result: _new_word(result) and _full(result) and result["count"] <= 4
                       and result["count"] > 1 and _letters(result) >= LONG_WORD,
                       "Fast: nur noch wenige Stücke. Versuche es mit einem Leerzeichen vor dem Wort.",
                       {"text": "Datenbank"})),
        Task("apart", f"Finde ein eigenes Wort, das in keinem Beispieltext steht und beim fertigen Tokenizer in "
                      f"mindestens {MANY} Tokens zerfällt.",
             solved=lambda params, result: _new_word(result) and _full(result) and result["count"] >= MANY,
             explain="Seltene Wörter kennt das Vokabular nicht am Stück. Sie zerfallen in häufige Teile.",
             example={"text": "Eichhörnchen"},
             hints=("Lange, seltene Wörter zerfallen eher.",
                    "Zusammengesetzte Wörter mit ß oder Umlauten sind gute Kandidaten.",
                    "Nimm ein Wort, das in der Hilfe eines Büroprogramms kaum vorkommt, etwa einen Tiernamen."),
             near=Near(lambda params, result: _new_word(result) and _full(result) and 4 <= result["count"] < MANY,
                       "Fast: schon vier Stücke oder mehr. Nimm ein noch längeres, selteneres Wort.",
                       {"text": "Fahrrad"})),
        Task("few", f"Wähle „Straßenbahnhaltestelle“ und finde die kleinste Zahl von Merges, bei der das Wort "
                    f"höchstens {FEW} Tokens braucht.",
             solved=lambda params, result: _strasse(result) and result["merges"] == _few_from(result),
             explain="Jeder Merge verschmilzt ein Paar. Die ersten Merges sind die häufigsten Paare der "
                     "Trainingstexte, etwa „en“ und „er“. Sie sparen am meisten.",
             example={"row": "strasse", "merges": _few_from(_STRASSE)},
             hints=(f"Das Wort hat {fmt.de(_STRASSE['bytes'])} Bytes, ohne Merges also {fmt.de(_STRASSE['bytes'])} "
                    "Tokens.",
                    "Schiebe den Regler „Merges“ und schaue auf die Treppe im unteren Bild.",
                    f"Gehe mit den Pfeiltasten zurück, bis es mehr als {FEW} Tokens sind, und dann einen Schritt vor."),
             near=Near(lambda params, result: _strasse(result) and result["merges"] > (_few_from(result) or MERGES),
                       f"Schon höchstens {FEW} Tokens. Geht es mit weniger Merges auch?",
                       {"row": "strasse"})),
    ),
    discussion=(
        "Warum braucht ein großes Modell wie GPT für denselben Satz auf Englisch oft weniger Tokens als auf Deutsch?",
        "Ein größeres Vokabular macht Texte kürzer. Warum nimmt man trotzdem nicht eine Million Tokens?",
    ),
    teacher=(
        "Ein Tokenizer lernt seine Merges an Trainingstexten. Waren sie vor allem englisch, bekommen englische "
        "Wörter ganze Tokens und deutsche zerfallen. Mehr Tokens heißt mehr Rechenzeit und mehr Kosten.",
        "Jedes Token braucht eine Zeile in der Embedding-Tabelle und einen Ausgang vor der Softmax. Seltene "
        "Tokens kommen im Training kaum vor, das Modell lernt sie schlecht.",
    ),
    misconceptions=(
        "„Ein Token ist ein Wort.“ – Nein: Häufige Wörter sind ein Token, seltene zerfallen in Stücke, "
        "und ein Emoji kann vier Tokens kosten.",
        "„Unbekannte Zeichen kann das Modell nicht lesen.“ – Ein Byte-Tokenizer kennt alle 256 Bytes. Jeder "
        "Text lässt sich zerlegen, notfalls Byte für Byte.",
    ),
)
