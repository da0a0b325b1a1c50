"""mkdocs-macros: the page prose asks the concept modules for its numbers.

    {{ experiment("overfitting") }}                     the live experiment block (and its lesson)
    {{ value("overfitting", "test_rmse", degree=9) }}   a number, German-formatted (1 decimal)
    {{ value("ewc", "w.0", 2, mode="equal") }}          dotted paths, other decimals
    {{ value("overfitting", "train_rmse", preset="Experiment 4") }}   a click on it shows that preset
    {{ calc("overfitting", "typical", "test_rmse", degree=9) }}   another function of the module
    {{ replay("prefill-interleaved", view="prefill") }}          a recorded engine run
    {{ live_run("continuous-batching") }}   „Eigener Lauf“: the reader's workload, run in the browser
    {{ real_model("top-k-sampling") }}   „Am echten Modell“: the reader's prompt through the language model
    {{ read_first("decode") }}   the "Vorher lesen" line, from probierlabor/concepts/graph.py
    {{ see_also("decode") }}     the "Siehe auch" section, from the same graph
    {{ glossary_entries() }}     the glossary page's entries, from probierlabor/pageblocks/glossary.py
    {{ about_model() }}          the site's language model in a paragraph, from its manifest („present“: after
                                 a sentence that names it)
    {{ model_fact("kv_bytes", "MHA") }}   one number about it (probierlabor/pageblocks/model_facts.py)
    {{ trace_fact("flash-attention-tiles", "prompt_tokens") }}   one number of a recorded run (replay_block.FACTS)

So text and experiment cannot drift apart: both come from ``api.run``.
"""

from __future__ import annotations

from probierlabor.kit import api, fmt
from probierlabor.pageblocks import (
    experiment_block,
    glossary,
    graph_block,
    heads_block,
    lesson_block,
    live_block,
    model_facts,
    prose_values,
    realmodel_block,
    realmodel_loss_block,
    replay_block,
    workshop_block,
)
from probierlabor.realmodel import views

# The block that builds each kind of „Am echten Modell“; which kind a page gets is realmodel/views.py's.
REAL_MODEL = {"decoding": realmodel_block.section, "loss": realmodel_loss_block.section, "heads": heads_block.section}


def define_env(env):
    @env.macro
    def experiment(slug: str) -> str:
        """The experiment, with the page's lesson around it and its script to recompute it (nothing
        more for a page without them)."""
        # the page links the concept's own stylesheet (mkdocs_hooks/stylesheets.py)
        env.page.meta.setdefault("concepts", []).append(slug)
        return ("\n\n" + lesson_block.before(slug) + experiment_block.experiment(slug)
                + lesson_block.after(slug) + workshop_block.section(slug) + "\n\n")

    @env.macro
    def replay(name: str, view: str, twin: str | None = None) -> str:
        """A recorded engine run (static/traces/<name>.json), replayed by static/js/replay/core.js."""
        return "\n\n" + replay_block.panel(name, view, twin) + "\n\n"

    @env.macro
    def live_run(slug: str) -> str:
        """The reader's own engine run (probierlabor/live), started by static/js/live/live.js."""
        return "\n\n" + live_block.section(slug) + "\n\n"

    @env.macro
    def real_model(slug: str) -> str:
        """„Am echten Modell“ (probierlabor/realmodel), the view realmodel/views.py names for the page, opened
        and run by static/js/realmodel/."""
        return "\n\n" + REAL_MODEL[views.VIEWS[slug].kind](slug) + "\n\n"

    @env.macro
    def read_first(slug: str) -> str:
        return graph_block.read_first(slug)

    @env.macro
    def see_also(slug: str) -> str:
        return graph_block.see_also(slug)

    @env.macro
    def about_model(tense: str = "past") -> str:
        return model_facts.paragraph(tense)

    @env.macro
    def model_fact(name: str, *args) -> str:
        return model_facts.fact(name, *args)

    @env.macro
    def trace_fact(name: str, key: str) -> str:
        return replay_block.fact(name, key)

    @env.macro
    def glossary_entries() -> str:
        return glossary.page()

    @env.macro
    def value(slug: str, key: str, digits: int = 1, preset: str | None = None, **params) -> str:
        raw = dict(api.preset_values(slug, preset)) if preset else {}
        raw.update(params)
        out = api.run(slug, raw)
        if out["notes"]:
            raise ValueError(f"value({slug}, {key}): {out['notes']}")
        item = out["result"]
        for part in key.split("."):
            item = item[int(part)] if isinstance(item, list) else item[part]
        return prose_values.mark(slug, out["url"], fmt.de(item, digits))

    @env.macro
    def calc(slug: str, function: str, key: str, digits: int = 1, **params) -> str:
        """A number from another function of a concept module, e.g. overfitting.typical."""
        return fmt.de(getattr(api.concept(slug), function)(**params)[key], digits)

    @env.macro
    def const(slug: str, name: str):
        """A constant of a concept module, e.g. the number of new days, written exactly (0,0001, not 0,00)."""
        value = getattr(api.concept(slug), name)
        if isinstance(value, float):
            return fmt.exact(fmt.as_fraction(value))
        return fmt.de(value) if isinstance(value, int) else value

    @env.macro
    def de(number, digits: int = 1) -> str:
        return fmt.de(number, digits)
