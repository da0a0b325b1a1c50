"""The concept contract: what every concept module declares.

A concept module is pure Python. It declares its parameters and presets and
offers ``compute(**params)`` (JSON-serialisable results) and ``view(result)``
(figure and readouts as strings), or ``view(result, layout)`` where it also lays
its figures out for a narrow screen (kit/layout.py). Everything that turns user input into
parameters lives here, once, so that the page, the CLI, the tests and the
build all clamp a bad value the same way and say so in the same German words.
"""

from __future__ import annotations

import math
import re
import reprlib
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from . import fmt

SEED_MAX = 2**31 - 1


@dataclass(frozen=True)
class Param:
    """One control of an experiment.

    kind: ``int`` and ``float`` (range with ``lo``/``hi``/``step``; ``log``
    makes the slider move in powers of ten; ``widget="number"`` shows a typed number
    field instead of a slider, e.g. for table cells: German „1,5“ and English 1.5 alike), ``choice`` (``choices`` are
    (value, label) pairs; ``widget="select"`` for a drop-down), ``bool``,
    ``seed`` (a button labelled ``label`` that draws a new random seed, e.g.
    „Start“ or „Neu würfeln“; the URL keeps the seed, so a shared link shows the
    same random run), and ``moves`` (dragged points, written ``index:value``
    separated by commas; ``lo``/``hi`` bound the value and ``max_index`` the index), and
    ``values`` (a short list of numbers the reader types, e.g. an own distribution: written
    ``0.5_0.3_0.2`` in the URL, shown and typed as „0,5; 0,3; 0,2“; ``lo``/``hi`` bound each value,
    ``count`` the number of values; ``normalise`` says that the concept divides them by their sum, exactly
    (``distribution.shares``): the value, the field and the URL keep the typed numbers, so that typed ties
    stay ties, a tiny share stays above 0 and a shared link gives what the typed input gave;
    ``whole`` asks for different whole numbers, e.g. positions, and with ``repeats`` for whole numbers
    that may repeat, e.g. lengths; an empty default means „none typed“,
    and the concept falls back to its own numbers), and
    ``text`` (a short typed text, e.g. an own prompt of letters: ``count`` bounds its length, ``allowed``
    holds every character it may contain, or is a test of one character, e.g. ``str.isprintable`` for any
    text one can type into a line; an empty default means „none typed“).

    ``alias`` is a former name that old shared links still carry: ``api.checked`` reads it when the
    name itself is missing, and the page writes the link back under the name.
    """

    name: str
    label: str
    kind: str
    default: Any
    lo: float | None = None
    hi: float | None = None
    step: float | None = None
    log: bool = False
    choices: tuple = ()
    max_index: int = 0
    unit: str = ""
    help: str = ""
    widget: str = ""
    count: tuple[int, int] = (0, 0)
    normalise: bool = False
    whole: bool = False
    repeats: bool = False
    allowed: str | Callable[[str], bool] = ""
    alias: str = ""

    def __post_init__(self):
        assert self.kind in {"int", "float", "choice", "bool", "seed", "moves", "values", "text"}, self.kind
        if self.kind == "text":
            assert self.allowed and 0 <= self.count[0] <= self.count[1], self.name
            assert self.default == "" or self._coerce_text(self.default) == (self.default, None), self.name
        if self.kind == "values":
            low, high = self.count
            assert 1 <= low <= high and self.lo is not None and self.hi is not None, self.name
            assert not self.normalise or self.lo >= 0, self.name  # shares of a sum are never negative
            assert not (self.normalise and self.whole), self.name
            assert self.whole or not self.repeats, self.name
            assert self.default == () or self._coerce_values(self.default) == (self.default, None), self.name
        if self.kind == "seed":
            object.__setattr__(self, "lo", 0)
            object.__setattr__(self, "hi", SEED_MAX)
        if self.kind in {"int", "float", "seed"}:
            assert self.lo is not None and self.hi is not None and self.lo <= self.default <= self.hi
        if self.kind == "choice":
            assert self.default in [v for v, _ in self.choices]

    # -- turning a raw value (URL string, CLI string or Python value) into a valid one

    def coerce(self, raw: Any) -> tuple[Any, str | None]:
        """Return (valid value, German note or None). Never raises."""
        coerce = getattr(self, "_coerce_" + self.kind)
        try:
            return coerce(raw)
        except (ValueError, TypeError, OverflowError):
            return self.default, (
                f"„{self.label}“: „{_shorten(raw)}“ ist kein gültiger Wert; "
                f"verwendet wird der Standardwert {self.format(self.default)}."
            )

    def _coerce_int(self, raw):
        value = raw if isinstance(raw, int) and not isinstance(raw, bool) else _parse_number(raw)
        if isinstance(value, float):
            if not math.isfinite(value):
                raise ValueError
            if value != int(value):
                rounded = round(value)
                clamped, note = self._clamp(rounded, given=value)
                return clamped, note or (
                    f"„{self.label}“: {_given(value)} ist keine ganze Zahl; verwendet wird {self.format(clamped)}."
                )
            value = int(value)
        return self._clamp(value)

    def _coerce_seed(self, raw):
        return self._coerce_int(raw)

    def _coerce_float(self, raw):
        value = float(raw) if isinstance(raw, (int, float)) and not isinstance(raw, bool) else _parse_number(raw)
        if not math.isfinite(value):
            raise ValueError
        return self._clamp(float(value))

    def _clamp(self, value, given=None):
        """``given``: what the reader typed where ``value`` is its rounding, so the note names what they typed."""
        if value < self.lo or value > self.hi:
            clamped = type(value)(min(max(value, self.lo), self.hi))
            return clamped, (
                f"„{self.label}“: {_shorten(_given(value if given is None else given))} liegt außerhalb des erlaubten Bereichs "
                f"{self.format(self.lo)} bis {self.format(self.hi)}; verwendet wird {self.format(clamped)}."
            )
        return value, None

    def _coerce_choice(self, raw):
        for value, _ in self.choices:
            if raw == value or str(raw) == _url_text(value):
                return value, None
        try:  # "0.010" should find the choice 0.01
            number = _parse_number(raw)
            for value, _ in self.choices:
                if isinstance(value, (int, float)) and not isinstance(value, bool) and number == value:
                    return value, None
        except (ValueError, TypeError):
            pass
        allowed = ", ".join(label for _, label in self.choices)
        return self.default, (
            f"„{self.label}“: „{_shorten(raw)}“ ist keine der Möglichkeiten ({allowed}); "
            f"verwendet wird {self.format(self.default)}."
        )

    def _coerce_bool(self, raw):
        if isinstance(raw, bool):
            return raw, None
        text = str(raw).strip().lower()
        if text in {"1", "true", "ja", "an", "on", "yes"}:
            return True, None
        if text in {"0", "false", "nein", "aus", "off", "no", ""}:
            return False, None
        raise ValueError

    def _coerce_moves(self, raw):
        items, unread = _first_items(raw if isinstance(raw, (list, tuple)) else str(raw), _MOVES_SEPARATOR)
        moves: dict[int, float] = {}
        notes = []
        for item in items:
            try:
                index, value = _move(item)
            except (ValueError, TypeError, OverflowError):
                notes.append(f"„{_shorten(item)}“ wurde ignoriert")
                continue
            if not 0 <= index <= self.max_index:
                notes.append(f"einen Punkt Nr. {_shorten(index)} gibt es nicht")
                continue
            if value < self.lo or value > self.hi:
                notes.append(f"Punkt Nr. {index}: {_shorten(_given(value))} auf {fmt.de_auto(min(max(value, self.lo), self.hi))} begrenzt")
                value = min(max(value, self.lo), self.hi)
            moves[index] = round(value, 1)
        result = tuple(sorted(moves.items()))
        notes = _capped(notes) + ([_unread("Einträge")] if unread else [])
        if notes:
            return result, f"„{self.label}“: " + "; ".join(notes) + "."
        return result, None

    def _coerce_values(self, raw):
        """Whatever arrives (text, a JSON list, a bare number, null, an object) ends as a valid tuple;
        everything that had to change is said in one note."""
        if raw is None:
            raw = []
        items, unread = _first_items(raw if isinstance(raw, (str, list, tuple)) else [raw], _VALUES_SEPARATOR)
        values, bad, outside = [], [], []
        for item in items:
            value = _typed_number(item)
            if value is None:
                bad.append(item)
            elif value < self.lo or value > self.hi:
                outside.append(value)
                values.append(min(max(value, self.lo), self.hi) + 0.0)
            else:
                values.append(value + 0.0)  # −0.0 would print as „−0“
        problems = []
        if self.whole:
            values, changed = _whole_and_different(values, self.repeats)
            problems += changed
        if len(bad) == 1:
            problems.append(f"„{_shorten(bad[0])}“ ist keine Zahl und wurde weggelassen")
        elif bad:
            problems.append(f"{len(bad)} Einträge sind keine Zahlen und wurden weggelassen (etwa „{_shorten(bad[0])}“)")
        if outside:
            what = (f"{_shorten(_given(outside[0]))} liegt" if len(outside) == 1
                    else f"{len(outside)} Werte liegen")
            problems.append(f"{what} außerhalb von {fmt.de_auto(self.lo)} bis {fmt.de_auto(self.hi)} "
                            f"und wurde{'n' if len(outside) > 1 else ''} begrenzt")
        low, high = self.count
        values, cut = _cut(values, high, "Werte", "der letzte")
        problems += cut + ([_unread("Einträge")] if unread else [])
        fallback = "die Eingabe bleibt unbenutzt" if self.default == () else f"verwendet wird {self.format(self.default)}"
        if not values and self.default == ():
            return (), self._values_note(problems)
        if len(values) < low:
            problems.append(f"es braucht mindestens {fmt.de(low)} Wert{'e' if low > 1 else ''}; {fallback}")
            return self.default, self._values_note(problems)
        if self.normalise:
            total = sum(fmt.as_fraction(v) for v in values)
            if total == 0:
                problems.append(f"die Werte ergeben zusammen 0; {fallback}")
                return self.default, self._values_note(problems)
            if total != 1:
                text = fmt.de_auto(float(total), 6)
                problems.append(f"die Werte ergaben zusammen {text}; sie wurden durch {text} geteilt")
        return tuple(values), self._values_note(problems)

    def allows(self, ch: str) -> bool:
        """Whether a typed text (kind ``text``) may hold the character ``ch``."""
        return self.allowed(ch) if callable(self.allowed) else ch in self.allowed

    def _coerce_text(self, raw):
        """Typed text: characters outside ``allowed`` are left out and a too long text is cut, each said once.
        Every character counts, a space too where ``allowed`` has it: nothing is stripped unsaid."""
        if raw is None:
            raw = ""
        if not isinstance(raw, str):
            raise ValueError(raw)
        text, unread = raw[:_READ_AT_MOST], len(raw) > _READ_AT_MOST
        bad = list(dict.fromkeys(ch for ch in text if not self.allows(ch)))
        text = "".join(ch for ch in text if self.allows(ch))
        problems = []
        if bad:
            shown = ", ".join(_character(ch) for ch in bad[:3]) + (" …" if len(bad) > 3 else "")
            problems.append(f"{'das Zeichen' if len(bad) == 1 else 'die Zeichen'} {shown} "
                            f"{'geht' if len(bad) == 1 else 'gehen'} hier nicht und wurde{'n' if len(bad) > 1 else ''} weggelassen")
        low, high = self.count
        text, cut = _cut(text, high, "Zeichen", "das letzte")
        problems += cut + ([_unread("Zeichen")] if unread else [])
        if text and len(text) < low:
            fallback = "die Eingabe bleibt unbenutzt" if self.default == "" else f"verwendet wird „{self.default}“"
            problems.append(f"es braucht mindestens {fmt.de(low)} Zeichen; {fallback}")
            text = self.default
        return text, self._values_note(problems)

    def _values_note(self, problems):
        if not problems:
            return None
        text = "; ".join(problems)
        return f"„{self.label}“: {text[0].upper()}{text[1:]}."

    @property
    def keyboard(self) -> str:
        """The ``inputmode`` attribute of a typed number field: a digit pad for whole numbers, one with a
        decimal separator for others, and none (the full keyboard) where a value may be negative, since a
        phone's digit pad has no minus sign."""
        if self.kind not in ("int", "float") or self.lo < 0:
            return ""
        return f' inputmode="{"numeric" if self.kind == "int" else "decimal"}"'

    # -- turning a valid value back into text

    def format(self, value) -> str:
        """German display text of a value."""
        if self.kind == "choice":
            for v, label in self.choices:
                if v == value:
                    return label
        if self.kind == "bool":
            return "an" if value else "aus"
        if self.kind == "moves":
            return f"{len(value)} verschoben" if value else "keine"
        if self.kind == "values":
            return self.to_field(value) if value else "keine"
        if self.kind == "text":
            return value or "keiner"
        if isinstance(value, float):
            return fmt.de_auto(value)
        return fmt.de(value)

    def to_field(self, value) -> str:
        """The text a control holds: the URL's text, except that what a reader types reads as German."""
        if self.kind == "values":  # German: decimal comma and the minus sign the pages print (−1)
            return "; ".join(_german(v) for v in value)
        if self.kind in ("int", "float") and self.widget == "number":
            return _german(value)
        return self.to_url(value)

    def to_url(self, value) -> str:
        if self.kind == "values":
            return "_".join(_url_text(v) for v in value)
        if self.kind == "moves":
            return ",".join(f"{i}:{_url_text(v)}" for i, v in value)
        if self.kind == "bool":
            return "1" if value else "0"
        return _url_text(value)


