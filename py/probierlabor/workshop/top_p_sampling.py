# Top-p-Sampling: Welche Tokens bleiben übrig, wenn ihre Summe p erreichen muss?
import numpy as np
import matplotlib.pyplot as plt

# Einstellungen aus dem Experiment (ändere sie ruhig):
p = 0.75
temperature = 1.0

tokens = ["A", "B", "C", "D"]
zeilen = [np.array([0.7, 0.15, 0.1, 0.05]), np.array([0.4, 0.3, 0.2, 0.1])]

figur, achsen = plt.subplots(1, 2, figsize=(8, 3), sharey=True)
for nummer, (chancen, achse) in enumerate(zip(zeilen, achsen), start=1):
    # Temperatur: Logits ln(p) durch T teilen, dann wieder normieren (Softmax)
    logits = np.log(chancen) / temperature
    chancen = np.exp(logits - logits.max())
    chancen = chancen / chancen.sum()
    # behalten wird ein Token, solange die Summe der Tokens davor noch unter p liegt
    davor = np.cumsum(chancen) - chancen
    behalten = davor < p - 1e-12
    neu = np.where(behalten, chancen, 0) / chancen[behalten].sum()
    print(f"Zeile {nummer}: Kern: {', '.join(np.array(tokens)[behalten])}")
    print(f"Zeile {nummer}: Anzahl: {behalten.sum()}")
    print(f"Zeile {nummer}: Summe: {chancen[behalten].sum():.3f}".replace(".", ","))
    achse.bar(tokens, chancen, color=np.where(behalten, "#0066a1", "#bbbbbb"))
    achse.step(np.arange(4), neu, where="mid", color="#d0021b", label="neu verteilt")
    achse.set_title(f"Zeile {nummer}")
figur.suptitle(f"Top-p mit p = {p:g} und T = {temperature:g}".replace(".", ","))
plt.show()
