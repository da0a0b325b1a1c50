# Embeddings: Skalarprodukt und Kosinus zweier Vektoren, mit und ohne Positionsvektor
import numpy as np
import matplotlib.pyplot as plt

# Einstellungen aus dem Experiment (ändere sie ruhig):
a = [3.0, 1.0]
b = [1.0, 2.0]
positions = False
pa = 0
pb = 1
a, b = np.array(a), np.array(b)


def kosinus(u, v):
    return u @ v / (np.linalg.norm(u) * np.linalg.norm(v))


def position(p):
    # das schnellste Paar der Sinus-Positionen (Vaswani et al. 2017): ω = 1
    return np.array([np.sin(p), np.cos(p)])


komma = lambda x: f"{x:.6f}".replace(".", ",")
print("Skalarprodukt:", komma(a @ b))
if np.linalg.norm(a) > 0 and np.linalg.norm(b) > 0:
    print("Kosinus:", komma(kosinus(a, b)))
    print("Winkel in Grad:", komma(np.degrees(np.arccos(np.clip(kosinus(a, b), -1, 1)))))

fig, ax = plt.subplots(figsize=(5, 5))
ax.quiver([0, 0], [0, 0], [a[0], b[0]], [a[1], b[1]], color=["#0072b2", "#e69f00"],
          angles="xy", scale_units="xy", scale=1)
ax.text(*a, " a")
ax.text(*b, " b")
if positions:
    a2, b2 = a + position(pa), b + position(pb)
    print("mit Positionen:", komma(a2 @ b2))
    ax.quiver([0, 0], [0, 0], [a2[0], b2[0]], [a2[1], b2[1]], color=["#0072b2", "#e69f00"],
              angles="xy", scale_units="xy", scale=1, alpha=0.4)
    ax.text(*a2, " a′")
    ax.text(*b2, " b′")
ax.set(xlim=(-5, 5), ylim=(-5, 5), aspect="equal", xlabel="x", ylabel="y")
ax.grid(True)
plt.show()