@dataclass(frozen=True)
class Preset:
    """A named set of parameter values, e.g. „Experiment 3“. Unnamed parameters take their default."""

    label: str
    values: Mapping[str, Any] = field(default_factory=dict)
    help: str = ""


@dataclass
class Readout:
    """One labelled number under the figure. ``value`` is already formatted in German."""

    key: str
    label: str
    value: str
    raw: Any = None
    emphasis: bool = False
    # the number answers the lesson's guess (kit/lesson.py): the page shows it once the reader has
    # committed a guess (or the experiment has answered it), and the printed worksheet never does
    answers: bool = False


@dataclass
class View:
    """What the page shows for one result.

    What answers the lesson's guess is declared, so that the page can hold it back until the reader
    has guessed and paper can leave it out: a readout's ``answers``, the sentence ``answer`` and
    ``extra_answers`` for the second figure or table."""

    figure: str  # SVG markup
    readouts: list[Readout]
    # the key sentence under the figure: reads the figure of this state in the page's voice, and what it
    # means, so a reader need not decode the figure alone; screen readers hear it after every change, the
    # CLI prints it
    summary: str
    extra: str = ""  # optional second SVG or table
    answer: str = ""  # what of the key sentence answers the guess; said after ``summary``
    extra_answers: bool = False


