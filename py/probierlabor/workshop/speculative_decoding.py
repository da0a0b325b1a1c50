# Speculative Decoding – kommt nach Annehmen und Korrigieren genau die Verteilung p des Zielmodells heraus?
import random
import numpy as np
import matplotlib.pyplot as plt

# Einstellungen aus dem Experiment (ändere sie ruhig):
pa = 0.2
pb = 0.5
qa = 0.6
qb = 0.3
correction = 'residual'
trials = 1000
seed = 1

p = np.array([pa, min(pb, 1 - pa), max(0, 1 - pa - pb)])  # C bekommt den Rest, B wird notfalls gekürzt
q = np.array([qa, min(qb, 1 - qa), max(0, 1 - qa - qb)])
# min(p, q) behält der Entwurf sicher; max(0, p − q) fehlt ihm
angenommen, rest = np.minimum(p, q), np.maximum(0, p - q)
# richtig: Ersatz aus diesem Rest; falsch: Ersatz einfach aus p
ersatz = p if correction == "plain" else rest / rest.sum() if rest.any() else rest
ergebnis = angenommen + (1 - angenommen.sum()) * ersatz
print(f"Annahmequote: {angenommen.sum():.4f}".replace(".", ","))
print(f"Abstand zu p: {np.abs(ergebnis - p).sum() / 2:.4f}".replace(".", ","))
# der Algorithmus wirklich ausgeführt: vorschlagen, prüfen, nach Ablehnung ersetzen
zufall, kum_q, kum_e = random.Random(seed), np.cumsum(q), np.cumsum(ersatz)
annahme = np.minimum(1, p / np.where(q > 0, q, 1))  # Wahrscheinlichkeit, einen Vorschlag zu behalten
anzahl, behalten = np.zeros(3, dtype=int), 0
for _ in range(trials):
    x = min(np.searchsorted(kum_q, zufall.random(), side="right"), 2)
    if zufall.random() < annahme[x]:
        behalten, anzahl[x] = behalten + 1, anzahl[x] + 1
    elif ersatz.any():
        anzahl[min(np.searchsorted(kum_e, zufall.random(), side="right"), 2)] += 1
print(f"Angenommene Vorschläge: {behalten}")
print("Heraus, exakt:", "  ".join(f"{wert:.4f}" for wert in ergebnis).replace(".", ","))
print("Heraus, gezogen:", *anzahl)

figur, achse = plt.subplots(figsize=(8, 3.5), layout="constrained")
for i, (werte, farbe, name) in enumerate(zip([p, ergebnis, anzahl / trials], ["#bbbbbb", "#0066a1", "#d0021b"],
                                             ["Ziel p", "heraus, exakt", f"heraus in {trials} Läufen"])):
    achse.bar(np.arange(3) + (i - 1) * 0.27, werte, 0.27, color=farbe, label=name)
achse.set_xticks(range(3), ["A", "B", "C"])
achse.yaxis.set_major_formatter(lambda y, _: f"{y:g}".replace(".", ","))
achse.legend(loc="upper left", bbox_to_anchor=(1, 1))
plt.show()
