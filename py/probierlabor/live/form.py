"""„Eigener Lauf“'s form read without numpy: its numbers, switches and typed text, every problem at once.

The page's own Python (static/py/boot.py) reads a workload with this module the moment „Starten“ is
pressed, so a typo is named at once and not after the worker has loaded numpy and the engine; the
worker reads it again with the same rules (batching.py, speculative.py), then checks what needs the
engine. A workload with several problems gets all of them, not only the first. Fields, labels and
bounds are the ``Param``s of fields.py.

Numbers are read as the experiments read them (kit/contract.py): a German decimal comma or an English
point, in every field; a whole-number field rounds a decimal half up and says so in a note. Unlike an
experiment's ``Param.coerce``, which falls back to the default so that a figure always shows, a field
that holds no number refuses the run: a guessed workload would cost the reader seconds and surprise
them. So the strict reading and its messages are this module's.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping

from ..kit import fmt
from ..kit.contract import Param, whole_characters
from .fields import (
    ARTICLE,
    DEFAULT_NEW_TOKENS,
    ENGINE,
    MAX_REQUESTS,
    MODELS,
    NAMES,
    NUMBERS,
    PROMPT_CHARS,
    REQUEST,
    SEPARATOR,
    SPECULATIVE,
    SPECULATIVE_KEY,
    SPECULATIVE_NUMBERS,
    SWITCHES,
    TEXT_LABELS,
)


class WorkloadError(ValueError):
    """A workload that cannot run: one or more German problems, each saying what to change."""

    def __init__(self, problems):
        self.problems = (problems,) if isinstance(problems, str) else tuple(problems)
        super().__init__(" ".join(self.problems))


class Problems:
    """Collects the problems of a whole workload: ``take(read, ...)`` returns what ``read`` gives, or
    None after noting its refusal; ``raise_any()`` then refuses the workload with all of them."""

    def __init__(self):
        self.found: list[str] = []

    def take(self, read, *args, **kwargs):
        try:
            return read(*args, **kwargs)
        except WorkloadError as refused:
            self.found.extend(refused.problems)
            return None

    def raise_any(self) -> None:
        if self.found:
            raise WorkloadError(self.found)


# ASCII digits only ("²".isdigit() is true, but float("²") fails); a decimal comma or point.
NUMBER = re.compile(r"[+\-\u2212]?(?:[0-9]+(?:[.,][0-9]*)?|[.,][0-9]+)")  # „−1“ as the pages print it too
MAX_DIGITS = 9  # any number a form could mean; beyond, int() itself refuses at 4300 digits


def german(x) -> str:
    """A number in a note, as fmt writes every number (0,0000000001, not 1e-10), with all its digits."""
    return fmt.de_auto(x, 15) if isinstance(x, float) else fmt.de(x)


def number(text, what: str, notes: list[str], whole: bool = True) -> int | float:
    """A typed number: „0,7“ and "0.7" alike; in a whole-number field „2,5“ is 3, with a note."""
    if isinstance(text, bool):
        raise WorkloadError(f"{what}: erwartet eine Zahl.")
    if isinstance(text, int):
        return text if whole else float(text)
    raw = str(text).strip()
    if not raw:
        raise WorkloadError(f"{what}: Hier fehlt eine Zahl.")
    if not NUMBER.fullmatch(raw):
        raise WorkloadError(f"{what}: „{raw[:20]}“ ist keine Zahl.")
    if len(re.split(r"[.,]", raw.lstrip("+-\u2212"))[0]) > MAX_DIGITS:
        raise WorkloadError(f"{what}: {raw[:12]}… ist viel zu groß.")
    value = float(raw.replace(",", ".").replace(fmt.MINUS, "-"))
    if not whole:
        return value
    rounded = math.floor(value + 0.5)  # 2,5 → 3: half up, as a reader rounds (kit/contract.py)
    if rounded != value:
        notes.append(f"{what}: {german(value)} ist keine ganze Zahl, gerechnet wird mit {german(rounded)}.")
    return rounded


def clamp(value, param: Param, what: str, notes: list[str]):
    if value < param.lo or value > param.hi:
        kept = min(max(value, param.lo), param.hi)
        notes.append(f"{what}: {german(value)} liegt außerhalb von {german(param.lo)} bis {german(param.hi)}, "
                     f"gerechnet wird mit {german(kept)}.")
        return kept
    return value


def bounded(text, param: Param, notes: list[str], what: str | None = None) -> int | float:
    """A number typed into ``param``'s field, within its bounds; ``what`` names it in a message."""
    what = what or param.label
    return clamp(number(text, what, notes, whole=param.kind == "int"), param, what, notes)


def switch(value, what: str) -> bool:
    raw = str(value).strip().lower()
    if raw in ("1", "true", "ja", "an"):
        return True
    if raw in ("0", "false", "nein", "aus", ""):
        return False
    raise WorkloadError(f"{what}: „{raw[:20]}“ ist weder an (1) noch aus (0).")


