"""HTML of „Am echten Modell“ (probierlabor/realmodel) below a decoding page's experiment:
``{{ real_model("top-k-sampling") }}``.

A closed ``<details>``: nothing of it loads before the reader opens it. Opened, static/js/realmodel/decoding.js
loads the model in the tab's Python worker and fills the areas below. The markup is the contract with
that file: ``data-realmodel`` names the slug, ``data-realmodel-view`` its view (realmodel/views.py),
``data-realmodel-field`` a setting (the prompt and the ``Param``s of realmodel/fields.py the page shows;
„steps“ travels hidden), ``data-realmodel-*`` the buttons and areas. No inline script or style
(Content-Security-Policy).
"""

from __future__ import annotations

import json
from html import escape

from ..kit import fmt
from ..realmodel import models, views
from ..realmodel.fields import DEFAULT_PROMPT, MAX_NEW_TOKENS, PARAMS, PROMPT_CHARS, PROMPT_TOKENS
from . import model_facts

INTRO = ("Hier schreibst du einen eigenen Prompt für ein kleines Sprachmodell. Es läuft in deinem Browser mit "
         "der Python-Bibliothek numpy und wählt jedes Token mit dem Verfahren dieser Seite. Du siehst die Tokens deines Prompts, die "
         "zehn wahrscheinlichsten nächsten Tokens und den Rest. Klicke ein erzeugtes Token an, dann siehst du "
         "seine Verteilung.")
ENTER = "Drückst du Enter, schreibt das Modell den ganzen Text, wie bei „Ganzer Text“."
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
    return (f'<label>{escape(param.label)}<input type="text"{param.keyboard} data-realmodel-field="{name}" '
            f'name="{name}" autocomplete="off" value="{escape(value)}">{bounds}'
            f'<span class="pl-realmodel-hint">{escape(param.help)}</span></label>')


def frame(slug: str, controls: str, result: str, extra: str = "", cls: str = "") -> str:
    """A closed „Am echten Modell“ block, the same for every view: ``controls``, the status line and the
    notes, then ``result`` (hidden until a run). Its view's kind (realmodel/views.py, data-realmodel-view)
    tells static/js/realmodel/frame.js which code to load when it opens; the models' files in the site are for the worker to fetch
    (realmodel/models.py PATHS); ``extra``: more attributes, ``cls`` another class. One line of HTML (Markdown would break blank
    lines into paragraphs), and no "$" or "\\" left for the formula typesetter (pymdownx.arithmatex)."""
    html = (
        f'<details class="pl-realmodel{f" {cls}" if cls else ""}" data-realmodel="{escape(slug)}"'
        + f' data-realmodel-view="{views.of(slug).kind}"' + extra
        + f' data-weights="{escape(json.dumps(models.PATHS))}" data-search-exclude><summary>Am echten Modell</summary>'
        f'{controls}<p class="pl-realmodel-status" data-realmodel-status role="status" aria-live="polite"></p>'
        f'<ul class="pl-realmodel-notes" data-realmodel-notes hidden></ul>'
        f'<div class="pl-realmodel-result" data-realmodel-result hidden>{result}</div></details>'
    )
    return html.replace("\n", "&#10;").replace("$", "&#36;").replace("\\", "&#92;")


def section(slug: str) -> str:
    """A decoding page's block: the prompt, the page's settings, steps and the distributions."""
    decoding = views.of(slug).run
    method, shown = decoding.method, decoding.shown
    steps = PARAMS["steps"]
    help_id = f"pl-realmodel-help-{slug}"
    controls = (
        f'<p class="pl-realmodel-intro">{escape(INTRO)} {escape(METHOD[method])}</p>'
        f'<label class="pl-realmodel-prompt">Dein Prompt<input type="text" data-realmodel-field="prompt" '
        f'name="prompt" spellcheck="false" autocomplete="off" enterkeyhint="go" aria-describedby="{help_id}" '
        f'value="{escape(DEFAULT_PROMPT)}"></label>'
        f'<p class="pl-realmodel-help" id="{help_id}">{escape(ENTER)} {escape(LIMITS)}</p>'
        f'<p class="pl-realmodel-help" data-model-expect>{escape(model_facts.EXPECT)}</p>'
        + (f'<div class="pl-realmodel-settings">{"".join(_field(name) for name in shown)}</div>' if shown else "")
        + f'<input type="hidden" data-realmodel-field="steps" value="{steps.to_url(steps.default)}">'
        f'<p class="pl-realmodel-actions">'
        f'<button type="button" class="md-button md-button--primary" data-realmodel-step disabled>Nächstes Token</button>'
        f'<button type="button" class="md-button" data-realmodel-all disabled>Ganzer Text</button>'
        f'<button type="button" class="md-button" data-realmodel-reset disabled>Von vorn</button></p>'
    )
    result = (
        '<p class="pl-realmodel-label">Tokens deines Prompts</p>'
        '<div class="pl-realmodel-chips" data-realmodel-prompt-tokens></div>'
        '<p class="pl-realmodel-label">Erzeugt</p>'
        '<div class="pl-realmodel-chips" data-realmodel-generated></div>'
        '<div class="pl-realmodel-text-area" data-realmodel-text-area hidden><p class="pl-realmodel-label">Als Text</p>'
        '<p class="pl-realmodel-text" data-realmodel-text></p></div>'
        '<p class="pl-realmodel-label" data-realmodel-dist-title></p>'
        '<div class="pl-realmodel-bars" data-realmodel-bars role="list"></div>'
        '<div class="pl-realmodel-detail" data-realmodel-detail></div>'
    )
    return frame(slug, controls, result, extra=f' data-max-new="{MAX_NEW_TOKENS}"')
