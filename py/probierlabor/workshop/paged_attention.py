# PagedAttention: Der KV-Cache liegt in Blöcken, eine Blocktabelle sagt, wo
import numpy as np
import matplotlib.pyplot as plt

# Einstellungen aus dem Experiment (ändere sie ruhig):
n = 5
layout = 'artikel'
block_size = 4

# in welcher Reihenfolge die Anordnungen die 8 physischen Blöcke vergeben
reihenfolge = {"artikel": [4, 1, 6, 0, 3, 7, 2, 5], "andere": [2, 7, 5, 3, 0, 6, 1, 4],
               "zusammen": [0, 1, 2, 3, 4, 5, 6, 7]}[layout]
bloecke = -(-n // block_size)  # aufgerundet: auch ein angefangener Block wird gebraucht
tabelle = reihenfolge[:bloecke]

# Position p landet in Block tabelle[p // block_size] auf Platz p % block_size
speicher = np.full((8, block_size), np.nan)
for p in range(n):
    speicher[tabelle[p // block_size], p % block_size] = p + 1  # die Values sind 1, 2, 3, …

# ein Attention-Kopf zum Spielen: alle Keys 0, also alle Gewichte gleich; gelesen wird über die Tabelle
gelesen = np.array([speicher[tabelle[p // block_size], p % block_size] for p in range(n)])
ausgabe = gelesen.mean()
frei = bloecke * block_size - n

print("Blöcke:", bloecke)
print("Blocktabelle:", ", ".join(map(str, tabelle)))
print("Freie Plätze im letzten Block:", frei)
print(f"Verschnitt: {frei / (bloecke * block_size):.6f}".replace(".", ","))
print(f"Ausgabe: {ausgabe:.6f}".replace(".", ","))

figur, achse = plt.subplots(figsize=(6, 4), layout="constrained")
# belegte Plätze blau (#0066a1), freie hellgrau
achse.imshow(np.where(np.isnan(speicher)[..., None], [0.93, 0.93, 0.93], [0, 0.4, 0.63]), aspect="auto")
for (block, platz), wert in np.ndenumerate(speicher):
    if not np.isnan(wert):
        achse.text(platz, block, f"{wert:g}", ha="center", va="center", color="white")
achse.set_yticks(range(8), [f"Block {b}" + (f" ← logisch {tabelle.index(b)}" if b in tabelle else "")
                            for b in range(8)])
achse.set_xticks(range(block_size), [f"Platz {s}" for s in range(block_size)])
achse.set_title(f"{n} Positionen, Ausgabe {ausgabe:g}".replace(".", ","))
plt.show()
