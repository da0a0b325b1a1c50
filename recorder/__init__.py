"""The recorder: runs the engine (engine/) on fixed scenarios and writes what it did as traces the inference
pages replay (static/traces/). Not part of the engine: the engine never imports it.

This file imports nothing: the browser's worker imports the trace writer from the site's zip for a reader's
own run, and that import must not pull in the scenarios.

* ``tracer``     – a run as a schema-versioned JSON trace (``trace.schema.json``); replay checks; Chrome export
* ``scenarios``  – the recorded runs in static/traces/, by name (their titles live with the pages that show them)
* ``workloads``  – seeded request mixes shared by scenarios, benchmarks and readers' own runs
* ``tile_trace`` – a tiled kernel that keeps the online softmax's m, l, u for ``tile`` events
* ``toy``        – hand-made models with known outputs: the Decode toy, the running mean, the constant p and q
* ``bench``      – the engine benchmarks of ``make bench``
* ``cli``        – ``python -m recorder list | record | record-all | validate | export-chrome | bench``

See ``recorder/README.md``.
"""
