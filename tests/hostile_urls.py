"""Hostile query strings for the concept pages, drawn from a seeded generator.

Shared by tests/concepts/test_hostile_urls.py (every page's Python, many draws) and the browser test
tests/browser/test_hostile_links.py (one draw per page and run, plus a fixed list): each query holds
at least one bad value for a control the page has, so the page must show a note.
"""

from __future__ import annotations

import random
from urllib.parse import quote

KINDS = ("unknown name", "huge number", "nan", "unicode", "long value", "repeated key", "b. prefix")

BAD = {
    "huge number": ["9" * 400, "1e400", "-1e308", "99999999999999999999", "0:1e400"],
    "nan": ["NaN", "nan", "-inf", "Infinity", "0:nan"],
    "unicode": ["Zwölf🙂", "½", "∞", "\u202e3", "٣٫٥x", "🙂:𝟙"],
    "long value": ["9" * 10_000, "x" * 10_000, "1:" + "5" * 10_000],
}


def attacked(params) -> list[str]:
    """The names a hostile value is aimed at: a typed text (kind ``text``) takes letters and digits, so
    „nan“ or „Infinity“ are words there, not attacks; only its long values are (see test_hostile_urls)."""
    return [p.name for p in params.values() if p.kind != "text"]


def bad_value(rng: random.Random, kind: str) -> str:
    return rng.choice(BAD.get(kind) or [v for values in BAD.values() for v in values])


def hostile_query(slug: str, names: list[str], kind: str, rng: random.Random) -> tuple[str, dict]:
    """(query string, the raw values the page's own experiment receives) for one kind of attack.

    The raw values are what static/js/experiment/mount.js takes from the query: declared names only, the
    first of repeated keys, the ``b.`` ones for the comparison's second experiment."""
    name = rng.choice(names)
    value = bad_value(rng, kind)
    pairs = [(name, value)]
    if kind == "unknown name":
        pairs.insert(0, (f"gibt_es_nicht_{rng.randrange(1000)}", bad_value(rng, "long value")))
    elif kind == "repeated key":
        pairs += [(name, "1"), (name, bad_value(rng, "unicode"))]
    elif kind == "b. prefix":
        pairs += [("ab", slug), (f"b.{rng.choice(names)}", bad_value(rng, "nan")), ("b.", "x"), ("b.b.", "1")]
    query = "&".join(f"{quote(k, safe='.')}={quote(v, safe=':,')}" for k, v in pairs)
    return query, {name: value}


def draws(slugs, names_of, seed: int):
    """One hostile query per page, the kinds taken in turn so that every kind is used."""
    rng = random.Random(seed)
    for i, slug in enumerate(slugs):
        kind = KINDS[(i + seed) % len(KINDS)]
        query, raw = hostile_query(slug, names_of(slug), kind, rng)
        yield slug, kind, query, raw
