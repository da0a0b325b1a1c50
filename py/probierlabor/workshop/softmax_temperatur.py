# Softmax und Temperatur: aus Logits werden Wahrscheinlichkeiten, T macht sie steiler oder flacher
import numpy as np
import matplotlib.pyplot as plt

# Einstellungen aus dem Experiment (ändere sie ruhig):
T = 1.0
greedy = False
row = 'beispiel'
logits = []

zeilen = {"beispiel": [2, 1, 0.5, -1], "verschoben": [12, 11, 10.5, 9],
          "gleichstand": [2, 2, 0, -1], "fuenf": [3, 2.5, 1, 0, -2]}
z = np.array(logits if logits else zeilen[row], dtype=float)  # eigene Logits ersetzen die Zeile
tokens = list("ABCDEF"[:len(z)])


def softmax(z, T):
    # das größte Logit abziehen: gleiches Ergebnis, aber exp läuft nie über
    e = np.exp((z - z.max()) / T)
    return e / e.sum()


if greedy:  # T = 0 als Grenzwert: die größten Logits teilen sich alles
    p = (z == z.max()) / np.sum(z == z.max())
else:
    p = softmax(z, T)
H = -np.sum(p[p > 0] * np.log2(p[p > 0]))  # 0 · log 0 zählt als 0
for token, wert in zip(tokens, p):
    print(f"p {token}: {wert:.6f}".replace(".", ","))
print(f"Entropie: {H:.6f} Bit".replace(".", ","))
print(f"Gleich gute Tokens: {2 ** H:.6f}".replace(".", ","))

temperaturen = np.logspace(-2, 2, 129)  # T von 0,01 bis 100
kurven = np.array([softmax(z, t) for t in temperaturen])
figur, (links, rechts) = plt.subplots(1, 2, figsize=(9, 3.5))
links.bar(tokens, p, color="#0066a1", label="T = 0" if greedy else f"T = {T:g}")
links.bar(tokens, softmax(z, 1.0), fill=False, linestyle="--", label="T = 1")
links.axhline(1 / len(z), color="#00745a", linestyle="--", label="gleich verteilt")
links.legend()
rechts.semilogx(temperaturen, kurven, label=tokens)  # eine Linie je Token, T logarithmisch
rechts.set_xlabel("Temperatur T")
rechts.legend()
plt.show()
