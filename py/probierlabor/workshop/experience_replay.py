# Experience Replay: Welche Abteilungen landen in einer Trainingsportion?
import itertools
import random

import numpy as np
import matplotlib.pyplot as plt

# Einstellungen aus dem Experiment (ändere sie ruhig):
replay = False
swap = False
take = 4
seed = 7

neu = ["Reklamationen"] * 4  # die vier neuen Nachrichten
# der Puffer: vier gespeicherte alte Nachrichten; beim Tausch sind zwei davon Rücksendungen
puffer = ["Lieferung"] * 2 + (["Rücksendungen"] * 2 if swap else ["Lieferung"] * 2)
if not replay:
    wiederholt = []
elif take >= len(puffer):
    wiederholt = puffer
else:  # eine zufällige Auswahl aus dem Puffer
    wiederholt = [puffer[i] for i in sorted(random.Random(seed).sample(range(len(puffer)), take))]
portion = neu + wiederholt
abteilungen = ["Reklamationen", "Lieferung", "Rücksendungen"]
anzahl = [portion.count(a) for a in abteilungen]
print(f"Portion: {len(portion)} Nachrichten")
print(f"Wiederholt: {len(wiederholt)}")
print(f"Anteil wiederholt: {len(wiederholt) / len(portion):.4f}".replace(".", ","))
for abteilung, n in zip(abteilungen, anzahl):
    print(f"{abteilung}: {n}")
# exakte Wahrscheinlichkeit: welcher Teil aller gleich wahrscheinlichen Auswahlen enthält beide alten Abteilungen?
auswahlen = list(itertools.combinations(puffer, min(take, len(puffer))))
gute = sum({"Lieferung", "Rücksendungen"} <= set(a) for a in auswahlen)
print(f"Wahrscheinlichkeit für beide alten Abteilungen: {gute / len(auswahlen) if replay else 0:.4f}".replace(".", ","))

fig, ax = plt.subplots(figsize=(6, 3.5))
ax.bar(abteilungen, anzahl, color=["#0066a1", "#bbbbbb", "#d0021b"])
ax.set(ylabel="Nachrichten in der Portion", yticks=np.arange(0, 5))
ax.set_title(f"{len(wiederholt)} von {len(portion)} Nachrichten sind Wiederholungen")
plt.show()
