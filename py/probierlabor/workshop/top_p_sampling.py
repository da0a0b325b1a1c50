# Top-p-Sampling: Welche Tokens bleiben übrig, wenn ihre Summe p erreichen muss?
import numpy as np
import matplotlib.pyplot as plt

# Einstellungen aus dem Experiment (ändere sie ruhig):
p = 0.75
temperature = 1.0
dist = []

if dist:  # eine eigene Verteilung: Tokens A, B, … wie eingegeben, dann absteigend sortiert
    buchstaben = np.array(list("ABCDEFGH"[:len(dist)]))
    reihenfolge = np.argsort(-np.array(dist), kind="stable")
    namen = [buchstaben[reihenfolge]]
    zeilen = [np.array(dist)[reihenfolge]]
else:
    namen = [np.array(["A", "B", "C", "D"])] * 2
    zeilen = [np.array([0.7, 0.15, 0.1, 0.05]), np.array([0.4, 0.3, 0.2, 0.1])]

figur, achsen = plt.subplots(1, len(zeilen), figsize=(4 * len(zeilen), 3), sharey=True, squeeze=False)
for nummer, (tokens, wahrsch, achse) in enumerate(zip(namen, zeilen, achsen[0]), start=1):
    # Temperatur: Logits ln(p) durch T teilen, dann wieder normieren (Softmax); ln(0) ist −∞ und bleibt 0
    with np.errstate(divide="ignore"):
        logits = np.log(wahrsch) / temperature
    wahrsch = np.exp(logits - logits.max())
    wahrsch = wahrsch / wahrsch.sum()
    # behalten wird ein Token, solange die Summe der Tokens davor noch unter p liegt
    davor = np.cumsum(wahrsch) - wahrsch
    behalten = davor < p - 1e-12
    neu = np.where(behalten, wahrsch, 0) / wahrsch[behalten].sum()
    print(f"Zeile {nummer}: Kern: {', '.join(tokens[behalten])}")
    print(f"Zeile {nummer}: Anzahl: {behalten.sum()}")
    print(f"Zeile {nummer}: Summe: {wahrsch[behalten].sum():.3f}".replace(".", ","))
    achse.bar(tokens, wahrsch, color=np.where(behalten, "#0066a1", "#bbbbbb"))
    achse.step(np.arange(len(tokens)), neu, where="mid", color="#d0021b", label="neu verteilt")
    achse.set_title("Eigene Verteilung" if dist else f"Zeile {nummer}")
figur.suptitle(f"Top-p mit p = {p:g} und T = {temperature:g}".replace(".", ","))
plt.show()
