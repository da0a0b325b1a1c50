"""FlashAttention's tiles as trace events: a tiled kernel that remembers layer 0's tiles of a step.

The flash-attention page replays, step by step, how the online softmax of one query walks through
the keys: the running maximum m, the sum l and the numerator u after every tile, and at the end u/l.
The engine's kernels compute these anyway (``attention.tiled_attention`` with a record list); this
module keeps those of layer 0, head 0, the step's last query, and hands them to the trace as ``tile``
events. One sequence per step (``max_num_seqs = 1``): the first kernel call of a step is then its
layer 0.
"""

from __future__ import annotations

import numpy as np

from engine.attention import tiled_attention


class TileRecorder:
    def __init__(self, tile_size: int):
        if isinstance(tile_size, bool) or not isinstance(tile_size, int) or tile_size < 1:
            raise ValueError(f"tile_size must be a positive integer, got {tile_size!r}")
        self.tile_size = tile_size
        self.calls: list[dict] = []

        def kernel(q, k, v, q_pos, k_pos, scale, causal=True, record=None):
            tiles: list[dict] = []
            out = tiled_attention(q, k, v, q_pos, k_pos, scale, causal, tiles, tile_size=tile_size)
            self.calls.append({"q_pos": np.asarray(q_pos), "tiles": tiles, "out": out})
            return out

        kernel.__name__ = f"tiled_{tile_size}"  # the trace's config names the kernel, the page reads its tile size
        self.kernel = kernel

    def events(self, record: dict) -> list[dict]:
        """The ``tile`` events of one engine step record (``LLMEngine.steps``); forgets the step's calls."""
        if not self.calls:
            return []
        layer0 = self.calls[0]
        self.calls.clear()
        seq = str(record["scheduled"][0]["seq"])
        row = len(layer0["q_pos"]) - 1
        events = []
        for i, t in enumerate(layer0["tiles"]):
            e = {"type": "tile", "seq": seq, "layer": 0, "head": 0, "query": int(layer0["q_pos"][row]),
                 "keys": [int(t["keys"][0]), int(t["keys"][1])], "m": float(t["m"][0, row]),
                 "l": float(t["l"][0, row]), "u": [float(x) for x in t["u"][0, row]]}
            if i == len(layer0["tiles"]) - 1:
                e["out"] = [float(x) for x in layer0["out"][row, 0]]
            events.append(e)
        return events