def prompt(field: str, where: str, notes: list[str]) -> str | int:
    """A prompt as typed (any text: the byte-level tokenizer knows every character), cut to PROMPT_CHARS
    characters, or the length of a prompt to draw when the field is a bare number. Its cut to
    PROMPT_TOKENS tokens needs the tokenizer, which only the worker has (recording.cut_to_tokens)."""
    if field.strip().isascii() and field.strip().isdigit():
        return bounded(field, REQUEST["prompt"], notes, f"{where}, {REQUEST['prompt'].label}")
    if not field:
        raise WorkloadError(f"{where}: Der Prompt ist leer. Schreibe Text oder eine Länge wie 12.")
    field, note = whole_characters(field, f"{where}: Der Prompt")
    if note:
        notes.append(note)
    if len(field) > PROMPT_CHARS:
        notes.append(f"{where}: Prompt nach {PROMPT_CHARS} von {fmt.de(len(field))} Zeichen abgeschnitten.")
        return field[:PROMPT_CHARS]
    return field


def request_lines(text: str, notes: list[str]) -> list[tuple[str | int, int, int]]:
    """One request per line: ``prompt | new tokens | arrival step`` (the last two may be left out), as
    (prompt or its length, new tokens, arrival step); every bad line is named.

    The prompt is taken as written, up to one space before the first ``|`` (which belongs to the
    separator as batching.py's ``format_requests`` writes it), so a prompt that ends in a space stays one.
    """
    lines = [line for line in str(text).replace("\r\n", "\n").split("\n") if line.strip()]
    if not lines:
        raise WorkloadError("Keine Anfrage: Schreibe mindestens eine Zeile wie „Hallo Welt | 8 | 0“.")
    if len(lines) > MAX_REQUESTS:
        notes.append(f"Nur die ersten {MAX_REQUESTS} von {fmt.de(len(lines))} Anfragen werden gerechnet.")
        lines = lines[:MAX_REQUESTS]
    problems = Problems()
    requests = []
    for i, line in enumerate(lines):
        where = f"Anfrage {NAMES[i]} (Zeile {i + 1})"
        fields = line.split(SEPARATOR)
        if len(fields) > 3:
            problems.found.append(f"{where}: höchstens drei Teile (Prompt | neue Tokens | Ankunft), "
                                  f"gefunden {len(fields)}.")
            continue
        text = fields[0][:-1] if len(fields) > 1 and fields[0].endswith(" ") else fields[0]
        written = problems.take(prompt, text, where, notes)
        new_tokens, arrival_step = REQUEST["max_new_tokens"], REQUEST["arrival_step"]
        new = (problems.take(bounded, fields[1], new_tokens, notes, f"{where}, {new_tokens.label}")
               if len(fields) > 1 and fields[1].strip() else DEFAULT_NEW_TOKENS)
        arrival = (problems.take(bounded, fields[2], arrival_step, notes, f"{where}, {arrival_step.label}")
                   if len(fields) > 2 and fields[2].strip() else 0)
        requests.append((written, new, arrival))
    problems.raise_any()
    return requests


def read(settings: Mapping) -> dict:
    """The engine form's settings, read and capped (requests as ``request_lines`` gives them, a
    ``notes`` list); a ``WorkloadError`` with every problem found."""
    notes: list[str] = []
    problems = Problems()
    out = {"requests": problems.take(request_lines, settings.get("requests", ""), notes)}
    model = str(settings.get("model", ENGINE["model"].default)).strip().upper()
    if model not in MODELS:
        problems.found.append(f"{ENGINE['model'].label} „{model[:10]}“ gibt es nicht; möglich sind {', '.join(MODELS)}.")
    out["model"] = model
    for key in NUMBERS:
        param = ENGINE[key]
        if key not in settings:
            problems.found.append(f"{param.label} fehlt.")
            continue
        value = problems.take(number, settings[key], param.label, notes)
        if value is not None and key == "num_blocks" and value < 1:
            problems.found.append("Ohne Blöcke hat der KV-Cache keinen Platz: Die Zahl der Blöcke muss mindestens 1 sein.")
        elif value is not None:
            out[key] = clamp(value, param, param.label, notes)
    for key in SWITCHES:
        out[key] = problems.take(switch, settings.get(key, ENGINE[key].to_url(ENGINE[key].default)), ENGINE[key].label)
    if "tile_size" in settings:
        out["tile_size"] = problems.take(bounded, settings["tile_size"], ENGINE["tile_size"], notes)
    problems.raise_any()
    return out | {"notes": notes}


def read_speculative(settings: Mapping) -> dict:
    """The speculative form's numbers and, unless the model pair is the article's (its own tokens, checked
    by speculative.py), its prompt; a ``WorkloadError`` with every problem found."""
    notes: list[str] = []
    problems = Problems()
    pairs = SPECULATIVE["model"]
    model = str(settings.get("model", pairs.default)).strip().upper()
    if model not in (kinds := [kind for kind, _ in pairs.choices]):
        problems.found.append(f"{pairs.label} „{model[:10]}“ gibt es nicht; möglich sind {', '.join(kinds)}.")
    out = {"model": model}
    if model != ARTICLE:
        out["prompt"] = problems.take(prompt, str(settings.get("prompt", "")), TEXT_LABELS["prompt"], notes)
    for key in SPECULATIVE_NUMBERS:
        if key not in settings:
            problems.found.append(f"{SPECULATIVE[key].label} fehlt.")
            continue
        out[key] = problems.take(bounded, settings[key], SPECULATIVE[key], notes)
    problems.raise_any()
    return out | {"notes": notes}


def check(settings: Mapping) -> list[str]:
    """Every problem the form's settings show without the engine ([] when none): the page asks this
    before it starts the worker."""
    try:
        if SPECULATIVE_KEY in settings:
            read_speculative(settings)
        else:
            read(settings)
    except WorkloadError as refused:
        return list(refused.problems)
    return []
