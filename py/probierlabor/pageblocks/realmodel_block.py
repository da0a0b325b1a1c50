"""HTML of „Am echten Modell“ (probierlabor/realmodel) below a decoding page's experiment:
``{{ real_model("top-k-sampling") }}``.

A closed ``<details>``: nothing of it loads before the reader opens it. Opened, static/js/realmodel/realmodel.js
loads the model in the tab's Python worker and fills the areas below. The markup is the contract with
that file: ``data-realmodel`` names the slug, ``data-realmodel-field`` a setting (the prompt and the
``Param``s of realmodel/fields.py the page shows; „steps“ travels hidden), ``data-realmodel-*`` the
buttons and areas. No inline script or style (Content-Security-Policy).
"""

from __future__ import annotations

import json
from html import escape

from ..kit import fmt
from . import heads_block
from ..realmodel import heads, models
from ..realmodel.fields import DEFAULT_PROMPT, MAX_NEW_TOKENS, PAGES, PARAMS, PROMPT_CHARS, PROMPT_TOKENS

INTRO = ("Hier schreibst du einen eigenen Prompt für ein kleines Sprachmodell. Es läuft in deinem Browser auf "
         "numpy und wählt jedes Token mit dem Verfahren dieser Seite. Du siehst die Tokens deines Prompts, die "
         "zehn wahrscheinlichsten nächsten Tokens und den Rest. Klicke ein erzeugtes Token an, dann siehst du "
         "seine Verteilung.")
LIMITS = (f"Das Modell liest höchstens {PROMPT_CHARS} Zeichen und {PROMPT_TOKENS} Tokens deines Prompts "
          f"und schreibt höchstens {MAX_NEW_TOKENS} neue Tokens.")
METHOD = {
    "greedy": "Jeder Schritt nimmt das wahrscheinlichste Token (greedy).",
    "beam": "Jeder Schritt verlängert jede Folge im Strahl und behält die besten nach der Summe ihrer "
            "Log-Wahrscheinlichkeiten. Der Text ist die beste Folge.",
    "top_k": "Jeder Schritt zieht aus den k wahrscheinlichsten Tokens, nach der Temperatur. Der Seed macht den "
             "Zufall wiederholbar.",
    "top_p": "Jeder Schritt zieht aus den wahrscheinlichsten Tokens, bis ihre Summe p erreicht, nach der "
             "Temperatur. Der Seed macht den Zufall wiederholbar.",
    "speculative": "Jeder Schritt ist eine Runde: Ein kleinerer Entwurf schlägt γ Tokens vor, das Zielmodell prüft "
                   "sie in einem Durchlauf und behält einen Anfang davon.",
    "decode": "Jeder Schritt nimmt das wahrscheinlichste Token. Nach dem Prompt füttert jeder Schritt nur noch "
              "ein Token ein, den Rest liefert der KV-Cache.",
}


def _field(name: str) -> str:
    param = PARAMS[name]
    value = param.to_url(param.default)
    bounds = f'<span class="pl-realmodel-range">{fmt.de_auto(param.lo)} bis {fmt.de_auto(param.hi)}</span>'
    return (f'<label>{escape(param.label)}<input type="text" inputmode="decimal" data-realmodel-field="{name}" '
            f'name="{name}" autocomplete="off" value="{escape(value)}">{bounds}'
            f'<span class="pl-realmodel-hint">{escape(param.help)}</span></label>')


def section(slug: str) -> str:
    if slug == heads.PAGE:  # the attention page's heatmap of heads, not a decoding method
        return heads_block.section()
    method, shown = PAGES[slug]
    steps = PARAMS["steps"]
    # the trained models' files in the site, for the worker to fetch (realmodel/models.py)
    html = (
        f'<details class="pl-realmodel" data-realmodel="{escape(slug)}" data-max-new="{MAX_NEW_TOKENS}" '
        f'data-weights="{escape(json.dumps(models.PATHS))}" '
        f'data-search-exclude><summary>Am echten Modell</summary>'
        f'<p class="pl-realmodel-intro">{escape(INTRO)} {escape(METHOD[method])}</p>'
        f'<label class="pl-realmodel-prompt">Dein Prompt<input type="text" data-realmodel-field="prompt" '
        f'name="prompt" spellcheck="false" autocomplete="off" value="{escape(DEFAULT_PROMPT)}"></label>'
        f'<p class="pl-realmodel-help">{escape(LIMITS)}</p>'
        + (f'<div class="pl-realmodel-settings">{"".join(_field(name) for name in shown)}</div>' if shown else "")
        + f'<input type="hidden" data-realmodel-field="steps" value="{steps.to_url(steps.default)}">'
        f'<p class="pl-realmodel-actions">'
        f'<button type="button" class="md-button md-button--primary" data-realmodel-step disabled>Nächstes Token</button>'
        f'<button type="button" class="md-button" data-realmodel-all disabled>Ganzer Text</button>'
        f'<button type="button" class="md-button" data-realmodel-reset disabled>Von vorn</button></p>'
        f'<p class="pl-realmodel-status" data-realmodel-status role="status" aria-live="polite"></p>'
        f'<ul class="pl-realmodel-notes" data-realmodel-notes hidden></ul>'
        f'<div class="pl-realmodel-result" data-realmodel-result hidden>'
        f'<p class="pl-realmodel-label">Tokens deines Prompts</p>'
        f'<div class="pl-realmodel-chips" data-realmodel-prompt-tokens></div>'
        f'<p class="pl-realmodel-label">Erzeugt</p>'
        f'<div class="pl-realmodel-chips" data-realmodel-generated></div>'
        f'<p class="pl-realmodel-label" data-realmodel-dist-title></p>'
        f'<div class="pl-realmodel-bars" data-realmodel-bars role="list"></div>'
        f'<div class="pl-realmodel-detail" data-realmodel-detail></div>'
        f"</div></details>"
    )
    # One line of HTML (Markdown would break blank lines into paragraphs), and no "$" or "\\" left for
    # the formula typesetter (pymdownx.arithmatex).
    return html.replace("\n", "&#10;").replace("$", "&#36;").replace("\\", "&#92;")
