"""Deterministic workloads: the requests that the recorded scenarios and the benchmarks share.

A workload is plain data: ``RequestSpec``s (id, prompt token ids, ``max_new_tokens``, arrival step,
optional EOS id) and the ``LLMEngine`` settings it was shaped for. Everything is drawn from
``numpy.random.default_rng(seed)``, so the same seed gives the same requests on every machine, and a
recorded trace can be reproduced from its header.

Prompts are German text, so a trace shows „heute trinke ich“ rather than ``[8, 5, 21, …]``. Lengths
are counted in tokens of the tokenizer a workload is drawn for: the site's trained byte-level BPE
(``bpe.py``) for the recorded runs and the readers' own, or the character tokenizer (``tokenizer.py``,
the default) for the tiny random models of the tests and the benchmarks. Its words use only small
letters and the space (character ids 0…30).

    from recorder.workloads import realistic, submit
    w = realistic(seed=0)
    engine = LLMEngine(model, **w.engine)
    submit(engine, w.requests)
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import asdict, dataclass, field

import numpy as np

from engine.tokenizer import CharTokenizer, round_trip_cut

# The tiny models' tokenizer, the default of every workload.
CHARS = CharTokenizer()

# Everyday words, lower case (the alphabet has no capitals). Their first letters cover enough of
# the alphabet for ``shared_prompt`` to give every user question its own first token.
WORDS = (
    "heute", "trinke", "ich", "tee", "kaffee", "wir", "gehen", "nach", "hause", "der", "die", "das",
    "katze", "hund", "schläft", "auf", "dem", "sofa", "morgen", "regnet", "es", "vielleicht", "bitte",
    "erkläre", "warum", "himmel", "blau", "ist", "kurz", "und", "freundlich", "lernen", "macht", "spaß",
    "zug", "fährt", "über", "brücke", "kinder", "spielen", "garten", "buch", "liegt", "tisch", "oma",
    "backt", "kuchen", "apfel", "birne", "quelle", "wasser", "jeder", "tag", "neu", "xylofon", "klingt",
    "yoga", "entspannt", "fenster", "offen", "licht", "müde", "gut", "nacht", "rechnen", "zahlen",
    "vier", "plus", "drei", "sieben", "universum", "groß", "ohne", "ende", "pause", "jetzt", "lesen",
)

SYSTEM_PROMPT = ("du bist ein freundlicher assistent für schüler und antwortest kurz genau und geduldig "
                 "auf jede frage zum unterricht ")


@dataclass(frozen=True)
class RequestSpec:
    """One request as ``LLMEngine.add_request`` takes it (see ``submit``)."""

    req_id: Hashable
    prompt: tuple[int, ...]
    max_new_tokens: int
    arrival_step: int = 0
    eos_id: int | None = None
    text: str = ""  # the prompt as text (its tokens decoded)

    @property
    def max_positions(self) -> int:
        """Positions that ever need K/V (the last chosen token is never processed)."""
        return len(self.prompt) + self.max_new_tokens - 1

    def to_dict(self) -> dict:
        return asdict(self) | {"prompt": list(self.prompt)}


@dataclass(frozen=True)
class Workload:
    name: str
    requests: tuple[RequestSpec, ...]
    engine: dict = field(default_factory=dict)  # keyword arguments for LLMEngine (besides the model)
    seed: int = 0

    def to_dict(self) -> dict:
        return {"name": self.name, "seed": self.seed, "engine": dict(self.engine),
                "requests": [r.to_dict() for r in self.requests]}


def submit(engine, requests: Iterable[RequestSpec]) -> None:
    for r in requests:
        engine.add_request(list(r.prompt), r.max_new_tokens, req_id=r.req_id, arrival_step=r.arrival_step,
                           eos_id=r.eos_id)


def prompt_of_length(rng: np.random.Generator, length: int, tokenizer=CHARS,
                     first: str | None = None) -> tuple[tuple[int, ...], str]:
    """Random words, cut to ``length`` tokens of ``tokenizer`` where the text gives the same tokens again
    (``round_trip_cut``: exactly ``length`` characters, at most ``length`` BPE tokens): the ids and their text."""
    if length < 0:
        raise ValueError(f"length must not be negative, got {length}")
    words = [first] if first else []
    while len(tokenizer.encode(" ".join(words))) < length:
        words.append(WORDS[int(rng.integers(len(WORDS)))])
    ids = round_trip_cut(tokenizer, tokenizer.encode(" ".join(words)), length)
    return ids, tokenizer.decode(ids)


def text_of_length(rng: np.random.Generator, length: int, first: str | None = None, tokenizer=CHARS) -> str:
    """The text of ``prompt_of_length``: with the default tokenizer, exactly ``length`` characters."""
    return prompt_of_length(rng, length, tokenizer, first)[1]


def _spec(req_id, ids: tuple[int, ...], tokenizer, new: int, arrival: int) -> RequestSpec:
    return RequestSpec(req_id, ids, new, arrival, text=tokenizer.decode(ids))


def realistic(seed: int = 0, n: int = 16, tokenizer=CHARS, *, prompt_len: tuple[int, int] = (4, 40),
              new_tokens: tuple[int, int] = (2, 24), max_gap: int = 2) -> Workload:
    """About 16 requests of mixed size arriving a few steps apart: a small day in a serving engine.

    Why this shape: prompt lengths (uniform in ``prompt_len``) and output lengths (uniform in
    ``new_tokens``, drawn independently) differ by an order of magnitude, which is what makes a fixed
    batch wait for its slowest member (continuous batching) and a reservation for the longest
    possible sequence waste memory (PagedAttention). Arrivals are staggered by 0…``max_gap`` steps,
    so the batch changes while it runs and new prefills meet running decodes. Four sequences at a
    time and a budget that holds four whole prompts keep every prefill in one step (each request
    then needs exactly ``max_new_tokens`` rounds); the pool is large enough that nobody is preempted.
    """
    rng = np.random.default_rng(seed)
    requests, arrival = [], 0
    for i in range(n):
        length = int(rng.integers(prompt_len[0], prompt_len[1] + 1))
        new = int(rng.integers(new_tokens[0], new_tokens[1] + 1))
        requests.append(_spec(f"r{i}", prompt_of_length(rng, length, tokenizer)[0], tokenizer, new, arrival))
        arrival += int(rng.integers(0, max_gap + 1))
    longest = max(r.max_positions for r in requests)
    engine = {"num_blocks": 4 * -(-longest // 4) + 8, "block_size": 4, "max_num_seqs": 4,
              "max_num_batched_tokens": 4 * prompt_len[1], "chunked_prefill": True, "prefix_caching": True,
              "policy": "continuous"}
    return Workload("realistic", tuple(requests), engine, seed)


def system_prompt(system_len: int, tokenizer=CHARS) -> tuple[str, int]:
    """``shared_prompt``'s system prompt: the most whole words of SYSTEM_PROMPT whose S ≤ ``system_len``, and
    S, the tokens every prompt built on it shares (with characters, the space before the question too)."""
    words, found = SYSTEM_PROMPT.split(), None
    for k in range(1, len(words) + 1):
        text = " ".join(words[:k])
        shared = _shared_tokens(text, tokenizer)
        if shared > system_len:
            break
        found = (text, shared)
    if found is None or (found[0] == " ".join(words) and system_len > found[1]):
        most = _shared_tokens(" ".join(words), tokenizer)
        raise ValueError(f"system_len must lie in {_shared_tokens(words[0], tokenizer)}…{most} "
                         "(the system prompt's tokens, whole words)")
    return found


def _shared_tokens(text: str, tokenizer) -> int:
    """How many tokens of ``text`` + " " + a question do not depend on the question (any of WORDS)."""
    first, *others = (tokenizer.encode(f"{text} {w}") for w in sorted(set(WORDS)))
    return min(next(i for i, (x, y) in enumerate(zip(first, other)) if x != y) for other in others)


def shared_prompt(seed: int = 0, n: int = 8, system_len: int = 35, tokenizer=CHARS, *, block_size: int = 4,
                  user_len: tuple[int, int] = (4, 12), new_tokens: tuple[int, int] = (3, 8)) -> Workload:
    """N requests that start with the same system prompt (S tokens, ``system_prompt``: whole words, at most
    ``system_len`` tokens), then a short question.

    Why this shape: a chat service sends the same instructions before every user's question, which is
    what prefix caching saves. It is built so that the saving is exactly (N − 1)·⌊S/B⌋·B prompt tokens
    (B = ``block_size``), because

    * each prompt is the tokens of its text „system prompt, space, question“, so its text gives the same
      tokens again (a trace's header, a link), and the system prompt ends after a whole word: the BPE's
      merges never cross the space before the question's first word, so every prompt starts with the same
      S tokens;
    * every question's first token (a BPE token holds the space before a word; characters share the space
      and differ in the letter) is its own, so two prompts agree on exactly S tokens and the block that
      straddles the end of the system prompt never matches;
    * every question has at least one token, so the last prompt token (never served from the cache)
      lies after the system prompt: ⌊(len − 1)/B⌋ ≥ ⌊S/B⌋;
    * request 0 arrives at step 0 and the others from step 1 on, one per step: its prefill runs in one
      step (the budget holds a whole prompt) and its full blocks are committed before anyone looks;
    * the pool is large enough that no cached block is evicted.
    """
    system, shared = system_prompt(system_len, tokenizer)
    by_first: dict[int, list[str]] = {}
    for w in sorted(set(WORDS)):
        by_first.setdefault(tokenizer.encode(f"{system} {w}")[shared], []).append(w)
    if n > len(by_first):
        raise ValueError(f"at most {len(by_first)} requests: each question needs its own first token")
    rng = np.random.default_rng(seed)
    keys = sorted(by_first)
    chosen = [keys[int(i)] for i in rng.choice(len(keys), size=n, replace=False)]
    requests = []
    for i, key in enumerate(chosen):
        words = by_first[key]
        first = words[int(rng.integers(len(words)))]
        length = int(rng.integers(user_len[0], user_len[1] + 1))
        question = prompt_of_length(rng, length, tokenizer, first=first)[1]
        new = int(rng.integers(new_tokens[0], new_tokens[1] + 1))
        text = f"{system} {question}"
        requests.append(RequestSpec(f"u{i}", tuple(tokenizer.encode(text)), new, i, text=text))
    longest = max(r.max_positions for r in requests)
    engine = {"num_blocks": n * -(-longest // block_size) + 4, "block_size": block_size, "max_num_seqs": n,
              "max_num_batched_tokens": max(64, longest + n), "chunked_prefill": True, "prefix_caching": True,
              "policy": "continuous"}
    return Workload("shared_prompt", tuple(requests), engine, seed)


def expected_prefix_savings(n: int, system_len: int, block_size: int) -> int:
    """Prompt tokens served from the prefix cache in ``shared_prompt``: (N − 1)·⌊S/B⌋·B."""
    return (n - 1) * (system_len // block_size) * block_size


def memory_pressure(seed: int = 0, n: int = 6, tokenizer=CHARS) -> Workload:
    """Long answers in a pool too small for all of them: the engine must preempt by recompute.

    Why this shape: six requests with prompts of 8…14 tokens and 14…20 new tokens all arrive at
    step 0 and are all admitted (each prompt fits), but their sequences grow to 21…33 positions, 6…9
    blocks each, in a pool of 16 blocks of 4. Somewhere in the decodes the pool runs out, and the
    latest admitted sequence is preempted, re-queued in front and later prefilled again (with the
    tokens it had already generated). Every single request fits the pool alone, so the run finishes.
    """
    rng = np.random.default_rng(seed)
    requests = []
    for i in range(n):
        length = int(rng.integers(8, 15))
        new = int(rng.integers(14, 21))
        requests.append(_spec(f"m{i}", prompt_of_length(rng, length, tokenizer)[0], tokenizer, new, 0))
    engine = {"num_blocks": 16, "block_size": 4, "max_num_seqs": n, "max_num_batched_tokens": 64,
              "chunked_prefill": True, "prefix_caching": True, "policy": "continuous"}
    return Workload("memory_pressure", tuple(requests), engine, seed)


WORKLOADS = {"realistic": realistic, "shared_prompt": shared_prompt, "memory_pressure": memory_pressure}
