"""Trains the site's two language models on CPU: the target, and a draft distilled from it.

Both are Transformers' ``LlamaForCausalLM`` built from ``engine.model.ModelConfig.to_hf()``, so every
parameter already carries the engine's name and ``[out, in]`` layout; ``model.export`` turns the best
checkpoints into the engine's float16 files. Run with ``make model`` (in ``.venv-peer``, which has torch):

    .venv-peer/bin/python -m model.train --corpus out/model/corpus --out out/model [--smoke]

What makes a run repeatable: one seed for the initial weights and one for the order of the training
windows (a ``torch.Generator``, nothing from global state), two threads, a fixed number of steps, and
the held-out loss measured on the same windows every time. The best held-out checkpoint is kept, so a
run that starts to overfit late hands over its earlier, better weights.

The draft learns from the target rather than from the text alone (knowledge distillation, Hinton et
al. 2015): at every position it is pulled towards the target's whole next-token distribution
(KL(p_target ‖ q_draft) at temperature ``DISTILL_T``), not only towards the one token that happened to
follow. Speculative decoding accepts a proposal with probability min(1, p/q), so a draft whose q is
close to the target's p — not just good at the text — is what raises the acceptance rate.
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import json
import math
import os
import platform
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import torch
import transformers

from engine.bpe import ByteBPE
from engine.model import ModelConfig


@dataclass(frozen=True)
class Schedule:
    steps: int
    batch_size: int
    context: int  # tokens per training window (the model sees context tokens, predicts the next of each)
    lr: float
    warmup: int  # linear warm-up steps, then cosine decay to lr · min_lr_ratio
    min_lr_ratio: float = 0.1
    weight_decay: float = 0.1
    grad_clip: float = 1.0
    eval_every: int = 100
    seed: int = 1


def target_config(vocab_size: int) -> ModelConfig:
    # 4 layers, 8 query heads over 2 K/V heads (GQA, as the gqa page explains), SwiGLU 512 wide: about 2 M
    # parameters, small enough to see several passes over the corpus in the time budget.
    return ModelConfig(vocab_size=vocab_size, hidden_size=192, num_layers=4, num_heads=8, num_kv_heads=2,
                       head_dim=32, intermediate_size=512, dtype="float32", seed=0)


def draft_config(vocab_size: int) -> ModelConfig:
    # About a tenth of the target: narrower, half the layers, one K/V head (MQA).
    return ModelConfig(vocab_size=vocab_size, hidden_size=64, num_layers=2, num_heads=4, num_kv_heads=1,
                       head_dim=16, intermediate_size=192, dtype="float32", seed=0)


TARGET_SCHEDULE = Schedule(steps=1800, batch_size=16, context=256, lr=2e-3, warmup=100)
DRAFT_SCHEDULE = Schedule(steps=800, batch_size=16, context=256, lr=3e-3, warmup=60, weight_decay=0.0)
SMOKE = {"target": {"steps": 60, "eval_every": 20, "warmup": 10},
         "draft": {"steps": 40, "eval_every": 20, "warmup": 5}}
DISTILL_T = 1.0  # T = 1: the draft matches the very distribution the target samples from at temperature 1
EVAL_WINDOWS = 48  # held-out windows scored at every evaluation (fixed, evenly spread over the held-out text)
THREADS = 2
VOCAB_SIZE = 1024  # BPE: 256 bytes + 768 merges, the most the issue allows: more whole words per token


def read_corpus(folder: Path) -> tuple[str, str]:
    """Train and held-out text as ``python -m model.corpus --out FOLDER`` wrote them (model/DATA.md): the
    corpus is built in the site's virtualenv, which can import the pages' lessons; this one has torch."""
    return tuple((folder / f"{side}.txt").read_text(encoding="utf-8") for side in ("train", "heldout"))


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def build_hf(config: ModelConfig) -> transformers.LlamaForCausalLM:
    torch.manual_seed(config.seed)
    hf_config = transformers.LlamaConfig(**config.to_hf(), max_position_embeddings=1024)
    return transformers.LlamaForCausalLM(hf_config)


def num_params(model: torch.nn.Module) -> int:
    return sum(p.numel() for p in model.parameters())


def eval_windows(ids: torch.Tensor, context: int, count: int) -> torch.Tensor:
    """``count`` windows of context + 1 tokens, evenly spread over ``ids`` (the same in every run)."""
    starts = torch.linspace(0, len(ids) - context - 1, count).long()
    return torch.stack([ids[s:s + context + 1] for s in starts])


def batch(ids: torch.Tensor, schedule: Schedule, generator: torch.Generator) -> torch.Tensor:
    starts = torch.randint(0, len(ids) - schedule.context - 1, (schedule.batch_size,), generator=generator)
    return torch.stack([ids[s:s + schedule.context + 1] for s in starts])


def lr_at(step: int, s: Schedule) -> float:
    if step < s.warmup:
        return s.lr * (step + 1) / s.warmup
    progress = (step - s.warmup) / max(1, s.steps - s.warmup)
    return s.lr * (s.min_lr_ratio + (1 - s.min_lr_ratio) * 0.5 * (1 + math.cos(math.pi * progress)))


@torch.no_grad()
def heldout_loss(model, windows: torch.Tensor) -> float:
    model.eval()
    total = 0.0
    for chunk in windows.split(16):
        logits = model(chunk[:, :-1]).logits
        total += torch.nn.functional.cross_entropy(
            logits.reshape(-1, logits.shape[-1]), chunk[:, 1:].reshape(-1), reduction="sum").item()
    model.train()
    return total / (windows.shape[0] * (windows.shape[1] - 1))


def distill_loss(student_logits, teacher_logits, temperature: float):
    """KL(p_teacher ‖ q_student) at temperature T, times T² (Hinton et al.: keeps gradients comparable)."""
    v = student_logits.shape[-1]
    log_q = torch.log_softmax(student_logits.reshape(-1, v) / temperature, dim=-1)
    log_p = torch.log_softmax(teacher_logits.reshape(-1, v) / temperature, dim=-1)
    return torch.nn.functional.kl_div(log_q, log_p, log_target=True, reduction="batchmean") * temperature ** 2


def train(model, train_ids, windows, schedule: Schedule, teacher=None, label="") -> dict:
    """AdamW, warm-up + cosine, gradient clipping; returns the curve and the best state (held-out loss)."""
    decay = [p for n, p in model.named_parameters() if p.ndim == 2]
    no_decay = [p for n, p in model.named_parameters() if p.ndim < 2]  # norm weights
    optimizer = torch.optim.AdamW([{"params": decay, "weight_decay": schedule.weight_decay},
                                   {"params": no_decay, "weight_decay": 0.0}], lr=schedule.lr, betas=(0.9, 0.95))
    generator = torch.Generator().manual_seed(schedule.seed)
    curve, best, running, start = [], None, [], time.perf_counter()
    model.train()
    for step in range(schedule.steps):
        for group in optimizer.param_groups:
            group["lr"] = lr_at(step, schedule)
        x = batch(train_ids, schedule, generator)
        logits = model(x[:, :-1]).logits
        ce = torch.nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), x[:, 1:].reshape(-1))
        if teacher is None:
            loss = ce
        else:
            with torch.no_grad():
                teacher_logits = teacher(x[:, :-1]).logits
            loss = distill_loss(logits, teacher_logits, DISTILL_T)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), schedule.grad_clip)
        optimizer.step()
        running.append(ce.item())
        if (step + 1) % schedule.eval_every == 0 or step + 1 == schedule.steps:
            held = heldout_loss(model, windows)
            point = {"step": step + 1, "tokens": (step + 1) * schedule.batch_size * schedule.context,
                     "train_loss": sum(running) / len(running), "heldout_loss": held,
                     "seconds": round(time.perf_counter() - start, 1)}
            curve.append(point)
            running = []
            if best is None or held < best["heldout_loss"]:
                best = {**point, "state": copy.deepcopy(model.state_dict())}
            print(f"{label} step {point['step']:5d}  train {point['train_loss']:.3f}  held-out {held:.3f}  "
                  f"{point['seconds']:.0f} s", flush=True)
    state = best.pop("state")
    model.load_state_dict(state)
    return {"curve": curve, "best": best, "seconds": round(time.perf_counter() - start, 1)}


def save_npz(model, path: Path) -> None:
    state = {k: v.detach().to(torch.float32).numpy() for k, v in model.state_dict().items() if "rotary_emb" not in k}
    np.savez(path, **state)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=Path("out/model/corpus"),
                        help="train.txt and heldout.txt from `python -m model.corpus --out`")
    parser.add_argument("--out", type=Path, default=Path("out/model"))
    parser.add_argument("--smoke", action="store_true", help="a few steps only: proves the pipeline, not the model")
    args = parser.parse_args(argv)
    torch.set_num_threads(THREADS)
    args.out.mkdir(parents=True, exist_ok=True)
    load_before = os.getloadavg()

    train_text, heldout_text = read_corpus(args.corpus)
    started = time.perf_counter()
    tokenizer = ByteBPE.train(train_text, VOCAB_SIZE)
    bpe_s = time.perf_counter() - started
    train_ids = torch.tensor(tokenizer.encode(train_text), dtype=torch.long)
    heldout_ids = torch.tensor(tokenizer.encode(heldout_text), dtype=torch.long)
    tokenize_s = time.perf_counter() - started - bpe_s
    print(f"corpus: {len(train_ids)} train / {len(heldout_ids)} held-out tokens, vocabulary "
          f"{tokenizer.vocab_size} (BPE trained in {bpe_s:.1f} s, text encoded in {tokenize_s:.1f} s)", flush=True)

    schedules = {"target": TARGET_SCHEDULE, "draft": DRAFT_SCHEDULE}
    if args.smoke:
        schedules = {name: Schedule(**{**asdict(s), **SMOKE[name]}) for name, s in schedules.items()}
    configs = {"target": target_config(tokenizer.vocab_size), "draft": draft_config(tokenizer.vocab_size)}
    log = {"smoke": args.smoke, "corpus_sha256": {"train": sha256(train_text), "heldout": sha256(heldout_text)},
           "bpe_seconds": round(bpe_s, 1), "train_tokens": len(train_ids), "heldout_tokens": len(heldout_ids),
           "distill_temperature": DISTILL_T, "eval_windows": EVAL_WINDOWS, "threads": THREADS,
           "machine": {"cpu_count": os.cpu_count(), "platform": platform.platform(), "torch": torch.__version__,
                       "transformers": transformers.__version__, "load_average_before": load_before},
           "models": {}}
    models = {}
    for name in ("target", "draft"):
        config, schedule = configs[name], schedules[name]
        windows = eval_windows(heldout_ids, schedule.context, EVAL_WINDOWS)
        model = build_hf(config)
        teacher = models.get("target") if name == "draft" else None
        result = train(model, train_ids, windows, schedule, teacher=teacher, label=name)
        models[name] = model.eval()
        log["models"][name] = {"config": config.to_dict(), "parameters": num_params(model),
                               "schedule": asdict(schedule), "distilled_from": "target" if teacher else None,
                               **result}
        save_npz(model, args.out / f"{name}.npz")
        print(f"{name}: {num_params(model)} parameters, best held-out {result['best']['heldout_loss']:.3f} "
              f"at step {result['best']['step']}, {result['seconds']:.0f} s", flush=True)
    log["load_average_after"] = os.getloadavg()
    log["total_seconds"] = round(time.perf_counter() - started, 1)
    (args.out / "tokenizer.json").write_text(tokenizer.to_json(), encoding="utf-8")
    (args.out / "heldout.txt").write_text(heldout_text, encoding="utf-8")
    (args.out / "train_log.json").write_text(json.dumps(log, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
