"""Which „Am echten Modell“ each page gets: the one table.

A view's ``kind`` names its code in every runtime: the block that builds it (the build: mkdocs_hooks/macros.py
REAL_MODEL), which writes the kind into ``data-realmodel-view``; the browser's view, which
static/js/realmodel/frame.js imports by that attribute when the reader opens the block
(static/js/realmodel/<kind>.js); and the runner, ``run``, which the tab's Python worker calls with the
reader's settings and the folder of the model's files (static/py/realmodel_run.py). A decoding page's runner
is its method with the settings its form shows (methods.Decoding, which holds its last run).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from . import heads, loss
from .form import PromptError
from .methods import Decoding

KINDS = ("decoding", "loss", "heads")


@dataclass(frozen=True)
class View:
    kind: str  # one of KINDS
    run: Callable[..., dict]  # (settings, folder) → the data the view draws; raises form.PromptError

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown view {self.kind!r}; choose one of {KINDS}")

    @property
    def models(self) -> tuple[str, ...]:
        """The trained models its runner reads (models.load), for the worker to load first, with a status line."""
        return getattr(self.run, "models", ("target",))


VIEWS = {
    "greedy-decoding": View("decoding", Decoding("greedy")),
    "beam-search": View("decoding", Decoding("beam", ("width",))),
    "top-k-sampling": View("decoding", Decoding("top_k", ("k", "temperature", "seed"))),
    "top-p-sampling": View("decoding", Decoding("top_p", ("p", "temperature", "seed"))),
    "speculative-decoding": View("decoding", Decoding("speculative", ("gamma", "spec_temperature", "seed"))),
    "decode": View("decoding", Decoding("decode")),
    "kreuzentropie-perplexitaet": View("loss", loss.run),
    "attention": View("heads", heads.run),
}


def of(slug: str) -> View:
    """The page's view; a ``PromptError`` (German) for a page without one (a hand-made request)."""
    if slug not in VIEWS:
        raise PromptError(f"Die Seite „{str(slug)[:40]}“ hat kein „Am echten Modell“.")
    return VIEWS[slug]


def pages(kind: str) -> list[str]:
    """The pages whose view is ``kind``."""
    return sorted(slug for slug, view in VIEWS.items() if view.kind == kind)


def run(slug: str, settings: Mapping, folder=None) -> dict:
    """The page's runner on the reader's settings, with the model's files from ``folder`` (None: the
    repository's)."""
    return of(slug).run(settings, folder)