# Half of a character: a UTF-16 surrogate without its partner. A text field can hold one (an emoji cut
# in two by a script or a paste), JSON carries it, but no encoder writes it: the tokenizer stopped on it.
_HALF_CHARACTER = re.compile("[\ud800-\udfff]")
REPLACEMENT = "\ufffd"


def whole_characters(text: str, subject: str) -> tuple[str, str | None]:
    """``text`` with every half character replaced by „�“ (U+FFFD), and a German note that starts with
    ``subject`` („Dein Prompt“), or None when every character was whole."""
    text, halves = _HALF_CHARACTER.subn(REPLACEMENT, text)
    if not halves:
        return text, None
    if halves == 1:
        return text, (f"{subject} enthält ein halbes Schriftzeichen (zum Beispiel ein zerschnittenes Emoji). "
                      f"Das Modell liest an seiner Stelle „{REPLACEMENT}“.")
    return text, (f"{subject} enthält {halves} halbe Schriftzeichen (zum Beispiel zerschnittene Emojis). "
                  f"Das Modell liest an ihrer Stelle je ein „{REPLACEMENT}“.")


def _parse_number(raw) -> float | int:
    """Parse a URL or CLI number; accepts a German decimal comma and the minus sign the pages print (−1)."""
    text = str(raw).strip().replace(",", ".").replace(fmt.MINUS, "-")
    if text == "":
        raise ValueError("empty")
    try:
        return int(text)
    except ValueError:
        return float(text)


