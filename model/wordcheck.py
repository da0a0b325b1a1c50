"""How much of a text is real German: the share of its words of three or more letters that Debian's word list knows.

The list is wngerman's /usr/share/dict/ngerman (igerman98, new orthography, 356 010 full forms with their
inflections: „Hauses“, „gehst“, „schönen“); `make words` installs it (tools/ensure_deb.sh), `make test` does so first.

Rules. A word is a run of letters (Unicode, umlauts and ß included): digits, hyphens and apostrophes
separate words, so „KV-Cache“ is „KV“ and „Cache“. Words of one or two letters are not counted (too many
of them are words by chance). Matching ignores case: both sides are lower-cased (``str.lower``, which keeps
ß), so a capitalised noun, a word at the start of a sentence and a word in capitals all match their entry;
the price is that a noun written in lower case („haus“) counts as known too.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

WORDLIST = Path("/usr/share/dict/ngerman")
MIN_LETTERS = 3
_WORD = re.compile(r"[^\W\d_]+")


@cache
def known_words(path: Path = WORDLIST) -> frozenset[str]:
    if not path.exists():
        raise RuntimeError(f"Die Wortliste {path} fehlt: `make words` installiert Debians Paket wngerman "
                           "(`make test` tut es zuerst).")
    return frozenset(line.strip().lower() for line in path.read_text(encoding="utf-8").splitlines() if line.strip())


def words(text: str) -> list[str]:
    """The words that count: letter runs of at least MIN_LETTERS letters, in text order."""
    return [w for w in _WORD.findall(text) if len(w) >= MIN_LETTERS]


def real_word_share(text: str, path: Path = WORDLIST) -> tuple[float, int, int]:
    """(share, counted, known): ``known`` of the ``counted`` words are in the list; share 0.0 if none counted."""
    vocabulary = known_words(path)
    counted = words(text)
    known = sum(w.lower() in vocabulary for w in counted)
    return (known / len(counted) if counted else 0.0), len(counted), known
