# RoPE: Query und Key je nach Position drehen – ihr Skalarprodukt hängt nur vom Abstand ab
import numpy as np
import matplotlib.pyplot as plt

# Einstellungen aus dem Experiment (ändere sie ruhig):
m = 3
n = 4
shift = 0
theta = 30.0
dim = 128
query = [1.0, 0.0]
key = [1.0, 0.0]

def drehung(grad):
    phi = np.radians(grad % 360)
    return np.array([[np.cos(phi), -np.sin(phi)], [np.sin(phi), np.cos(phi)]])


# beide Positionen um s verschoben: die Pfeile drehen sich weiter, das Produkt bleibt
pos_q, pos_k = m + shift, n + shift
q, k = drehung(pos_q * theta) @ query, drehung(pos_k * theta) @ key
abstand = pos_k - pos_q
print(f"Abstand: {abstand}")
print(f"Skalarprodukt: {q @ k:.4f}".replace(".", ","))
zwischen = np.degrees(np.arctan2(k[1], k[0]) - np.arctan2(q[1], q[0])) % 360  # Richtung k minus Richtung q
print(f"Winkel dazwischen: {min(zwischen, 360 - zwischen):.2f}°".replace(".", ","))

# echte Modelle: d/2 Paare mit den Winkeln 10000^(−2i/d) (im Bogenmaß) je Position
winkel = 10000.0 ** (-2 * np.arange(dim // 2) / dim)
# in jedem Paar dieselben q und k: q·R(φ)k = (q·k)·cos φ + (q₂k₁ − q₁k₂)·sin φ
gleich, quer = np.dot(query, key), query[1] * key[0] - query[0] * key[1]
kurve = lambda a: (gleich * np.cos(a) + quer * np.sin(a)).mean(axis=-1)  # noqa: E731
print(f"Mittel über alle Paare: {kurve(abstand * winkel):.4f}".replace(".", ","))

abstaende = np.arange(49)
figur, achse = plt.subplots(figsize=(7, 3.5))
achse.plot(abstaende, kurve(np.radians(abstaende * theta)[:, None]), color="#bbbbbb", label=f"ein Paar, θ = {theta:g}°")
achse.plot(abstaende, kurve(np.outer(abstaende, winkel)), color="#0066a1",
           label=f"{dim // 2} Paare mit echten Frequenzen")
achse.plot(abs(abstand), q @ k, "o", color="#d0021b", label="deine Einstellung")
achse.set_xlabel("Abstand n − m")
achse.set_ylabel("Skalarprodukt")
achse.yaxis.set_major_formatter(lambda y, _: f"{y:g}".replace(".", ","))
achse.legend()
plt.show()
