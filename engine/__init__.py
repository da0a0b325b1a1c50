"""Probierlabor's small inference engine (numpy; the page's own Python loads only ``acceptance``, ``tokenizer``
and ``bpe``).

This file imports nothing: the page imports the package from the site's zip (mkdocs_hooks/site.py) for its
three plain-Python modules, so importing it there must not pull in numpy or the engine's other modules. The
engine imports nothing from ``probierlabor``; the page's „Eigener Lauf“ (probierlabor/live) calls it.

Modules, each readable on its own:

* ``model``      – a tiny Llama-architecture transformer (RMSNorm, RoPE, MHA/GQA/MQA, SwiGLU)
* ``toy``        – the Decode article's three-token toy model with the same interface
* ``tokenizer``  – one token per character, so traces stay readable
* ``block_pool`` – paged KV-cache bookkeeping: block tables, reference counts, LRU, prefix cache
* ``paged_kv``   – the K/V numbers, stored per physical block
* ``attention``  – dense and tiled (FlashAttention) kernels; no-cache and paged backends
* ``generate``   – greedy generation of one sequence by full recompute or through the paged cache
* ``scheduler``  – continuous batching under a token budget, chunked prefill, preemption; static baseline
* ``engine``     – the step loop (``LLMEngine``) tying model, block pool, scheduler and sampler together
* ``sampler``    – greedy, temperature, top-k, top-p with an explicit seeded generator
* ``speculative``– speculative decoding: draft proposals, one target verification, exact correction
* ``acceptance`` – its accept/reject rule and balance in plain Python (shared with the concept page)
* ``tracer``     – a run as a schema-versioned JSON trace; replay checks; Chrome/Perfetto export
* ``scenarios``  – the recorded runs in static/traces/ (the articles' examples, realistic workloads)
* ``workloads``  – seeded request mixes shared by scenarios and benchmarks
* ``bench``      – the engine benchmarks of ``make bench``
* ``cli``        – ``python -m engine list | record | record-all | validate | export-chrome | bench``
* ``torch_backend``, ``triton_kernels`` – the same model and kernels in PyTorch and Triton (GPU; ``make test-peer``)

See ``engine/README.md``.
"""
