"""Probierlabor's small inference engine (numpy; the page's own Python loads only ``acceptance``, ``tokenizer``
and ``bpe``).

This file imports nothing: the page imports the package from the site's zip (mkdocs_hooks/assemble.py) for its
three plain-Python modules, so importing it there must not pull in numpy or the engine's other modules. The
engine imports nothing from ``probierlabor`` or ``recorder`` (which records its runs as traces).

Modules, each readable on its own:

* ``model``      – a tiny Llama-architecture transformer (RMSNorm, RoPE, MHA/GQA/MQA, SwiGLU)
* ``tokenizer``  – one token per character, so traces stay readable
* ``bpe``        – the byte-level BPE of the trained model
* ``pretrained`` – the trained models' files, checked against their manifest and loaded
* ``block_pool`` – paged KV-cache bookkeeping: reference counts, LRU, prefix cache
* ``paged_kv``   – the K/V numbers, stored per physical block
* ``attention``  – dense and tiled (FlashAttention) kernels; no-cache and paged backends
* ``generate``   – greedy generation of one sequence by full recompute or through the paged cache
* ``scheduler``  – continuous batching under a token budget, chunked prefill, preemption; static baseline
* ``engine``     – the step loop (``LLMEngine``) tying model, block pool, scheduler and sampler together
* ``sampler``    – greedy, temperature, top-k, top-p with an explicit seeded generator
* ``speculative``– speculative decoding: draft proposals, one target verification, exact correction
* ``acceptance`` – its accept/reject rule and balance in plain Python (shared with the concept page)
* ``backends``, ``torch_backend``, ``triton_kernels`` – where the model computes: numpy, or PyTorch and Triton (GPU)

See ``engine/README.md``.
"""
