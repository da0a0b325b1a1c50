"""Exports a training run (``model/train.py``'s folder) as the engine's files and reports on it.

    .venv/bin/python -m model.export out/model

Writes ``model/weights/`` (float16 ``target.npz`` and ``draft.npz``, ``tokenizer.json``, ``heldout.txt``,
``MANIFEST.json``; see ``engine/pretrained.py``), the loss curve ``model/loss_curve.json`` and its figure
``model/loss_curve.png``, and the report between the markers in ``model/README.md``: sizes, times,
held-out perplexity and samples. Every number in the report is computed here by the numpy engine from
the exported float16 files, so the report describes exactly what the site serves.

The archives are written with a fixed timestamp (``np.savez`` stamps the current time), so exporting
the same weights twice gives the same sha256.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import zipfile
from pathlib import Path

import numpy as np

from engine import pretrained
from engine.bpe import ByteBPE
from engine.model import LlamaModel, ModelConfig, init_weights
from engine.sampler import SamplingParams, sample
from engine.speculative import PagedSequence
from model.wordcheck import real_word_share

HERE = Path(__file__).parent
EVAL_TOKENS = 2000  # the held-out slice: whole paragraphs of held-out text until at least this many tokens
EVAL_STRIDE = 30  # every 30th held-out paragraph, so the slice draws from all sources, not only the first
EVAL_DTYPE = "float64"  # the manifest's losses; the site computes in float32 (the test allows for it)
TEMPERATURES = (0.5, 0.8, 1.0)
SAMPLE_TOKENS = 40
SAMPLE_SEED = 31
BLOCK_SIZE = 16  # of the K/V cache the samples are generated with
# Does the model write German? Text sampled at T = 0.8 from 20 fixed German prompts; the share of its words
# of three or more letters that Debian's word list knows (model/wordcheck.py), for target, draft and the
# target's architecture with random weights (what a model that learnt nothing scores).
WORDCHECK_PROMPTS = (
    "Ein Sprachmodell", "Die Wahrscheinlichkeit", "Beim Dekodieren", "Der KV-Cache", "Das nächste Token",
    "Mit der Maus", "Wählen Sie", "Die Tabelle", "Wenn du", "Im Dialog", "Der Text", "Heute", "Das Modell",
    "Die Datei", "Eine Formel", "Klicken Sie auf", "Die Aufmerksamkeit", "In diesem Beispiel", "Der Lehrer",
    "Am Ende",
)
WORDCHECK_TEMPERATURE = 0.8
PROMPTS = WORDCHECK_PROMPTS[:4]  # the README's samples, at each of TEMPERATURES
REPORT = re.compile(r"(<!-- report: model/export\.py -->\n).*?(<!-- /report -->)", re.S)


def write_npz(path: Path, arrays: dict[str, np.ndarray]) -> None:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(arrays):
            info = zipfile.ZipInfo(name + ".npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            with archive.open(info, "w", force_zip64=True) as f:
                np.lib.format.write_array(f, np.ascontiguousarray(arrays[name]), allow_pickle=False)


def eval_slice(heldout: str, tokenizer: ByteBPE) -> str:
    lines, count = [], 0
    for line in heldout.splitlines(keepends=True)[::EVAL_STRIDE]:
        lines.append(line)
        count += len(tokenizer.encode(line))
        if count >= EVAL_TOKENS:
            break
    return "".join(lines)


def generate(model: LlamaModel, prompt: list[int], steps: int, temperature: float, rng) -> list[int]:
    """Sampling through the engine's paged KV cache: each step runs only the newest token (the word
    check, which the tests repeat, samples 800 tokens)."""
    ids = list(prompt)
    cached = PagedSequence(model, num_blocks=-(-(len(prompt) + steps) // BLOCK_SIZE), block_size=BLOCK_SIZE)
    for _ in range(steps):
        logits = cached.logits(ids, len(ids) - 1)[-1]
        ids.append(int(sample(logits, SamplingParams(temperature=temperature), rng)))
    return ids[len(prompt):]


def samples(model: LlamaModel, tokenizer: ByteBPE, prompts=PROMPTS, temperatures=TEMPERATURES) -> list[dict]:
    rng = np.random.default_rng(SAMPLE_SEED)
    return [{"prompt": p, "temperature": t, "text": tokenizer.decode(generate(model, tokenizer.encode(p),
                                                                               SAMPLE_TOKENS, t, rng))}
            for p in prompts for t in temperatures]


def real_words(model: LlamaModel, tokenizer: ByteBPE) -> dict:
    texts = [s["text"] for s in samples(model, tokenizer, WORDCHECK_PROMPTS, (WORDCHECK_TEMPERATURE,))]
    share, counted, known = real_word_share("\n".join(texts))
    return {"share": share, "counted": counted, "known": known}


def plot(log: dict, path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4), dpi=110)
    for name, color in (("target", "tab:blue"), ("draft", "tab:orange")):
        curve = log["models"][name]["curve"]
        tokens = [p["tokens"] / 1e6 for p in curve]
        ax.plot(tokens, [p["train_loss"] for p in curve], color=color, alpha=0.5, label=f"{name}: training")
        ax.plot(tokens, [p["heldout_loss"] for p in curve], color=color, label=f"{name}: held out")
        best = log["models"][name]["best"]
        ax.plot([best["tokens"] / 1e6], [best["heldout_loss"]], "o", color=color)
    ax.set_xlabel("tokens seen (millions)")
    ax.set_ylabel("cross-entropy (Nat per token)")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, metadata={"Software": None})
    plt.close(fig)


def report(index: dict, texts: dict[str, list[dict]]) -> str:
    t, r = index["training"], index["wordcheck"]["random_weights"]
    lines = []
    if index["smoke"]:
        lines += ["**Smoke run** (a few steps to prove the pipeline): these weights are *not* the trained models.", ""]
    lines += ["| | target | draft |", "|---|---|---|"]
    rows = [("parameters", lambda m: f"{m['parameters']:,}"),
            ("layers · hidden · heads (K/V)", lambda m: "{num_layers} · {hidden_size} · {num_heads} ({num_kv_heads})"
             .format(**m["config"])),
            ("training steps (best)", lambda m: f"{m['training']['schedule']['steps']} ({m['training']['best_step']})"),
            ("training time", lambda m: f"{m['training']['seconds'] / 60:.1f} min"),
            ("held-out loss (Nat/token)", lambda m: f"{m['heldout_loss']:.3f}"),
            ("held-out perplexity", lambda m: f"{m['heldout_perplexity']:.1f}"),
            (f"real German words at T = {WORDCHECK_TEMPERATURE}", lambda m: f"{m['real_words']['share']:.1%} of {m['real_words']['counted']}")]
    for label, cell in rows:
        lines.append(f"| {label} | {cell(index['models']['target'])} | {cell(index['models']['draft'])} |")
    lines += ["", f"Vocabulary {t['vocab_size']} (ln {t['vocab_size']} = {math.log(t['vocab_size']):.2f} Nat: "
              f"a model that knows nothing). Corpus (model/DATA.md): {t['train_tokens']:,} training tokens, "
              f"{t['heldout_tokens']:,} held out; the BPE trained on the training text in {t['bpe_seconds']:.0f} s. "
              f"Held-out loss from the float16 files by the numpy engine on "
              f"`model/weights/heldout.txt` ({index['eval']['tokens']} tokens, windows of {index['eval']['window']}). "
              f"Both models trained in {t['total_seconds'] / 60:.1f} min on {t['threads']} threads "
              f"(load average before/after: {t['load_average_before']:.1f} / {t['load_average_after']:.1f}).",
              "", f"Real German words (`model/wordcheck.py`): share of the words of three or more letters in text "
              f"sampled at T = {WORDCHECK_TEMPERATURE} from {len(WORDCHECK_PROMPTS)} fixed prompts "
              f"({SAMPLE_TOKENS} tokens each); the target's architecture with random weights (the engine's "
              f"`init_weights`) reaches {r['share']:.1%} of {r['counted']} (held-out loss {r['heldout_loss']:.2f}).",
              "", "![Loss curve](loss_curve.png)", ""]
    for name in ("target", "draft"):
        lines += [f"Samples of the {name} ({SAMPLE_TOKENS} tokens, seed {SAMPLE_SEED}):", "",
                  "| prompt | T | continuation |", "|---|---|---|"]
        for s in texts[name]:
            text = s["text"].replace("|", "\\|").replace("\n", "⏎")
            lines.append(f"| {s['prompt']} | {s['temperature']} | {text} |")
        lines.append("")
    return "\n".join(lines)


def export(run: Path, weights: Path = pretrained.WEIGHTS, readme: Path = HERE / "README.md") -> dict:
    log = json.loads((run / "train_log.json").read_text(encoding="utf-8"))
    tokenizer_json = (run / "tokenizer.json").read_text(encoding="utf-8")
    tokenizer = ByteBPE.from_json(tokenizer_json)
    heldout = eval_slice((run / "heldout.txt").read_text(encoding="utf-8"), tokenizer)
    ids = tokenizer.encode(heldout)
    window = log["models"]["target"]["schedule"]["context"]
    weights.mkdir(parents=True, exist_ok=True)
    (weights / "tokenizer.json").write_text(tokenizer_json, encoding="utf-8")
    (weights / "heldout.txt").write_text(heldout, encoding="utf-8")
    models, texts = {}, {}
    for name in pretrained.MODELS:
        entry = log["models"][name]
        with np.load(run / f"{name}.npz") as arrays:
            half = {key: arrays[key].astype(np.float16) for key in arrays.files}
        write_npz(weights / f"{name}.npz", half)
        model = LlamaModel(ModelConfig(**{**entry["config"], "dtype": EVAL_DTYPE}), half)
        loss = pretrained.mean_loss(model, ids, window)
        texts[name] = samples(model, tokenizer)
        models[name] = {"config": entry["config"], "parameters": entry["parameters"], "heldout_loss": loss,
                        "heldout_perplexity": math.exp(loss), "real_words": real_words(model, tokenizer),
                        "training": {"schedule": entry["schedule"], "distilled_from": entry["distilled_from"],
                                     "best_step": entry["best"]["step"], "seconds": entry["seconds"],
                                     "torch_heldout_loss": entry["best"]["heldout_loss"]}}
        print(f"{name}: held-out loss {loss:.4f} (perplexity {math.exp(loss):.1f}) from the float16 file")
    random_config = ModelConfig(**{**log["models"]["target"]["config"], "dtype": EVAL_DTYPE})
    random_model = LlamaModel(random_config, init_weights(random_config))
    random_words = real_words(random_model, tokenizer) | {"heldout_loss": pretrained.mean_loss(random_model, ids,
                                                                                                window)}
    files = sorted(["tokenizer.json", "heldout.txt"] + [f"{name}.npz" for name in pretrained.MODELS])
    index = {
        "smoke": log["smoke"],
        "files": {f: {"sha256": pretrained.sha256((weights / f).read_bytes()), "bytes": (weights / f).stat().st_size}
                  for f in files},
        "models": models,
        "eval": {"file": "heldout.txt", "tokens": len(ids), "window": window, "dtype": EVAL_DTYPE},
        "wordcheck": {"prompts": list(WORDCHECK_PROMPTS), "temperature": WORDCHECK_TEMPERATURE,
                      "tokens_per_prompt": SAMPLE_TOKENS, "seed": SAMPLE_SEED, "random_weights": random_words},
        "training": {key: log[key] for key in ("corpus_sha256", "bpe_seconds", "train_tokens", "heldout_tokens",
                                               "distill_temperature", "eval_windows", "threads", "machine",
                                               "total_seconds")}
                    | {"vocab_size": tokenizer.vocab_size, "load_average_before": log["machine"]["load_average_before"][0],
                       "load_average_after": log["load_average_after"][0]},
    }
    (weights / "MANIFEST.json").write_text(json.dumps(index, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    curve = {name: {"curve": e["curve"], "best": e["best"]} for name, e in log["models"].items()}
    (HERE / "loss_curve.json").write_text(json.dumps(curve, indent=1) + "\n", encoding="utf-8")
    plot(log, HERE / "loss_curve.png")
    text = readme.read_text(encoding="utf-8")
    if not REPORT.search(text):
        raise ValueError(f"{readme} lacks the report markers")
    readme.write_text(REPORT.sub(lambda m: m[1] + report(index, texts) + "\n" + m[2], text), encoding="utf-8")
    return index


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path, nargs="?", default=Path("out/model"))
    export(parser.parse_args(argv).run)


if __name__ == "__main__":
    main()
