# Multi-Query Attention: zwei Query-Köpfe lesen denselben Satz Keys und Values
import numpy as np
import matplotlib.pyplot as plt

# Einstellungen aus dem Experiment (ändere sie ruhig):
angle1 = 0
angle2 = 90
length = 2.0
heads = 8

keys = np.array([[1.0, 0.0], [0.0, 1.0]])  # ein gemeinsamer Satz für alle Köpfe
values = np.array([[1.0, 0.0], [0.0, 1.0]])
winkel = np.radians([angle1, angle2])
queries = length * np.column_stack([np.cos(winkel), np.sin(winkel)])  # eine Zeile je Kopf

# skalierte Skalarprodukte, dann Softmax je Zeile
scores = queries @ keys.T / np.sqrt(keys.shape[1])
gewichte = np.exp(scores - scores.max(axis=1, keepdims=True))
gewichte /= gewichte.sum(axis=1, keepdims=True)
ergebnisse = gewichte @ values
for kopf in range(2):
    print(f"Kopf {kopf + 1}, Gewichte: {gewichte[kopf, 0]:.4f}; {gewichte[kopf, 1]:.4f}".replace(".", ","))
    print(f"Kopf {kopf + 1}, Ergebnis: {ergebnisse[kopf, 0]:.4f}; {ergebnisse[kopf, 1]:.4f}".replace(".", ","))

# KV-Cache im Standardbeispiel: K und V, 32 Schichten, 1024 Tokens, Kopfdimension 128, 2 Byte
mib_je_satz = 2 * 32 * 1024 * 128 * 2 / 2**20
print(f"Cache MHA: {heads * mib_je_satz:g} MiB".replace(".", ","))
print(f"Cache MQA: {mib_je_satz:g} MiB".replace(".", ","))

figur, achse = plt.subplots(figsize=(5, 5))
for k in keys:
    achse.annotate("", k, (0, 0), arrowprops={"color": "#bbbbbb", "width": 3})
for kopf, farbe in enumerate(["#0066a1", "#d0021b"]):
    achse.annotate("", queries[kopf], (0, 0), arrowprops={"color": farbe, "width": 1})
    achse.plot(*ergebnisse[kopf], "o", color=farbe, label=f"Ergebnis von Kopf {kopf + 1}")
achse.set_xlim(-3.2, 3.2)
achse.set_ylim(-3.2, 3.2)
achse.xaxis.set_major_formatter(lambda x, _: f"{x:g}".replace(".", ","))
achse.yaxis.set_major_formatter(lambda y, _: f"{y:g}".replace(".", ","))
achse.legend(loc="lower left", title="grau: Keys = Values, Pfeile: Queries")
plt.show()
