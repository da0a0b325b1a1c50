"""„Eigener Lauf“, the page side: a reader's workload read from the page's form or URL (fields.py,
form.py: German messages, bounds, numpy-free), run through the engine (batching.py, speculative.py,
one entry in runs.py) and returned as a trace the replay panels play. The engine itself (engine/)
knows nothing of pages; this package calls its API.

Imports nothing, so that the page's own Python reads the form without numpy (static/py/boot.py)."""
