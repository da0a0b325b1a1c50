"""HTML of „Am echten Modell“ on the cross-entropy page (probierlabor/realmodel/loss.py):
``{{ real_model("kreuzentropie-perplexitaet") }}``.

A closed ``<details>`` like the decoding pages' block (realmodel_block.py), whose view is „loss“
(realmodel/views.py): static/js/realmodel/frame.js then loads static/js/realmodel/loss.js when the reader opens it, which runs the
reader's sentence in the tab's Python worker and fills the areas below. The model's figures on held-out
text come from the weights' MANIFEST.json (realmodel/loss.heldout), the one source of those numbers.
No inline script or style (Content-Security-Policy).
"""

from __future__ import annotations

from html import escape

from ..kit import fmt
from ..realmodel import loss
from ..realmodel.fields import PROMPT_CHARS, PROMPT_TOKENS
from .realmodel_block import frame

INTRO = ("Hier tippst du einen eigenen Satz für das kleine Sprachmodell dieser Website. Es läuft in deinem Browser "
         "mit der Python-Bibliothek numpy. Für jedes Token ab dem zweiten siehst du, welche Wahrscheinlichkeit das Modell ihm gab, "
         "bevor es kam, und was das kostet. Das erste Token hat nichts davor.")
LIMITS = f"Das Modell liest höchstens {PROMPT_CHARS} Zeichen und {PROMPT_TOKENS} Tokens deines Satzes."


def heldout_sentence() -> str:
    figures = loss.heldout()
    return (f"Zum Vergleich: Auf Text, den es beim Lernen nie gesehen hat, kommt das Modell im Mittel über lange "
            f"Abschnitte auf {fmt.APPROX}{fmt.de(figures['loss'], 3)} Nat, das ist eine Perplexität von "
            f"{fmt.APPROX}{fmt.de(figures['perplexity'], 1)}.")


def section(slug: str) -> str:
    controls = (
        f'<p class="pl-realmodel-intro">{escape(INTRO)}</p>'
        f'<p class="pl-realmodel-heldout">{escape(heldout_sentence())}</p>'
        f'<label class="pl-realmodel-prompt">Dein Satz<input type="text" data-realmodel-field="text" '
        f'name="text" spellcheck="false" autocomplete="off" value="{escape(loss.DEFAULT_TEXT)}"></label>'
        f'<p class="pl-realmodel-help">{escape(LIMITS)}</p>'
    )
    result = (
        '<p class="pl-realmodel-summary" data-realmodel-summary></p>'
        '<div class="pl-realmodel-losses" data-realmodel-losses></div>'
    )
    return frame(slug, controls, result, cls="pl-realmodel-loss")
