# Reservoir Sampling: Wie oft landet jede der n Nachrichten im Speicher mit k Plätzen?
import math
import random
import numpy as np
import matplotlib.pyplot as plt

# Einstellungen aus dem Experiment (ändere sie ruhig):
k = 4
strategy = 'reservoir'
runs = 2000
seed = 2024
n = 20
returns = [9, 15]
# Rücksendungen an den Positionen in returns (hinter dem Ende zählen sie nicht), sonst Lieferungen
ruecksendungen, k = [r for r in returns if r <= n], min(k, n)  # mehr Plätze als Nachrichten: alle bleiben
zufall = random.Random(seed)

def speicher():  # die Positionen (1 bis n), die am Ende im Speicher liegen
    if strategy == "first":
        return list(range(1, k + 1))
    if strategy == "last":
        return list(range(n - k + 1, n + 1))
    plaetze = list(range(1, k + 1))  # die ersten k kommen ohne Losen hinein
    for t in range(k + 1, n + 1):
        j = zufall.randrange(t)      # Nachricht t kommt mit Wahrscheinlichkeit k/t hinein ...
        if j < k:
            plaetze[j] = t           # ... und verdrängt einen zufälligen Platz
    return plaetze

zaehler, ohne_ruecksendung = np.zeros(n + 1), 0
for plaetze in (speicher() for _ in range(runs)):
    zaehler[plaetze] += 1
    ohne_ruecksendung += not set(ruecksendungen) & set(plaetze)
anteil = zaehler[1:] / runs
print(f"Keine Rücksendung behalten: {100 * ohne_ruecksendung / runs:.2f} %".replace(".", ","))
if strategy == "reservoir":
    print(f"Exakt: {100 * math.comb(n - len(ruecksendungen), k) / math.comb(n, k):.2f} %".replace(".", ","))
print(f"Größte Abweichung vom Balken k/N: {100 * np.abs(anteil - k / n).max():.2f} Prozentpunkte".replace(".", ","))
fig, ax = plt.subplots(figsize=(7, 3.5))
positionen = np.arange(1, n + 1)
ax.bar(positionen, 100 * anteil, color=["#d0021b" if p in ruecksendungen else "#0066a1" for p in positionen])
ax.axhline(100 * k / n, color="#bbbbbb", ls="--", label=f"k/n = {100 * k / n:g} %".replace(".", ","))
ax.set(xlabel="Position im Strom (rot: Rücksendung)", ylabel="im Speicher (%)", xticks=positionen)
ax.legend()
plt.show()
