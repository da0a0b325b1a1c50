"""German running text from LibreOffice's help (Debian package libreoffice-help-de, MPL-2.0), as (name, paragraphs).

The package is pinned by version and sha256 and kept in .cache/downloads/ (``apt-get download`` fetches it
once, from Debian's archive, the only origin). Its HTML pages are read straight from the .deb (an ``ar``
archive holding data.tar.xz), without installing it. Kept: the help's paragraphs, list items and table
text; dropped: headings, code (Basic, Python, formulas), the macOS/Windows/Unix and per-application
variants of a phrase except the default one, and paragraphs that are not sentences (fewer than four words,
mostly non-letters, or no final punctuation: menu paths, key names, file names).
"""

from __future__ import annotations

import hashlib
import io
import lzma
import re
import shutil
import subprocess
import tarfile
import tempfile
import unicodedata
from html.parser import HTMLParser
from pathlib import Path

PACKAGE = "libreoffice-help-de"
VERSION = "4:7.4.7-1+deb12u14"
SHA256 = "00490b63c509ac96f7f212d6a6e40452d3e0d1f97ccf4b824dd5ec4c01e8277f"
LICENCE = "MPL-2.0"
CACHE_DIR = Path(__file__).resolve().parent.parent / ".cache" / "downloads"
HELP_ROOT = "./usr/share/libreoffice/help/de/"

# <p> classes that hold running text; "code", "bascode", headings and "related" links are not among them
TEXT_CLASSES = frozenset({"paragraph", "listitem", "paragraphintable", "tablecontentintable",
                          "tablecontentsintable", "ol_item"})
MIN_WORDS = 4
MIN_LETTER_SHARE = 0.7
_SENTENCE_END = re.compile(r"[.!?…:][\"“”)»]*$")


class _HelpPage(HTMLParser):
    """Collects the text of each running-text <p>; a hidden variant (id not "default…") is skipped."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.paragraphs: list[str] = []
        self._text: list[str] | None = None
        self._spans: list[bool] = []  # per open <span>: does it start a skipped variant?
        self._skipped = 0

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "span":
            skip = "hidden" in attributes and not (attributes.get("id") or "").startswith("default")
            self._spans.append(skip)
            self._skipped += skip
        elif tag == "p" and TEXT_CLASSES & set((attributes.get("class") or "").split()):
            self._text = []

    def handle_endtag(self, tag):
        if tag == "span" and self._spans:
            self._skipped -= self._spans.pop()
        elif tag == "p" and self._text is not None:
            self.paragraphs.append(" ".join("".join(self._text).split()))
            self._text = None

    def handle_data(self, data):
        if self._text is not None and not self._skipped:
            self._text.append(data)


def is_sentence(paragraph: str) -> bool:
    letters = sum(c.isalpha() for c in paragraph)
    visible = sum(not c.isspace() for c in paragraph)
    return (len(paragraph.split()) >= MIN_WORDS and visible > 0 and letters / visible >= MIN_LETTER_SHARE
            and bool(_SENTENCE_END.search(paragraph)))


def page_paragraphs(html: str) -> list[str]:
    parser = _HelpPage()
    parser.feed(html)
    parser.close()
    return [p for p in (unicodedata.normalize("NFC", p) for p in parser.paragraphs) if is_sentence(p)]


def _deb_name() -> str:
    return f"{PACKAGE}_{VERSION.replace(':', '%3a')}_all.deb"


def deb_cached() -> bool:
    return (CACHE_DIR / _deb_name()).exists()


def deb_path() -> Path:
    """The pinned .deb from the cache, downloaded first if missing; its sha256 checked every time."""
    name = _deb_name()
    path = CACHE_DIR / name
    if not path.exists():
        if shutil.which("apt-get") is None:
            raise RuntimeError(f"{name} fehlt in {CACHE_DIR} und apt-get ist nicht da (Debian nötig).")
        CACHE_DIR.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory() as tmp:
            result = subprocess.run(["apt-get", "download", f"{PACKAGE}={VERSION}"], cwd=tmp,
                                    capture_output=True, text=True)
            found = list(Path(tmp).glob("*.deb"))
            if result.returncode != 0 or not found:
                raise RuntimeError(f"apt-get download {PACKAGE}={VERSION} fehlgeschlagen (nach `apt-get update` "
                                   f"noch einmal; ist die Version nicht mehr im Archiv, VERSION und SHA256 in "
                                   f"{__name__} neu pinnen):\n{result.stderr.strip()}")
            shutil.move(found[0], path)
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    if digest != SHA256:
        raise RuntimeError(f"{path} hat sha256 {digest}, gepinnt ist {SHA256}: Datei löschen und neu laden.")
    return path


def data_tar(deb: bytes) -> tarfile.TarFile:
    """The data.tar.xz member of a .deb (an ``ar`` archive: 8-byte magic, then 60-byte headers)."""
    assert deb.startswith(b"!<arch>\n"), "keine .deb-Datei"
    offset = 8
    while offset < len(deb):
        header = deb[offset:offset + 60]
        name, size = header[:16].decode().strip().rstrip("/"), int(header[48:58].decode())
        body = deb[offset + 60:offset + 60 + size]
        if name == "data.tar.xz":
            return tarfile.open(fileobj=io.BytesIO(lzma.decompress(body)))
        offset += 60 + size + size % 2
    raise ValueError("data.tar.xz fehlt in der .deb-Datei")


def help_texts(deb: Path | None = None) -> list[tuple[str, list[str]]]:
    """Every help page with running text, by its path under help/de/, sorted by path."""
    texts = []
    with data_tar((deb or deb_path()).read_bytes()) as tar:
        for member in tar.getmembers():
            if member.isfile() and member.name.startswith(HELP_ROOT + "text/") and member.name.endswith(".html"):
                paragraphs = page_paragraphs(tar.extractfile(member).read().decode("utf-8"))
                if paragraphs:
                    texts.append((member.name.removeprefix(HELP_ROOT), paragraphs))
    return sorted(texts)
