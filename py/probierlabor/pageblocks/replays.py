"""The recorded runs as the pages present them, by scenario name (recorder/scenarios.py records them): the
German title a replay panel shows, what to watch for, and the pages (concept slugs) that show the run.

The recorder stamps these texts into a trace's header when it records the run, so a trace says what it is
wherever it is replayed (the twin timelines name each run by it); the test that re-records every scenario
(tests/recorder/test_recorder_tracer.py) fails when a text here and its committed trace disagree. Data
only, no imports: the recorder reads this table and nothing else of the page side.
"""

from __future__ import annotations

from typing import NamedTuple


class Replay(NamedTuple):
    title: str
    description: str
    concepts: tuple[str, ...]  # the slugs of the pages that show the run


REPLAYS: dict[str, Replay] = {
    "decode-toy": Replay(
        "Decode mit dem Spielzeugmodell",
        "Prompt A B, dann greedy: A, B, A, … Jeder Schritt rechnet K/V nur für die neue Position; der "
        "Cache wächst um genau eine Position pro Schritt.",
        ("decode", "kv-cache")),
    "kv-cache-growth": Replay(
        "Der KV-Cache wächst mit jedem Token",
        "Ein Prompt, elf neue Tokens mit dem trainierten Sprachmodell der Seite (GQA): Prefill schreibt K"
        " und V aller Prompt-Positionen auf einmal, danach kommt pro Schritt eine Position dazu, alle "
        "vier Positionen ein neuer Block.",
        ("kv-cache", "decode")),
    "prefill-mean-whole": Replay(
        "Prefill in einem Durchgang",
        "Werte 2, 4, 8, 10 in einem Schritt: jede Position mittelt über die sichtbaren Werte, Ausgaben 2;"
        " 3; 14/3; 6.",
        ("prefill",)),
    "prefill-mean-chunks": Replay(
        "Prefill in Stücken zu zwei Positionen",
        "Dieselben Werte mit einem Token-Budget von 2: der zweite Schritt liest die Positionen 0 und 1 "
        "aus dem Cache und kommt auf dieselben Ausgaben 14/3 und 6.",
        ("prefill",)),
    "prefill-interleaved": Replay(
        "Chunked Prefill zwischen Decode-Schritten",
        "Drei kurze Anfragen decodieren schon, als ein langer Prompt ankommt. Mit einem Budget von 8 "
        "Tokens pro Schritt läuft sein Prefill in Stücken, die sich den Schritt mit den Decodes teilen.",
        ("prefill", "continuous-batching", "ttft")),
    "paged-attention-blocks": Replay(
        "Blocktabellen wachsen blockweise",
        "Zwei Anfragen mit Blöcken zu 4 Positionen: Position 4 braucht einen zweiten Block, und die "
        "Blöcke einer Anfrage liegen nicht nebeneinander im Pool.",
        ("paged-attention", "kv-cache")),
    "prefix-caching-article": Replay(
        "Präfix-Cache: A … H, dann X an jeder Stelle",
        "Erst wird ABCDEFGH gerechnet (der Tokenizer macht aus jedem Buchstaben ein Token) und in Blöcken"
        " zu 2 zwischengespeichert. Dann ersetzt X nacheinander jede Position: X an Stelle H nutzt 6 "
        "Tokens aus dem Cache, X an Stelle A keines.",
        ("prefix-caching",)),
    "continuous-batching-article": Replay(
        "Continuous Batching: zwei Plätze, A, B und C",
        "A braucht 6 Runden, B 2, C kommt bei Runde 1 an und braucht 2. Sobald B fertig ist, rückt C nach"
        " und läuft in den Runden 2 bis 4.",
        ("continuous-batching",)),
    "continuous-batching-article-static": Replay(
        "Statisches Batching: dieselben drei Anfragen",
        "Eine neue Gruppe beginnt erst, wenn die ganze alte fertig ist: C wartet auf A und läuft in den "
        "Runden 6 bis 8.",
        ("continuous-batching",)),
    "flash-attention-tiles": Replay(
        "Online-Softmax Kachel für Kachel",
        "Das trainierte Sprachmodell rechnet mit Kacheln zu 4 Keys. Gezeigt: Schicht 1, Kopf 1, die "
        "jeweils letzte Position – laufendes Maximum m, Summe l und Zähler u nach jeder Kachel; u/l am "
        "Ende ist genau die dichte Attention.",
        ("flash-attention",)),
    "speculative-decoding-pq": Replay(
        "Speculative Decoding mit dem Beispielpaar p und q",
        "Zielmodell p = [0,2; 0,5; 0,3], Entwurf q = [0,6; 0,3; 0,1] an jeder Position, k = 2 Vorschläge "
        "pro Runde. A wird nur mit Wahrscheinlichkeit 1/3 angenommen; nach einer Ablehnung kommt die "
        "Korrektur aus max(0, p − q), also B oder C.",
        ("speculative-decoding",)),
    "speculative-decoding-tiny": Replay(
        "Speculative Decoding mit dem trainierten Modellpaar",
        "Zielmodell: das trainierte Sprachmodell der Seite; Entwurf: ein etwa neunmal kleineres Modell, "
        "das von ihm gelernt hat. Greedy mit k = 4: angenommen wird, was das Zielmodell selbst gewählt "
        "hätte – die Ausgabe ist Token für Token die des Zielmodells.",
        ("speculative-decoding",)),
    "gqa-kv-mha": Replay(
        "MHA: acht K/V-Köpfe, einer pro Query-Kopf",
        "Dieselben drei Anfragen; wie viele Bytes der KV-Cache pro Token braucht, hängt nur an der Zahl "
        "der K/V-Köpfe. Jeder K/V-Kopf des trainierten Modells ist für jeden Query-Kopf seiner Gruppe "
        "kopiert: dieselben Tokens, viermal so viel Cache.",
        ("gqa", "mqa")),
    "gqa-kv-gqa": Replay(
        "GQA: zwei K/V-Köpfe für acht Query-Köpfe",
        "Dieselben drei Anfragen; wie viele Bytes der KV-Cache pro Token braucht, hängt nur an der Zahl "
        "der K/V-Köpfe. So ist das Sprachmodell der Seite trainiert.",
        ("gqa", "mqa")),
    "mqa-kv-mqa": Replay(
        "MQA: ein K/V-Kopf für alle acht Query-Köpfe",
        "Dieselben drei Anfragen; wie viele Bytes der KV-Cache pro Token braucht, hängt nur an der Zahl "
        "der K/V-Köpfe. Die zwei K/V-Köpfe des trainierten Modells sind gemittelt, ohne Nachtraining: "
        "halb so viel Cache, aber der Text ändert sich.",
        ("gqa", "mqa")),
    "continuous-batching-realistic": Replay(
        "16 Anfragen, gemischte Längen, gestaffelte Ankunft",
        "Continuous Batching mit höchstens 4 Sequenzen und 16 Tokens pro Schritt: Anfragen steigen ein, "
        "sobald ein Platz frei wird, und verlassen den Batch, sobald sie fertig sind; lange Prompts "
        "laufen in Stücken.",
        ("continuous-batching", "ttft", "paged-attention", "prefill")),
    "continuous-batching-realistic-static": Replay(
        "Dieselben 16 Anfragen, statisches Batching",
        "Eine neue Gruppe startet erst, wenn die letzte ganz fertig ist: kurze Anfragen warten auf lange.",
        ("continuous-batching", "ttft")),
    "prefix-caching-shared": Replay(
        "Gemeinsamer System-Prompt",
        "Alle Anfragen beginnen mit demselben System-Prompt. Die erste rechnet ihn, alle späteren finden "
        "seine vollen Blöcke im Präfix-Cache und rechnen nur ihren eigenen Teil.",
        ("prefix-caching",)),
    "paged-attention-pressure": Replay(
        "Speicherdruck: Verdrängen und neu rechnen",
        "Der Block-Pool ist zu klein für alle laufenden Anfragen. Wenn Blöcke fehlen, wird die zuletzt "
        "aufgenommene Anfrage verdrängt, ihre Blöcke werden frei, später rechnet sie ihren Text neu.",
        ("paged-attention", "continuous-batching")),
}
