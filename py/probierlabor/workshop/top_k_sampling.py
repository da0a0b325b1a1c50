# Top-k-Sampling: Nur die k besten Tokens bleiben, neu verteilt – und dann wird wirklich gezogen
import random

import numpy as np
import matplotlib.pyplot as plt

# Einstellungen aus dem Experiment (ändere sie ruhig):
k = 2
row = 'artikel'
n = 1000
seed = 1
dist = []

zeilen = {"artikel": [0.5, 0.3, 0.12, 0.08], "steil": [0.9, 0.05, 0.03, 0.02],
          "flach": [0.28, 0.26, 0.24, 0.22], "gleichstand": [0.35, 0.35, 0.15, 0.15]}
wahrsch = np.array(dist if dist else zeilen[row])  # eine eigene Verteilung ersetzt die Zeile
tokens = list("ABCDEFGH"[:len(wahrsch)])

# raus fliegt nur, wer echt unter dem k-ten Wert liegt: Gleichstände an der Grenze bleiben
kte = np.sort(wahrsch)[::-1][min(k, len(wahrsch)) - 1]
behalten = wahrsch >= kte
neu = np.where(behalten, wahrsch, 0) / wahrsch[behalten].sum()
print(f"Behalten: {behalten.sum()}")
print(f"Abgedeckte Masse: {wahrsch[behalten].sum():.4f}".replace(".", ","))
for token, wert in zip(tokens, neu):
    print(f"Neu {token}: {wert:.4f}".replace(".", ","))

# ziehen: Zufallszahl u, genommen wird das erste Token, dessen Summe bis hier u übersteigt
zufall = random.Random(seed)
u = np.array([zufall.random() for _ in range(n)])
gezogen = np.minimum(np.searchsorted(np.cumsum(neu), u, side="right"), np.flatnonzero(behalten)[-1])
anzahl = np.bincount(gezogen, minlength=len(tokens))
for token, zahl in zip(tokens, anzahl):
    print(f"Gezogen {token}: {zahl}")

x = np.arange(len(tokens))
figur, achse = plt.subplots(figsize=(6, 3.5))
achse.bar(x - 0.27, wahrsch, 0.27, color="#bbbbbb", label="vorher")
achse.bar(x, neu, 0.27, color="#0066a1", label=f"nach Top-{k}")
achse.bar(x + 0.27, anzahl / n, 0.27, color="#d0021b", label=f"Anteil in {n} Zügen")
achse.set_xticks(x, tokens)
achse.yaxis.set_major_formatter(lambda y, _: f"{y:g}".replace(".", ","))
achse.legend()
plt.show()
