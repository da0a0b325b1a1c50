"""Probierlabor's small inference engine (numpy; never loaded by the browser).

Modules, each readable on its own:

* ``model``      – a tiny Llama-architecture transformer (RMSNorm, RoPE, MHA/GQA/MQA, SwiGLU)
* ``toy``        – the Decode article's three-token toy model with the same interface
* ``tokenizer``  – one token per character, so traces stay readable
* ``block_pool`` – paged KV-cache bookkeeping: block tables, reference counts, LRU, prefix cache
* ``kv_cache``   – the K/V numbers, stored per physical block
* ``attention``  – dense and tiled (FlashAttention) kernels; no-cache and paged backends
* ``generate``   – greedy generation of one sequence by full recompute or through the paged cache
* ``scheduler``  – continuous batching under a token budget, chunked prefill, preemption; static baseline
* ``engine``     – the step loop (``LLMEngine``) tying model, block pool, scheduler and sampler together
* ``sampler``    – greedy, temperature, top-k, top-p with an explicit seeded generator
* ``speculative``– speculative decoding: draft proposals, one target verification, exact correction

See ``engine/README.md``.
"""
