# IRT (Rasch-Modell): Fähigkeit θ je Agent und Schwierigkeit b je Aufgabe aus einer Erfolgstabelle
import numpy as np
import matplotlib.pyplot as plt

# Einstellungen aus dem Experiment (ändere sie ruhig):
k1a = 4
k1b = 4
k1c = 0
k2a = 5
k2b = 4
k2c = 3
c1 = True
kappa = 0.1

erfolge = np.array([[k1a, k1b, k1c], [k2a, k2b, k2c]])   # Erfolge von je 5 Versuchen
versuche = np.array([[5, 5, 5 if c1 else 0], [5, 5, 5]])  # ohne c1 zählt die Zelle nicht
# unbekannt: x = (θ₁, θ₂, b_A, b_B, b_C); Wahrscheinlichkeit = σ(θ − b); D bildet x auf alle θ − b ab
D = np.hstack([np.repeat(np.eye(2), 3, axis=0), -np.tile(np.eye(3), (2, 1))])  # Zeile: Agent a, Aufgabe j
n, k, x = versuche.ravel(), erfolge.ravel(), np.zeros(5)
for schritt in range(100):  # Newton: Log-Likelihood minus Strafe κ/2·Σx², plus ½(Σx)² als Nullpunkt
    p = 1 / (1 + np.exp(-D @ x))
    gradient = D.T @ (n * p - k) + kappa * x + x.sum()
    hesse = D.T @ (D * (n * p * (1 - p))[:, None]) + kappa * np.eye(5) + np.ones((5, 5))
    x = x - np.linalg.solve(hesse, gradient)
    if x.max() - x.min() > 25:  # ohne Strafe kann eine perfekte Zeile davonlaufen
        break
if x.max() - x.min() > 25:
    print("Keine beste Schätzung: Eine Zahl läuft davon.")
else:
    for name, wert in zip(["θ₁", "θ₂", "b_A", "b_B", "b_C"], x):
        print(f"{name}: {wert:.4f}".replace(".", ","))
    print(f"Abstand θ₂ − θ₁: {x[1] - x[0]:.4f}".replace(".", ","))
print("Erfolgsquote:", ", ".join(f"{100 * q:.0f} %" for q in erfolge.sum(1) / versuche.sum(1)))

fig, ax = plt.subplots(figsize=(6, 4))  # Wahrscheinlichkeit je Aufgabe über der Fähigkeit
theta = np.linspace(-6, 6, 200)
for b, name, farbe in zip(x[2:], "ABC", ["#0066a1", "#d0021b", "#bbbbbb"]):
    ax.plot(theta, 1 / (1 + np.exp(b - theta)), color=farbe, label=f"Aufgabe {name}")
for agent in (0, 1):
    ax.axvline(x[agent], color="black", ls=":")
    ax.text(x[agent], 1.02, f"Agent {agent + 1}", ha="center")
ax.set(xlabel="Fähigkeit θ", ylabel="Wahrscheinlichkeit zu lösen", xlim=(-6, 6))
ax.yaxis.set_major_formatter(lambda v, _: f"{v:g}".replace(".", ","))
ax.legend()
plt.show()
