# METR-Horizont: Bei welcher Aufgabenlänge kreuzt die Erfolgskurve die Schwelle?
import random

import numpy as np
import matplotlib.pyplot as plt

# Einstellungen aus dem Experiment (ändere sie ruhig):
s = 1.0
c = 50
quote = 50
tasks = 0
seed = 1

def logit(p):
    return np.log(p / (1 - p))
# Kurve p(t) = σ(s·(log₂ h − log₂ t)); bei 120 min hat sie die Wahrscheinlichkeit c
mitte = np.log2(120) + logit(c / 100) / s              # log₂ h, dort liegt 50 %
horizont = 2 ** (mitte - logit(quote / 100) / s)
print(f"Horizont bei {quote} %: {horizont:.4f} min".replace(".", ","))

fig, ax = plt.subplots(figsize=(6, 4))
x = np.linspace(0, np.log2(960), 200)                  # 1 min bis 16 h, als log₂ Minuten
ax.plot(x, 1 / (1 + np.exp(-s * (mitte - x))), color="#0066a1", label="Erfolgskurve")
if tasks:  # Aufgaben würfeln: Länge log-gleichverteilt, gelöst mit der Wahrscheinlichkeit der Kurve
    zufall, u, y = random.Random(seed), np.zeros(tasks), np.zeros(tasks)
    for i in range(tasks):
        u[i] = np.log2(960) * zufall.random()
        y[i] = zufall.random() < 1 / (1 + np.exp(-s * (mitte - u[i])))
    print(f"Gelöst: {int(y.sum())} von {tasks}")
    X, w = np.column_stack([np.ones(tasks), u - np.log2(120)]), np.zeros(2)  # Länge ab 2 h
    for _ in range(50):  # Newton-Schritte für die logistische Regression, mit kleiner Strafe 0,01
        p = 1 / (1 + np.exp(-X @ w))
        H = X.T @ (X * (p * (1 - p))[:, None]) + 0.01 * np.eye(2)
        w = w - np.linalg.solve(H, X.T @ (p - y) + 0.01 * w)
    a, b = w
    x_neu = np.log2(120) + (logit(quote / 100) - a) / b    # steigt die Kurve, gibt es keinen Horizont
    print(f"Angepasster Horizont: {2 ** x_neu:.4f} min".replace(".", ",") if b < 0 and abs(x_neu) <= 60
          else "Angepasster Horizont: nicht bestimmbar")
    ax.plot(u, y, "o", color="#bbbbbb", label="gewürfelt")
    ax.plot(x, 1 / (1 + np.exp(-(a + b * (x - np.log2(120))))), color="#d0021b", label="neu angepasst")
ax.plot([0, np.log2(horizont), np.log2(horizont)], [quote / 100, quote / 100, 0], color="#bbbbbb", ls=":")
ax.set(xlabel="Aufgabenlänge (log₂ Minuten)", ylabel="Erfolgswahrscheinlichkeit")
ax.yaxis.set_major_formatter(lambda v, _: f"{v:g}".replace(".", ","))
ax.legend()
plt.show()