def _move(item) -> tuple[int, float]:
    """One dragged point from ``"index:value"`` or an ``[index, value]`` pair.

    JSON from a page or a hand-written call can hold anything here (a bare number,
    null, bytes, an object); all of it must end as a ValueError, so that the point
    is dropped with a note instead of the whole experiment failing."""
    if isinstance(item, str):
        parts = item.split(":")
    elif isinstance(item, (list, tuple)):
        parts = item
    else:
        raise ValueError(item)
    if len(parts) != 2 or any(isinstance(part, bool) for part in parts):
        raise ValueError(item)
    index, value = (_parse_number(part) for part in parts)
    if index != int(index):
        raise ValueError(item)
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(item)
    return int(index), value


# Typed lists: „0,5; 0,3“ (German), "0.5_0.3" (the URL), "0.5 0.3", "0,5 / 0,3" (as the pages print
# rows); a comma is a decimal comma unless a space follows it ("0.5, 0.3").
_VALUES_SEPARATOR = re.compile(r"[;_/\s]+|,(?=\s)")
_MOVES_SEPARATOR = re.compile(r"[,;]")
# A link can carry a million entries (the service worker has no request limit), and the page's
# main thread reads them: only this many entries or characters are read at all, far more than any
# control takes, so that the work per value stays small and linear whatever arrives.
_READ_AT_MOST = 1000
_NOTE_ITEMS = 3  # a note lists this many problems of a list, then says how many more there were


