"""A reader's settings for „Am echten Modell“ (strings, from the block's form or the page's link) read
and capped: values out of range are clamped with a German note (``Param.coerce``), a prompt that is
too long is cut with a note, an empty one is refused with a ``PromptError``. Numpy-free."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..kit import fmt
from ..kit.contract import whole_characters
from .fields import DEFAULT_PROMPT, PARAMS, PROMPT_CHARS


class PromptError(ValueError):
    """A prompt the model cannot start from, said in German."""


def typed(raw, what: str, example: str) -> tuple[str, list[str]]:
    """A prompt or sentence as the reader typed it (``what``: „Prompt“ or „Satz“), ready for the tokenizer:
    half characters replaced and a long one cut to PROMPT_CHARS, each with a note; an empty one is a
    ``PromptError`` that suggests ``example``."""
    text, note = whole_characters(str(raw), f"Dein {what}")
    notes = [note] if note else []
    if not text.strip():
        raise PromptError(f"Der {what} ist leer. Schreibe ein paar Wörter, zum Beispiel „{example}“.")
    if len(text) > PROMPT_CHARS:
        notes.append(f"Dein {what} hat {fmt.de(len(text), 0)} Zeichen. Das Modell liest nur die ersten {PROMPT_CHARS}.")
        text = text[:PROMPT_CHARS]
    return text, notes


def read(shown: Sequence[str], settings: Mapping) -> dict:
    """{"prompt", „steps“ and the ``shown`` settings (a page's, views.VIEWS) as values, "notes"}; a
    ``PromptError`` for an empty prompt. Settings the page does not show are ignored."""
    prompt, notes = typed(settings.get("prompt", ""), "Prompt", DEFAULT_PROMPT)
    out = {"prompt": prompt}
    for name in ("steps", *shown):
        param = PARAMS[name]
        value, note = param.coerce(settings[name]) if name in settings else (param.default, None)
        if note:
            notes.append(note)
        out[name] = value
    return out | {"notes": notes}


def settings_of(read_values: Mapping) -> dict:
    """The values as strings, the way the form and the link hold them (a decimal with its point)."""
    return {name: value if name == "prompt" else PARAMS[name].to_url(value)
            for name, value in read_values.items() if name != "notes"}
