# Overfitting: Kurven vom Grad 1 bis 9 im Heft angepasst, ihr Fehler an 400 neuen Tagen
import math
import random

import numpy as np
import matplotlib.pyplot as plt

# Einstellungen aus dem Experiment (ändere sie ruhig):
degree = 1
days = 10
lam = 0.0
moves = []

def wahr(T):  # die wahre Regel, die der Eisstand nicht kennt
    return 220 - 0.83 * (T - 30) ** 2

def tage(anzahl, seed, verteilt):  # Temperaturen und Kugeln, Zufall nach Box-Muller mit σ = 15
    zufall = random.Random(seed)  # Heft: ein Tag je Band von 20/anzahl °C; neue Tage: irgendwo
    T = [15 + (20 / anzahl * (i + zufall.random()) if verteilt else 20 * zufall.random()) for i in range(anzahl)]
    rauschen = [math.sqrt(-2 * math.log(1 - zufall.random())) * math.cos(2 * math.pi * zufall.random())
                for _ in T]
    return np.array(T), wahr(np.array(T)) + 15 * np.array(rauschen)

T, y = tage(days, {10: 8580478, 80: 78298}[days], True)
y[[i for i, _ in moves if i < days]] = [w for i, w in moves if i < days]  # im Bild verschobene Punkte
T_neu, y_neu = tage(400, 4128, False)

def x_werte(T, grad):  # Potenzen von x = (T − 25)/10, das hält die Zahlen klein
    return np.vander((T - 25) / 10, grad + 1, increasing=True)

# kleinste Fehlerquadrate plus Strafe λ·(c₁² + … + c_d²), als zusätzliche Zeilen
A = np.vstack([x_werte(T, degree), np.sqrt(lam) * np.eye(degree + 1)[1:]])
c = np.linalg.lstsq(A, np.concatenate([y, np.zeros(degree)]), rcond=None)[0]
print(f"Fehler im Heft: {np.sqrt(np.mean((x_werte(T, degree) @ c - y) ** 2)):.4f}".replace(".", ","))
print(f"Fehler an neuen Tagen: {np.sqrt(np.mean((x_werte(T_neu, degree) @ c - y_neu) ** 2)):.4f}".replace(".", ","))
print(f"Zufall allein: {np.sqrt(np.mean((wahr(T_neu) - y_neu) ** 2)):.4f}".replace(".", ","))
fig, ax = plt.subplots(figsize=(6, 4))  # Heft, wahre Regel und angepasste Kurve
kurve = np.linspace(15, 35, 200)
ax.plot(kurve, wahr(kurve), color="#bbbbbb", label="wahre Regel")
ax.plot(kurve, x_werte(kurve, degree) @ c, color="#0066a1", label=f"Grad {degree}")
ax.plot(T, y, "o", color="#d0021b", label="Heft")
ax.set(xlabel="Temperatur (°C)", ylabel="Kugeln pro Tag", ylim=(-60, 360))
ax.xaxis.set_major_formatter(lambda v, _: f"{v:g}".replace(".", ","))
ax.legend()
plt.show()
