# Gradientenabstieg: Wie läuft der Weg bergab in einer Schüssel mit zwei Gewichten?
import numpy as np
import matplotlib.pyplot as plt

# Einstellungen aus dem Experiment (ändere sie ruhig):
lr = 0.1
steps = 20
momentum = False
beta = 0.9
start = [-3.0, 2.0]
curv = [1.0, 4.0]
# Verlust L(w) = ½(λ₁·w₁² + λ₂·w₂²), Minimum bei (0; 0); curv = (λ₁; λ₂)
lam = np.array(curv)
b = beta if momentum else 0.0

def verlust(w):
    return 0.5 * np.sum(lam * w ** 2)

w, v = np.array(start), np.zeros(2)
weg = [w.copy()]
for _ in range(steps):
    gradient = lam * w
    v = b * v - lr * gradient  # ohne Momentum ist b = 0: ein gewöhnlicher Schritt
    w = w + v
    weg.append(w.copy())
weg = np.array(weg)

komma = lambda x: f"{x:.6f}".replace(".", ",")
print("w₁:", komma(w[0]))
print("w₂:", komma(w[1]))
print("Verlust am Start:", komma(verlust(weg[0])))
print("Verlust am Ende:", komma(verlust(w)))
print("Grenze der Lernrate:", komma(2 * (1 + b) / lam.max()))

fig, ax = plt.subplots(figsize=(5, 5))
g1, g2 = np.meshgrid(np.linspace(-4.5, 4.5, 200), np.linspace(-4.5, 4.5, 200))
ax.contour(g1, g2, 0.5 * (lam[0] * g1 ** 2 + lam[1] * g2 ** 2), levels=[0.5, 2, 8, 32], colors="#bbbbbb")
ax.plot(weg[:, 0], weg[:, 1], "o-", color="#d55e00", ms=3, label="Weg der Schritte")
ax.plot(*weg[0], "ko", mfc="white", ms=9, label="Start")
ax.plot(0, 0, "o", color="#009e73", label="Minimum")
ax.set(xlim=(-4.5, 4.5), ylim=(-4.5, 4.5), aspect="equal",
       xlabel=f"w₁ (λ₁ = {curv[0]:g})".replace(".", ","), ylabel=f"w₂ (λ₂ = {curv[1]:g})".replace(".", ","))
ax.legend()
plt.show()
