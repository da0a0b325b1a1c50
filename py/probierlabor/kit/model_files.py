"""What a reader is told when the files of the site's trained model are damaged (``engine.pretrained.WeightsError``:
a file that does not match MANIFEST.json or cannot be read): one German message for every block that loads
them in the worker („Am echten Modell“: static/py/realmodel_run.py; „Eigener Lauf“: static/py/engine_run.py).
The block says it in place of its result; the rest of the page goes on."""

from __future__ import annotations

DAMAGED = ("Die Dateien des Sprachmodells auf dieser Website sind beschädigt oder wurden verändert, deshalb kann es "
           "hier nicht rechnen. Lade die Seite neu. Hilft das nicht, muss die Website neu kopiert werden "
           "(zum Beispiel noch einmal vom USB-Stick): Sag dann deiner Lehrkraft Bescheid.")
