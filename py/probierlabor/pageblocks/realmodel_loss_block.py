"""HTML of „Am echten Modell“ on the cross-entropy page (probierlabor/realmodel/loss.py):
``{{ real_model_loss("kreuzentropie-perplexitaet") }}``.

A closed ``<details>`` like the decoding pages' block (realmodel_block.py), with ``data-realmodel-view="loss"``:
static/js/main.js then loads static/js/realmodel/loss.js when the reader opens it, which runs the
reader's sentence in the tab's Python worker and fills the areas below. The model's figures on held-out
text come from the weights' MANIFEST.json (realmodel/loss.heldout), the one source of those numbers.
No inline script or style (Content-Security-Policy).
"""

from __future__ import annotations

import json
from html import escape

from ..kit import fmt
from ..realmodel import loss, models
from ..realmodel.fields import PROMPT_CHARS, PROMPT_TOKENS

INTRO = ("Hier tippst du einen eigenen Satz für das kleine Sprachmodell dieser Website. Es läuft in deinem Browser "
         "auf numpy. Für jedes Token ab dem zweiten siehst du, welche Wahrscheinlichkeit das Modell ihm gab, "
         "bevor es kam, und was das kostet. Das erste Token hat nichts davor.")
LIMITS = f"Das Modell liest höchstens {PROMPT_CHARS} Zeichen und {PROMPT_TOKENS} Tokens deines Satzes."


def heldout_sentence() -> str:
    figures = loss.heldout()
    return (f"Zum Vergleich: Auf Text, den es beim Lernen nie gesehen hat, kommt das Modell im Mittel auf "
            f"{fmt.de(figures['loss'], 3)} nats, das ist eine Perplexität von {fmt.de(figures['perplexity'], 1)}.")


def section(slug: str) -> str:
    files = [f"{models.WEIGHTS}/{name}" for name in models.FILES]
    html = (
        f'<details class="pl-realmodel pl-realmodel-loss" data-realmodel="{escape(slug)}" data-realmodel-view="loss" '
        f'data-weights="{escape(json.dumps(files))}" data-search-exclude><summary>Am echten Modell</summary>'
        f'<p class="pl-realmodel-intro">{escape(INTRO)}</p>'
        f'<p class="pl-realmodel-heldout">{escape(heldout_sentence())}</p>'
        f'<label class="pl-realmodel-prompt">Dein Satz<input type="text" data-realmodel-field="text" '
        f'name="text" spellcheck="false" autocomplete="off" value="{escape(loss.DEFAULT_TEXT)}"></label>'
        f'<p class="pl-realmodel-help">{escape(LIMITS)}</p>'
        f'<p class="pl-realmodel-status" data-realmodel-status role="status" aria-live="polite"></p>'
        f'<ul class="pl-realmodel-notes" data-realmodel-notes hidden></ul>'
        f'<div class="pl-realmodel-result" data-realmodel-result hidden>'
        f'<p class="pl-realmodel-summary" data-realmodel-summary></p>'
        f'<div class="pl-realmodel-losses" data-realmodel-losses></div>'
        f"</div></details>"
    )
    # one line of HTML, and no "$" or "\\" for the formula typesetter (as realmodel_block.py does)
    return html.replace("\n", "&#10;").replace("$", "&#36;").replace("\\", "&#92;")
