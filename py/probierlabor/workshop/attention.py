# Attention: Wie verteilt ein Kopf sein Gewicht auf die Tokens, und wo landet die Ausgabe?
import numpy as np
import matplotlib.pyplot as plt

# Einstellungen aus dem Experiment (ändere sie ruhig):
pos = 4
mask = True
scale = True
query = [2.0, 1.0]
keys = [-1.0, 0.5, 2.5, -0.5, 0.5, 2.0, 1.0, -1.0, -1.0, -1.5]
vals = [-2.0, 1.0, 2.0, 2.0, 1.0, -2.0, -1.0, -1.0, 0.0, 2.5]
# Je zwei Zahlen sind ein Vektor; die Zahl der Keys bestimmt die Zahl der Tokens.
wörter = ["Die", "Katze", "jagt", "Mäuse", "nachts"]
vorgabe = [-2.0, 1.0, 2.0, 2.0, 1.0, -2.0, -1.0, -1.0, 0.0, 2.5]  # die Values der Seite, falls welche fehlen
paarweise = lambda zahlen: zahlen[: len(zahlen) // 2 * 2]  # eine Zahl ohne Partner fällt weg
K = np.array(paarweise(keys)).reshape(-1, 2)
n = len(K)
V = np.array((paarweise(vals) + vorgabe[len(paarweise(vals)):])[: 2 * n]).reshape(-1, 2)

scores = K @ np.array(query)  # q·k für jedes Token
sichtbar = np.arange(n) < pos if mask else np.ones(n, bool)  # die Maske verbirgt spätere Tokens
geteilt = np.where(sichtbar, scores / (np.sqrt(2) if scale else 1.0), -np.inf)  # durch √d teilen
e = np.exp(geteilt - geteilt.max())
gewichte = e / e.sum()
ausgabe = gewichte @ V

komma = lambda x: f"{x:.6f}".replace(".", ",")
for wort, g in zip(wörter, gewichte):
    print(f"Gewicht {wort}:", komma(g))
print("Ausgabe 1:", komma(ausgabe[0]), "\nAusgabe 2:", komma(ausgabe[1]))

fig, (links, rechts) = plt.subplots(1, 2, figsize=(9, 4.5))
pfeile = {"angles": "xy", "scale_units": "xy", "scale": 1}
links.quiver(np.zeros(n), np.zeros(n), K[:, 0], K[:, 1], color="#0072b2", **pfeile)
links.quiver(0, 0, *query, color="#d55e00", **pfeile)
for wort, k, v in zip(wörter, K, V):
    links.annotate(wort, k)
    rechts.annotate(wort, v)
rechts.scatter(V[:, 0], V[:, 1], s=40 + 400 * gewichte, color="#009e73", label="Values (Fläche ~ Gewicht)")
rechts.plot(*ausgabe, "D", color="#e69f00", mec="black", ms=10, label="Ausgabe")
for ax, titel in ((links, "Query (rot) und Keys"), (rechts, "Values und Ausgabe")):
    ax.set(xlim=(-4.5, 4.5), ylim=(-4.5, 4.5), aspect="equal", title=titel)
rechts.legend(loc="lower left")
plt.show()
