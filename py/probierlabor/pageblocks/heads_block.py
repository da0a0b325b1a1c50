"""HTML of „Am echten Modell“ on the attention page (probierlabor/realmodel/heads.py): the reader's sentence,
the layer and the head to show, and the areas static/js/realmodel/heads.js fills with the heatmap.

The same closed ``<details data-realmodel>`` as the decoding pages' block (realmodel_block.py): nothing
loads before the reader opens it; its view (realmodel/views.py: „heads“) tells static/js/realmodel/frame.js
which code to import. The layer and head choices come from the trained model's own configuration.
"""

from __future__ import annotations

from html import escape

from ..realmodel import heads, models
from .realmodel_block import frame

INTRO = ("Hier liest das Modell dieser Website deinen Satz. Die Karte zeigt für einen Kopf, wohin jedes Token "
         "schaut: Jede Zeile ist ein fragendes Token, jede Spalte ein Token davor. Je dunkler ein Feld, desto "
         "mehr Gewicht. Wähle Schicht und Kopf.")
LIMITS = f"Die Karte zeigt höchstens {heads.HEAD_TOKENS} Tokens. Die Gewichte sind auf zwei Stellen gerundet."


def _select(name: str, label: str, options: list[tuple[int, str]]) -> str:
    items = "".join(f'<option value="{value}">{escape(text)}</option>' for value, text in options)
    return f'<label>{escape(label)}<select data-realmodel-field="{name}" name="{name}">{items}</select></label>'


def section(slug: str) -> str:
    config = models.load("target")[0].config
    group = config.num_heads // config.num_kv_heads
    layers = [(i, f"Schicht {i}") for i in range(1, config.num_layers + 1)]
    # grouped-query attention: heads 1–4 read the first K/V head, 5–8 the second
    head_options = [(i, f"Kopf {i} (K/V-Kopf {(i - 1) // group + 1})")
                    for i in range(1, config.num_heads + 1)]
    controls = (
        f'<p class="pl-realmodel-intro">{escape(INTRO)}</p>'
        f'<label class="pl-realmodel-prompt">Dein Satz<input type="text" data-realmodel-field="prompt" '
        f'name="prompt" spellcheck="false" autocomplete="off" value="{escape(heads.DEFAULT_SENTENCE)}"></label>'
        f'<p class="pl-realmodel-help">{escape(LIMITS)}</p>'
        f'<div class="pl-realmodel-settings">{_select("layer", "Schicht", layers)}'
        f'{_select("head", "Kopf", head_options)}</div>'
    )
    result = (
        '<p class="pl-realmodel-label" data-realmodel-heads-title></p>'
        '<p class="pl-heads-summary" data-realmodel-heads-summary aria-live="polite"></p>'
        '<div class="pl-heads-map" data-realmodel-heads-map></div>'
    )
    return frame(slug, controls, result)
