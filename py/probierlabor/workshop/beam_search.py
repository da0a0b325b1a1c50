# Beam Search: Welche Antwort findet der Beam, und welche wäre die beste im ganzen Baum?
import numpy as np
import matplotlib.pyplot as plt

# Einstellungen aus dem Experiment (ändere sie ruhig):
width = 2
tree = 'artikel'
alpha = 0.0

# "$" steht für das Ende-Token; jede Antwort hat höchstens zwei Tokens
baeume = {
    "artikel": {"": {"A": 0.45, "B": 0.35, "C": 0.2}, "A": {"A": 0.4, "B": 0.35, "C": 0.25},
                "B": {"A": 0.5, "B": 0.3, "C": 0.2}, "C": {"A": 0.99, "B": 0.005, "C": 0.005}},
    "ende": {"": {"A": 0.5, "$": 0.3, "B": 0.2}, "A": {"A": 0.5, "B": 0.3, "$": 0.2},
             "B": {"A": 0.9, "B": 0.05, "$": 0.05}}}
baum = baeume[tree]
def fertig(folge):
    return folge.endswith("$") or len(folge) == 2
def wertung(kandidat):  # Summe der Logarithmen geteilt durch Länge hoch α
    return np.log(kandidat[1]) / len(kandidat[0]) ** alpha

laufend, fertige = [("", 1.0)], []
for _ in range(2):
    kandidaten = [(f + t, p * q) for f, p in laufend for t, q in baum[f].items()]
    kandidaten.sort(key=lambda k: -k[1])  # stabil: bei Gleichstand bleibt die Reihenfolge
    fertige += [k for k in kandidaten[:width] if fertig(k[0])]  # Fertige unter den besten width
    laufend = [k for k in kandidaten if not fertig(k[0])][:width]
alle = []  # jede vollständige Antwort des Baums, zum Vergleich
for t, p in baum[""].items():
    alle += [(t, p)] if fertig(t) else [(t + u, p * q) for u, q in baum[t].items()]
antwort, beste = max(fertige, key=wertung), max(alle, key=wertung)
for name, (folge, chance) in [("Beam-Antwort", antwort), ("Beste Antwort", beste)]:
    print(f"{name}: {folge.replace('$', '‹Ende›')}")
    print(f"{name}, Chance: {chance:.4f}".replace(".", ","))
    print(f"{name}, Wertung: {wertung((folge, chance)):.4f}".replace(".", ","))

figur, achse = plt.subplots(figsize=(7, 3.5))
namen = [f.replace("$", "‹Ende›") for f, _ in alle]
farben = ["#d0021b" if k == antwort else "#0066a1" if k == beste else "#bbbbbb" for k in alle]
achse.bar(namen, [wertung(k) for k in alle], color=farben)
achse.set_ylabel(f"Σ ln p / Länge^{alpha:g}".replace(".", ","))
achse.yaxis.set_major_formatter(lambda y, _: f"{y:g}".replace(".", ","))
achse.set_title(f"Breite {width}: rot die Antwort des Beams, blau die beste")
plt.show()
