# Loss Masking: Welche Positionen zählen im Verlust, und welche Tokens liest jede Vorhersage?
import numpy as np
import matplotlib.pyplot as plt
from matplotlib.colors import ListedColormap

# Einstellungen aus dem Experiment (ändere sie ruhig):
focus = 13
user = False
agent = True
tool = False

tokens = "Wetter in Köln ? wetter( Köln ) 18 °C sonnig Es sind 18 °C ■".split()
rollen = np.array(["user"] * 4 + ["agent"] * 3 + ["tool"] * 3 + ["agent"] * 5)
an = {"user": user, "agent": agent, "tool": tool}

# bewertet ist ein Token, wenn seine Rolle an ist – Token 1 nie, davor steht nichts
bewertet = np.array([an[rolle] for rolle in rollen])
bewertet[0] = False
t = np.arange(1, len(tokens) + 1)
# kausale Maske: die Vorhersage von Token t liest alle Tokens j < t
liest = t[:, None] > t[None, :]
print(f"Bewertete Positionen: {bewertet.sum()}")
if bewertet.any():
    print(f"Gewicht je Position: {1 / bewertet.sum():.4f}".replace(".", ","))
print(f"Verbindungen: {liest.sum()}")
print(f"Gelesene Tokens: {liest[focus - 1].sum()}")
print(f"Davon ohne eigenen Verlust: {(liest[focus - 1] & ~bewertet).sum()}")
# ein Token ohne Verlust wirkt trotzdem, wenn eine bewertete Vorhersage nach ihm kommt
letzte = t[bewertet].max() if bewertet.any() else 0
print(f"Ohne Verlust, aber gelesen: {((~bewertet) & (t < letzte)).sum()}")

figur, achse = plt.subplots(figsize=(6, 5.5))
bild = liest * np.where(bewertet, 2, 1)[:, None]  # 2: Zeile im Verlust, 1: ohne Verlust
bild[focus - 1] = liest[focus - 1] * 3
farben = ListedColormap(["white", "#bbbbbb", "#0066a1", "#d0021b"])
achse.imshow(bild, cmap=farben, vmin=0, vmax=3)
achse.set_xticks(range(len(tokens)), tokens, rotation=90)
achse.set_yticks(range(len(tokens)), [f"{i} {w}" for i, w in zip(t, tokens)])
achse.set_xlabel("… liest Token j")
achse.set_ylabel("Vorhersage von Token t")
achse.set_title("blau: im Verlust, grau: nicht bewertet, rot: Token t")
plt.show()
