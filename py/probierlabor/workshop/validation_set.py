# Validation Set: drei Regeln aus dem Heft, ihr mittlerer Fehler an Validierungs- und Testtagen
from itertools import combinations

import numpy as np
import matplotlib.pyplot as plt

# Einstellungen aus dem Experiment (ändere sie ruhig):
rule = 'curve'
fixed = 'none'
lam = 0

# (Temperatur in °C, verkaufte Kugeln)
tage = {"Heft": np.array([[20, 20], [22, 30], [24, 28]]),
        "Validierung": np.array([[21, 23], [23, 25], [25, 31]]),
        "Test": np.array([[19, 19], [26, 31]])}
T, y = tage["Heft"].T
namen = {"line": "Gerade", "curve": "Kurve", "mean": "Mittelwert"}

def fehler(regel, daten):  # mittlerer absoluter Fehler (MAE)
    return np.mean(np.abs(daten[:, 1] - np.polyval(regel, daten[:, 0])))

# Gerade: unter allen Geraden durch zwei Heft-Tage die mit dem kleinsten Fehler
geraden = [np.polyfit(T[[i, j]], y[[i, j]], 1) for i, j in combinations(range(3), 2)]
X = np.vander(T - 23, 3)  # Kurve um 23 °C; λ bestraft ihre Biegung (λ = 0: genau durch alle drei Punkte)
regeln = {"line": min(geraden, key=lambda g: (fehler(g, tage["Heft"]), g[0])),
          "curve": np.poly1d(np.linalg.solve(X.T @ X + lam * np.diag([1, 0, 0]), X.T @ y))(np.poly1d([1, -23])).coeffs,
          "mean": np.array([y.mean()])}       # immer der Mittelwert
# Testtage öffnen sich erst, wenn eine Regel festgelegt ist
for name, daten in tage.items():
    if name != "Test" or fixed != "none":
        print(f"Fehler {name}: {fehler(regeln[rule], daten):.4f}".replace(".", ","))
sieger = min(regeln, key=lambda r: fehler(regeln[r], tage["Validierung"]))
print(f"Beste Regel in der Validierung: {namen[sieger]}")
if fixed not in ("none", rule):
    print("Achtung: Die Testtage wurden zur Auswahl benutzt.")
fig, ax = plt.subplots(figsize=(6, 4))
achse = np.linspace(18, 27, 100)
for name, farbe in [("line", "#0066a1"), ("curve", "#d0021b"), ("mean", "#bbbbbb")]:
    ax.plot(achse, np.polyval(regeln[name], achse), color=farbe, lw=3 if name == rule else 1, label=namen[name])
for (name, daten), form in zip(tage.items(), "os^"):
    if name != "Test" or fixed != "none":
        ax.plot(daten[:, 0], daten[:, 1], form, color="black", label=name)
ax.set(xlabel="Temperatur (°C)", ylabel="Kugeln", ylim=(0, 40))
ax.legend()
plt.show()
