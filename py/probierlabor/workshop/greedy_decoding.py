# Greedy Decoding – der Pfad aus den besten Einzelschritten gegen den besten ganzen Pfad
import numpy as np
import matplotlib.pyplot as plt

# Einstellungen aus dem Experiment (ändere sie ruhig):
p_a = 0.6
p_aa = 0.51
p_ba = 0.99

tokens = ["A", "B"]
schritt1 = np.array([p_a, 1 - p_a])
# Zeile 0: nach A, Zeile 1: nach B – B bekommt jeweils den Rest
schritt2 = np.array([[p_aa, 1 - p_aa], [p_ba, 1 - p_ba]])

# Greedy nimmt in jedem Schritt das wahrscheinlichste Token (bei Gleichstand das erste)
erstes = np.argmax(schritt1)
zweites = np.argmax(schritt2[erstes])
greedy_pfad = tokens[erstes] + tokens[zweites]
greedy_p = schritt1[erstes] * schritt2[erstes, zweites]

# alle vier Pfade: Wahrscheinlichkeit des ersten Tokens mal die des zweiten
pfade = schritt1[:, None] * schritt2
namen = [a + b for a in tokens for b in tokens]
bester = np.argmax(np.round(pfade.ravel(), 12))  # runden, damit Gleichstände gleich bleiben
print(f"Greedy-Pfad: {greedy_pfad}")
print(f"Wahrscheinlichkeit des Greedy-Pfads: {greedy_p:.4f}".replace(".", ","))
print(f"Bester Pfad: {namen[bester]}")
print(f"Wahrscheinlichkeit des besten Pfads: {pfade.ravel()[bester]:.4f}".replace(".", ","))
print(f"Abstand: {pfade.ravel()[bester] - greedy_p:.4f}".replace(".", ","))

farben = ["#d0021b" if name == greedy_pfad else "#0066a1" if i == bester else "#bbbbbb"
          for i, name in enumerate(namen)]
figur, achse = plt.subplots(figsize=(5, 3.5))
achse.bar(namen, pfade.ravel(), color=farben)
achse.set_ylabel("Wahrscheinlichkeit des ganzen Pfads")
achse.yaxis.set_major_formatter(lambda y, _: f"{y:g}".replace(".", ","))
achse.set_title("rot: Greedy, blau: bester Pfad")
plt.show()
