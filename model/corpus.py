"""The corpus of the site's language model: documents from each source, split into train and held-out text.

``documents()`` lists every document with its source and licence; ``build()`` turns them into the training
and held-out text. The unit of text is the paragraph (one a line). A paragraph seen before, in any source, is
left out, so no text stands twice and none on both sides of the split. A paragraph is held out when the
first eight bytes of the sha256 of its UTF-8 text, read as a big-endian number, leave a remainder below
HELDOUT_PERCENT when divided by 100: a rule of the text alone, the same on every machine and in every
Python (``hash()`` is salted per process), that draws from every source alike.

``python -m model.corpus`` prints the figures model/DATA.md quotes (sizes, sha256 of both texts);
``--out DIR`` also writes the texts there (train.txt, heldout.txt and each source's as SOURCE.train.txt,
SOURCE.heldout.txt, UTF-8), for a training run in a virtualenv that cannot import the page side.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from . import libreoffice_help, site_prose

HELDOUT_PERCENT = 8


@dataclass(frozen=True)
class Source:
    name: str
    licence: str
    origin: str


SITE = Source("site", "Eigener Text des Projekts (Probierlabor)",
              "pages/*.md, die Lektionen (LESSON der Konzeptmodule), das Glossar (pageblocks/glossary.py)")
LIBREOFFICE_HELP = Source(libreoffice_help.PACKAGE, libreoffice_help.LICENCE,
                          f"Debian-Paket {libreoffice_help.PACKAGE} {libreoffice_help.VERSION}, "
                          f"sha256 {libreoffice_help.SHA256}")
SOURCES = {source.name: source for source in (SITE, LIBREOFFICE_HELP)}


@dataclass(frozen=True)
class Document:
    name: str
    source: str
    licence: str
    text: str  # paragraphs, one a line


@dataclass(frozen=True)
class SourceSplit:
    name: str
    licence: str
    documents: int
    train: str
    heldout: str


@dataclass(frozen=True)
class Corpus:
    train: str
    heldout: str
    sources: tuple[SourceSplit, ...]


def _documents(source: Source, texts: list[tuple[str, list[str]]]) -> list[Document]:
    return [Document(name, source.name, source.licence, "\n".join(paragraphs))
            for name, paragraphs in texts if paragraphs]


def documents(external: bool = True, current: bool = False) -> list[Document]:
    """The site's documents, as pinned (model/site-prose.json.gz) or today's (``current``), then
    (``external``) those of the LibreOffice help, fetched into the cache."""
    docs = _documents(SITE, site_prose.site_texts() if current else site_prose.pinned_texts())
    if external:
        docs += _documents(LIBREOFFICE_HELP, libreoffice_help.help_texts())
    return docs


def held_out(paragraph: str) -> bool:
    digest = hashlib.sha256(paragraph.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") % 100 < HELDOUT_PERCENT


def build(docs: list[Document] | None = None) -> Corpus:
    """Train and held-out text of ``docs`` (default: ``documents()``, the pinned prose), paragraphs in
    document order."""
    docs = documents() if docs is None else docs
    seen: set[str] = set()
    sides: dict[str, tuple[list[str], list[str]]] = {}
    counts: dict[str, int] = {}
    licences: dict[str, str] = {}
    for doc in docs:
        train, heldout = sides.setdefault(doc.source, ([], []))
        counts[doc.source] = counts.get(doc.source, 0) + 1
        licences[doc.source] = doc.licence
        for paragraph in doc.text.split("\n"):
            if paragraph and paragraph not in seen:
                seen.add(paragraph)
                (heldout if held_out(paragraph) else train).append(paragraph)
    stats = tuple(SourceSplit(name, licences[name], counts[name], "\n".join(train), "\n".join(heldout))
                  for name, (train, heldout) in sides.items())
    return Corpus("\n".join(s.train for s in stats if s.train), "\n".join(s.heldout for s in stats if s.heldout),
                  stats)


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def describe(corpus: Corpus) -> str:
    def size(text: str) -> str:
        return f"{len(text.encode('utf-8')):>10,} B {len(text.split()):>8,} Wörter"

    lines = [f"{s.name}: {s.documents} Dokumente, {s.licence}"
             f"{f' ({SOURCES[s.name].origin})' if s.name in SOURCES else ''}\n"
             f"  train   {size(s.train)}\n  heldout {size(s.heldout)}" for s in corpus.sources]
    lines += [f"train   {size(corpus.train)}  sha256 {sha256(corpus.train)}",
              f"heldout {size(corpus.heldout)}  sha256 {sha256(corpus.heldout)}"]
    return "\n".join(lines)


def drift(corpus: Corpus, trained_on: dict) -> list[str]:
    """Which of the two texts differ from those the committed weights were trained on (MANIFEST.json's
    training.corpus_sha256). The site's prose is part of the corpus, so every page edited since shifts the
    texts, the BPE's merges and the held-out slice: a new run's loss is then comparable only roughly."""
    now = {"train": sha256(corpus.train), "heldout": sha256(corpus.heldout)}
    return [name for name in ("train", "heldout") if trained_on.get(name) != now[name]]


def write(corpus: Corpus, folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    texts = {"train": corpus.train, "heldout": corpus.heldout}
    for source in corpus.sources:
        texts |= {f"{source.name}.train": source.train, f"{source.name}.heldout": source.heldout}
    for name, text in texts.items():
        (folder / f"{name}.txt").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Korpus bauen, Größen und sha256 zeigen")
    parser.add_argument("--out", type=Path, help="Ordner für train.txt, heldout.txt und die Texte je Quelle")
    parser.add_argument("--pin-prose", metavar="COMMIT",
                        help="den heutigen Text der Website als neuen festen Stand speichern (model/site-prose.json.gz)")
    args = parser.parse_args()
    if args.pin_prose:
        site_prose.pin(site_prose.site_texts(), args.pin_prose)
    built = build()
    print(describe(built))
    manifest = Path(__file__).resolve().parent.parent / "model" / "weights" / "MANIFEST.json"
    if manifest.exists():
        changed = drift(built, json.loads(manifest.read_text(encoding="utf-8"))["training"]["corpus_sha256"])
        if changed:
            print(f"Hinweis: {' und '.join(changed)} weichen vom Korpus der eingecheckten Gewichte ab "
                  "(model/weights/MANIFEST.json); ein neuer Lauf ist mit ihnen nur ungefähr vergleichbar.")
    if args.out:
        write(built, args.out)
