# Beam Search: Welche Antwort findet der Beam, und welche wäre die beste im ganzen Baum?
import numpy as np
import matplotlib.pyplot as plt

# Einstellungen aus dem Experiment (ändere sie ruhig):
width = 2
tree = 'artikel'
alpha = 0.0
depth = 2
first = []
after_a = []
after_b = []
after_c = []

# "$" steht für das Ende-Token; die Wahrscheinlichkeiten nach einer Folge hängen nur an ihrem letzten Token
baeume = {
    "artikel": {"": {"A": 0.45, "B": 0.35, "C": 0.2}, "A": {"A": 0.4, "B": 0.35, "C": 0.25},
                "B": {"A": 0.5, "B": 0.3, "C": 0.2}, "C": {"A": 0.99, "B": 0.005, "C": 0.005}},
    "ende": {"": {"A": 0.5, "$": 0.3, "B": 0.2}, "A": {"A": 0.5, "B": 0.3, "$": 0.2},
             "B": {"A": 0.9, "B": 0.05, "$": 0.05}}}
baum = baeume[tree]
for zeile, eigene in [("", first), ("A", after_a), ("B", after_b), ("C", after_c)]:
    if eigene and zeile in baum:  # eigene Wahrscheinlichkeiten, schon durch ihre Summe geteilt; 0 fällt weg
        baum[zeile] = {t: q for t, q in zip(baum[zeile], eigene) if q > 0}
fertig = lambda folge: folge.endswith("$") or len(folge) == depth
wertung = lambda k: np.log(k[1]) / len(k[0]) ** alpha  # Summe der Logarithmen geteilt durch Länge hoch α
weiter = lambda f, p: [(f + t, p * q) for t, q in baum[f[-1:]].items()]
laufend, fertige = [("", 1.0)], []
for _ in range(depth):
    kandidaten = [k for f, p in laufend for k in weiter(f, p)]
    kandidaten.sort(key=lambda k: -k[1])  # stabil: bei Gleichstand bleibt die Reihenfolge
    fertige += [k for k in kandidaten[:width] if fertig(k[0])]  # Fertige unter den besten width
    laufend = [k for k in kandidaten if not fertig(k[0])][:width]
alle_ab = lambda f, p: [(f, p)] if fertig(f) else [k for g in weiter(f, p) for k in alle_ab(*g)]
alle = alle_ab("", 1.0)  # jede vollständige Antwort des Baums, zum Vergleich
antwort, beste = max(fertige, key=wertung), max(alle, key=wertung)
for name, (folge, p) in [("Beam-Antwort", antwort), ("Beste Antwort", beste)]:
    print(f"{name}: {folge.replace('$', '‹Ende›')}\n{name}, Wahrscheinlichkeit: {p:.4f}\n"
          f"{name}, Wertung: {wertung((folge, p)):.4f}".replace(".", ","))
figur, achse = plt.subplots(figsize=(7, 3.5))
farben = ["#d0021b" if k == antwort else "#0066a1" if k == beste else "#bbbbbb" for k in alle]
achse.bar([f.replace("$", "‹Ende›") for f, _ in alle], [wertung(k) for k in alle], color=farben)
achse.yaxis.set_major_formatter(lambda y, _: f"{y:g}".replace(".", ","))
achse.set(ylabel="Σ ln p" + (f" / Länge$^{{{alpha:g}}}$".replace(".", "{,}") if alpha else ""), title=f"Breite {width}: rot die Antwort des Beams, blau die beste")
plt.show()
