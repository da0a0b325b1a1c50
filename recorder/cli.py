"""The engine's command line.

    python -m recorder list                         # the scenarios, one line each
    python -m recorder record NAME [NAME …]         # record into static/traces/NAME.json
    python -m recorder record-all                   # every scenario (the one documented command)
        [--backend numpy|torch] [--device cpu|cuda] # torch: the realistic workloads on PyTorch (a GPU
                                                    # when there is one); record-all keeps numpy for the rest
    python -m recorder validate [FILE …]            # schema + replay invariants (default: all committed traces)
    python -m recorder export-chrome FILE [-o OUT]  # Chrome Trace Event format, opens in Perfetto
    python -m recorder bench [ARGS …]               # the engine benchmarks (recorder/bench.py)

Exit status 2 with a one-line message for an unknown scenario, a missing or invalid trace.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine import backends
from recorder import scenarios, tracer


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m recorder", description="Probierlabor recorder: the engine's traces and benchmarks")
    sub = p.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="list the scenarios")
    rec = sub.add_parser("record", help="record scenarios")
    rec.add_argument("names", nargs="+")
    rec_all = sub.add_parser("record-all", help="record every scenario")
    for command in (rec, rec_all):
        command.add_argument("--dir", type=Path, default=scenarios.TRACES_DIR)
        command.add_argument("--backend", choices=backends.NAMES, default="numpy",
                             help="where the tiny Llama model computes (torch: needs PyTorch)")
        command.add_argument("--device", help="torch only: cpu, cuda, cuda:1 … (default: the GPU if there is one)")
    val = sub.add_parser("validate", help="check traces against the schema and the replay invariants")
    val.add_argument("files", nargs="*", type=Path)
    exp = sub.add_parser("export-chrome", help="convert a trace to the Chrome Trace Event format")
    exp.add_argument("file", type=Path)
    exp.add_argument("-o", "--output", type=Path)
    sub.add_parser("bench", help="run the engine benchmarks (options: python -m recorder bench --help)")
    return p


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["bench"]:  # its options are bench.py's own (argparse would claim them here)
        from recorder import bench
        return bench.main(argv[1:]) or 0
    args = _parser().parse_args(argv)
    try:
        return _run(args)
    except (ValueError, OSError) as e:  # TraceError and JSONDecodeError are ValueErrors
        print("Fehler: " + " ".join(str(e).split()), file=sys.stderr)  # one line, whatever the file held
        return 2


def _run(args) -> int:
    if args.command == "list":
        for s in scenarios.SCENARIOS.values():
            meta = s.meta()
            print(f"{s.name:40} {', '.join(meta['concepts']):45} {meta['title']}")
    elif args.command in ("record", "record-all"):
        names = list(scenarios.SCENARIOS) if args.command == "record-all" else args.names
        chosen = backends.get(args.backend, args.device)
        plan = {}
        for name in names:  # fail on a typo or an impossible backend before recording anything
            s = scenarios.get(name)
            if args.command == "record":  # record-all takes torch where it can and numpy elsewhere
                s.check_backend(chosen)
            plan[name] = chosen if s.torch else backends.NUMPY
        for name, backend in plan.items():
            path = scenarios.record(name, args.dir, backend)
            print(f"{path}  {path.stat().st_size / 1024:.1f} KB  ({backend.name})")
    elif args.command == "validate":
        files = args.files or sorted(scenarios.TRACES_DIR.glob("*.json"))
        if not files:
            raise ValueError(f"keine Traces gefunden in {scenarios.TRACES_DIR}")
        for path in files:
            trace = tracer.load(path)
            try:
                tracer.validate(trace)
            except tracer.TraceError as e:
                raise tracer.TraceError(f"{path}: {e}") from None
            print(f"ok  {path}  ({trace['result']['num_steps']} Schritte)")
    elif args.command == "export-chrome":
        trace = tracer.load(args.file)
        tracer.validate(trace)  # to_chrome trusts the layout, as the replay does
        chrome = tracer.to_chrome(trace)
        out = args.output or args.file.with_suffix(".chrome.json")
        out.write_text(json.dumps(chrome, ensure_ascii=False, allow_nan=False), encoding="utf-8")
        print(f"{out}  ({len(chrome['traceEvents'])} Ereignisse) – öffnen mit https://ui.perfetto.dev oder chrome://tracing")
    return 0
