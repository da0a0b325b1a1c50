# RoPE: Query und Key je nach Position drehen – ihr Skalarprodukt hängt nur vom Abstand ab
import numpy as np
import matplotlib.pyplot as plt

# Einstellungen aus dem Experiment (ändere sie ruhig):
m = 3
n = 4
shift = 0
theta = 30
dim = 128


def drehung(grad):
    phi = np.radians(grad % 360)
    return np.array([[np.cos(phi), -np.sin(phi)], [np.sin(phi), np.cos(phi)]])


# beide Positionen um s verschoben: die Pfeile drehen sich weiter, das Produkt bleibt
pos_q, pos_k = m + shift, n + shift
query = drehung(pos_q * theta) @ [1.0, 0.0]
key = drehung(pos_k * theta) @ [1.0, 0.0]
abstand = pos_k - pos_q
print(f"Abstand: {abstand}")
print(f"Skalarprodukt: {query @ key:.4f}".replace(".", ","))
print(f"Winkel dazwischen: {np.degrees(np.arccos(np.clip(query @ key, -1, 1))):.2f}°".replace(".", ","))

# echte Modelle: d/2 Paare mit den Winkeln 10000^(−2i/d) (im Bogenmaß) je Position
winkel = 10000.0 ** (-2 * np.arange(dim // 2) / dim)
print(f"Mittel über alle Paare: {np.cos(abstand * winkel).mean():.4f}".replace(".", ","))

abstaende = np.arange(49)
figur, achse = plt.subplots(figsize=(7, 3.5))
achse.plot(abstaende, np.cos(np.radians(abstaende * theta)), color="#bbbbbb", label=f"ein Paar, θ = {theta}°")
achse.plot(abstaende, np.cos(np.outer(abstaende, winkel)).mean(axis=1), color="#0066a1",
           label=f"{dim // 2} Paare mit echten Frequenzen")
achse.plot(abs(abstand), query @ key, "o", color="#d0021b", label="deine Einstellung")
achse.set_xlabel("Abstand n − m")
achse.set_ylabel("Skalarprodukt")
achse.yaxis.set_major_formatter(lambda y, _: f"{y:g}".replace(".", ","))
achse.legend()
plt.show()
