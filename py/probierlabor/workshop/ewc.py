# EWC: Wohin wandern zwei Gewichte, wenn die neue Aufgabe w₁ + w₂ = 4 verlangt?
import numpy as np
import matplotlib.pyplot as plt

# Einstellungen aus dem Experiment (ändere sie ruhig):
mode = 'ewc'
lam = 1.0
F = [10.0, 0.1]
start = [1.0, 1.0]
# start: die Gewichte nach der alten Aufgabe; F: wie sehr die alte Aufgabe an jedem Gewicht hängt
start, wichtigkeit = np.array(start), np.array(F)

def loesung(modus):
    if modus == "none":  # Gradientenabstieg nur auf der neuen Aufgabe, ab dem Start
        w = start.copy()
        for _ in range(200):
            w = w - 0.1 * (w.sum() - 4) * np.ones(2)
        return w
    c = wichtigkeit if modus == "ewc" else np.ones(2)
    # Minimum von ½(w₁ + w₂ − 4)² + Σ λ/2·c·(w − 1)²: dort ist die Ableitung null
    A = np.ones((2, 2)) + lam * np.diag(c)
    return np.linalg.solve(A, 4 + lam * c * start)

w = loesung(mode)
print(f"w₁: {w[0]:.4f}".replace(".", ","))
print(f"w₂: {w[1]:.4f}".replace(".", ","))
print(f"Summe: {w.sum():.4f}".replace(".", ","))
print(f"Verlust alte Aufgabe: {0.5 * np.sum(wichtigkeit * (w - start) ** 2):.4f}".replace(".", ","))
print(f"Verlust neue Aufgabe: {0.5 * (w.sum() - 4) ** 2:.4f}".replace(".", ","))

fig, ax = plt.subplots(figsize=(5, 5))
g1, g2 = np.meshgrid(np.linspace(0, 4.2, 200), np.linspace(0, 4.2, 200))
verlust_alt = 0.5 * (wichtigkeit[0] * (g1 - start[0]) ** 2 + wichtigkeit[1] * (g2 - start[1]) ** 2)
ax.contour(g1, g2, verlust_alt, levels=[0.16, 1, 5.05], colors="#bbbbbb")
ax.plot([0, 4], [4, 0], color="black", label="w₁ + w₂ = 4")
ax.plot(*start, "ko")
for modus, name, farbe in [("none", "ohne Schutz", "#bbbbbb"), ("equal", "gleiche Strafe", "#d0021b"),
                           ("ewc", "EWC", "#0066a1")]:
    ax.plot(*loesung(modus), "o", color=farbe, ms=12 if modus == mode else 7, label=name)
ax.set(xlabel=f"w₁ (F = {F[0]:g})".replace(".", ","), ylabel=f"w₂ (F = {F[1]:g})".replace(".", ","), aspect="equal")
komma = lambda v, _: f"{v:g}".replace(".", ",")
ax.xaxis.set_major_formatter(komma)
ax.yaxis.set_major_formatter(komma)
ax.legend()
plt.show()