def _first_items(raw, separator: re.Pattern) -> tuple[list, bool]:
    """The first _READ_AT_MOST non-empty entries of a typed text or a list, and whether more followed.
    The text is split no further than that."""
    if isinstance(raw, str):
        parts = separator.split(raw, maxsplit=_READ_AT_MOST)
        rest = parts.pop() if len(parts) > _READ_AT_MOST else ""
        return [part for part in parts if part.strip()], bool(rest.strip())
    return list(raw[:_READ_AT_MOST]), len(raw) > _READ_AT_MOST


def _unread(plural: str) -> str:
    return f"nur die ersten {fmt.de(_READ_AT_MOST)} {plural} wurden gelesen, der Rest nicht"


def _capped(problems: list[str]) -> list[str]:
    """At most _NOTE_ITEMS problems, and once how many more there were (40 000 bad points are one line)."""
    more = len(problems) - _NOTE_ITEMS
    if more <= 0:
        return problems
    return [*problems[:_NOTE_ITEMS], f"{fmt.count(more, 'weiterer Eintrag', 'weitere Einträge')} " f"{'wurde' if more == 1 else 'wurden'} ebenso ignoriert oder begrenzt"]


def _character(ch: str) -> str:
    """A left-out character as a note shows it: a space or an invisible one by name, not as a blank."""
    if ch == " ":
        return "„ “ (Leerzeichen)"
    return f"„{ch}“" if ch.isprintable() else f"U+{ord(ch):04X}"


def _cut(items, high: int, plural: str, last: str):
    """At most ``high`` items, and the part of a note that says what was cut ([] if nothing)."""
    extra = len(items) - high
    if extra <= 0:
        return items, []
    return items[:high], [f"es gehen höchstens {fmt.de(high)} {plural}, "
                          + (f"{last} wurde weggelassen" if extra == 1 else f"die letzten {fmt.de(extra)} wurden weggelassen")]


def _whole_and_different(values, repeats: bool = False) -> tuple[list[int], list[str]]:
    """Whole numbers in the order typed, each once unless ``repeats``; what changed, as parts of the note."""
    rounded = [math.floor(v + 0.5) for v in values]  # 2,5 → 3: half up, as a reader rounds
    problems = []
    broken = [v for v, r in zip(values, rounded) if v != r]
    if broken:
        problems.append(f"{_shorten(_given(broken[0]))} ist keine ganze Zahl und wurde gerundet"
                        if len(broken) == 1 else f"{len(broken)} Werte waren keine ganzen Zahlen und wurden gerundet")
    kept = rounded if repeats else list(dict.fromkeys(rounded))
    if len(kept) < len(rounded):
        twice = sorted(r for r, n in Counter(rounded).items() if n > 1)
        problems.append(f"{', '.join(map(fmt.de, twice))} kam mehrfach vor und zählt einmal" if len(twice) == 1
                        else f"{', '.join(map(fmt.de, twice))} kamen mehrfach vor und zählen je einmal")
    return kept, problems


def _typed_number(item) -> float | None:
    """One typed value as a finite float, or None for anything else (text, ∞, a bool, an object)."""
    if isinstance(item, bool) or not isinstance(item, (int, float, str)):
        return None
    try:
        value = float(_parse_number(item))
    except (ValueError, OverflowError):
        return None
    return value if math.isfinite(value) else None


def _german(value) -> str:
    """A number as a typed field shows it: the URL's digits with a decimal comma and the minus sign the pages
    print (−1,5); ``_parse_number`` reads it back."""
    return _url_text(value).replace(".", ",").replace("-", fmt.MINUS, value < 0)


def _url_text(value) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float):
        return repr(int(value)) if value == int(value) and abs(value) < 1e15 else repr(value)
    return str(value)


def _given(value) -> str:
    """A number the reader gave, in a note: every digit a float keeps (15), so that 20,04 beside the bound 20
    does not read „20 liegt außerhalb … bis 20“, and written out as ``fmt`` writes every number."""
    return fmt.de_auto(value, 15) if isinstance(value, float) else fmt.de(value)


_SHORT = reprlib.Repr()  # a million-entry list is not written out whole to be shortened
_SHORT.maxstring = _SHORT.maxother = 32


def _shorten(raw, limit=24) -> str:
    text = raw[: limit + 1] if isinstance(raw, str) else _SHORT.repr(raw)
    return text if len(text) <= limit else text[: limit - 1] + "…"
