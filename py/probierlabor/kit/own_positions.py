"""Own positions for the attention pages (prefill, FlashAttention): a list of scores and a list of
values the reader types, 2 to 8 each, in place of the page's fixed fields.

One rule on both pages: as soon as one list is typed, the number of positions is the length of the
longer typed list; a list that is not typed takes the page's fields, and a list that is too short is
filled up with 0 (a score of 0 is an ordinary weight, a value of 0 adds nothing). The page says how
many it filled.
"""

from __future__ import annotations

from .contract import Param

COUNT = (2, 8)
WORDS = {2: "zwei", 3: "drei", 4: "vier", 5: "fünf", 6: "sechs", 7: "sieben", 8: "acht"}  # „alle vier Keys“


def own(name: str, label: str, lo: float, hi: float, example: str, what: str) -> Param:
    return Param(name, label, "values", (), lo=lo, hi=hi, count=COUNT, widget=f"z. B. {example}",
                 help=f"2 bis 8 {what}, mit Semikolon getrennt, eine je Position. Leer: die Felder oben.")


def lists(scores_typed, values_typed, scores_fields, values_fields) -> dict:
    """The scores and values in use and what was filled in."""
    if not scores_typed and not values_typed:
        return {"scores": list(scores_fields), "values": list(values_fields), "own": False, "filled": 0}
    n = max(len(scores_typed), len(values_typed))
    scores = list(scores_typed or scores_fields)[:n]
    values = list(values_typed or values_fields)[:n]
    filled = 2 * n - len(scores) - len(values)
    return {"scores": scores + [0] * (n - len(scores)), "values": values + [0] * (n - len(values)),
            "own": True, "filled": filled}


def filled_text(filled: int) -> str:
    """The summary's sentence about the zeros a short list got."""
    if not filled:
        return ""
    return f" {filled} fehlende Eintr{'ag' if filled == 1 else 'äge'} wurde{'n' if filled > 1 else ''} mit 0 aufgefüllt."
