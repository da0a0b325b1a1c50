"""Probierlabor: ML and LLM concepts to try out, one pure-Python module per concept.

A concept module is named by its slug (``paged-attention`` → ``paged_attention``) and
follows the contract in ``contract.py``. ``api.run`` is the one entry point the page,
the CLI and the build all use.
"""

# The concepts that have a page: the catalogue's order (CONCEPTS.md §0), decoding in teaching order;
# MQA before GQA and Prefill, Decode, KV-Cache in that order, as concepts/graph.py's prerequisites ask.
SLUGS = (
    "tokenisierung",
    "embeddings",
    "softmax-temperatur",
    "attention",
    "kreuzentropie-perplexitaet",
    "gradientenabstieg",
    "validation-set",
    "overfitting",
    "metr-horizon",
    "irt",
    "ewc",
    "reservoir-sampling",
    "experience-replay",
    "continual-learning",
    "sequence-packing",
    "reinforcement-learning",
    "loss-masking",
    "pass-at-k",
    "greedy-decoding",
    "beam-search",
    "top-k-sampling",
    "top-p-sampling",
    "speculative-decoding",
    "mqa",
    "gqa",
    "rope",
    "kl-divergence",
    "knowledge-distillation",
    "prefill",
    "decode",
    "kv-cache",
    "flash-attention",
    "paged-attention",
    "prefix-caching",
    "continuous-batching",
    "ttft",
)


# The start page's map: every concept's GROUP is one of these, shown in this order.
GROUPS = (
    "Grundlagen",
    "Lernen und Bewerten",
    "Decodieren und Sampling",
    "Attention und Architektur",
    "Die Inferenz-Engine",
)


def module_name(slug: str) -> str:
    return slug.replace("-", "_")
