"""Probierlabor: ML and LLM concepts to try out, one pure-Python module per concept.

A concept module is named by its slug (``paged-attention`` → ``paged_attention``) and
follows the contract in ``contract.py``. ``api.run`` is the one entry point the page,
the CLI and the build all use.
"""

# The concepts that have a page, in the order of the catalogue (CONCEPTS.md §0).
SLUGS = (
    "overfitting",
    "ewc",
)


# The start page's map, in this order (issue 7 fills the other groups).
GROUPS = (
    "Lernen und Bewerten",
    "Decodieren und Sampling",
    "Attention und Architektur",
    "Die Inferenz-Engine",
)


def module_name(slug: str) -> str:
    return slug.replace("-", "_")
