# Reservoir Sampling: Wie oft landet jede der 20 Nachrichten im Speicher mit k Plätzen?
import math
import random

import numpy as np
import matplotlib.pyplot as plt

# Einstellungen aus dem Experiment (ändere sie ruhig):
k = 4
strategy = 'reservoir'
runs = 2000
seed = 2024

N, ruecksendungen = 20, [9, 15]  # 20 Nachrichten; alle außer 9 und 15 betreffen die Lieferung
zufall = random.Random(seed)

def speicher():  # die Positionen (1 bis 20), die am Ende im Speicher liegen
    if strategy == "first":
        return list(range(1, k + 1))
    if strategy == "last":
        return list(range(N - k + 1, N + 1))
    plaetze = list(range(1, k + 1))  # die ersten k kommen ohne Losen hinein
    for t in range(k + 1, N + 1):
        j = zufall.randrange(t)      # Nachricht t kommt mit Chance k/t hinein ...
        if j < k:
            plaetze[j] = t           # ... und verdrängt einen zufälligen Platz
    return plaetze

zaehler, ohne_ruecksendung = np.zeros(N + 1), 0
for plaetze in (speicher() for _ in range(runs)):
    zaehler[plaetze] += 1
    ohne_ruecksendung += not set(ruecksendungen) & set(plaetze)
anteil = zaehler[1:] / runs
print(f"Keine Rücksendung behalten: {100 * ohne_ruecksendung / runs:.2f} %".replace(".", ","))
if strategy == "reservoir":
    print(f"Exakt: {100 * math.comb(N - 2, k) / math.comb(N, k):.2f} %".replace(".", ","))
print(f"Größte Abweichung vom Balken k/N: {100 * np.abs(anteil - k / N).max():.2f} Prozentpunkte".replace(".", ","))

fig, ax = plt.subplots(figsize=(7, 3.5))
positionen = np.arange(1, N + 1)
ax.bar(positionen, 100 * anteil, color=["#d0021b" if p in ruecksendungen else "#0066a1" for p in positionen])
ax.axhline(100 * k / N, color="#bbbbbb", ls="--", label=f"k/N = {100 * k / N:g} %".replace(".", ","))
ax.set(xlabel="Position im Strom (rot: Rücksendung)", ylabel="im Speicher (%)", xticks=positionen)
ax.legend()
plt.show()
