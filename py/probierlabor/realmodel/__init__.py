"""„Am echten Modell“: the reader's own German text through the site's language model, in three views.
views.py is the one table of which page gets which view and the runner the tab's Python worker calls for it
(static/py/realmodel_run.py).

The decoding pages (static/js/realmodel/decoding.js): the reader's prompt step by step with the page's
method (greedy, beam search, top-k, top-p, speculative decoding, decode with its KV cache), each step's
next-token distribution shown as the ten likeliest tokens and the rest. fields.py holds the settings and
their limits (numpy-free: the page block renders them at build time), form.py reads a reader's settings
with German notes, models.py gives the model, methods.py runs one page's method and returns plain JSON
data for the view. loss.py does the same for the cross-entropy page: the loss of each token of the
reader's sentence (static/js/realmodel/loss.js); heads.py is the attention page's view: the attention of
every layer and head on the reader's sentence, drawn as a heatmap by static/js/realmodel/heads.js."""
