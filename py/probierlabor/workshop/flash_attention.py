# FlashAttention: Attention Block für Block mit laufendem Maximum, Summe und Zähler
import numpy as np
import matplotlib.pyplot as plt

# Einstellungen aus dem Experiment (ändere sie ruhig):
block = 2
step = 8
s1 = 0.0
s2 = 0.0
s3 = 1.0986122886681098
s4 = 1.0986122886681098
x1 = 0.0
x2 = 0.0
x3 = 1.0
x4 = 1.0
scores = []
values = []

n = max(len(scores), len(values)) or 4  # eigene Listen: so viele Keys wie die längere, fehlende sind 0
scores, values = [np.array(((e or f) + [0.0] * 8)[:n]) for e, f in [(scores, [s1, s2, s3, s4]), (values, [x1, x2, x3, x4])]]
dicht = np.average(values, weights=np.exp(scores - scores.max()))  # gewöhnliche Softmax-Attention über alle Keys

m, l, u = -np.inf, 0.0, 0.0  # laufendes Maximum, Summe und Zähler
blockweise, einzeln = [], []
for anfang in range(0, len(scores), block)[:step]:
    s, v = scores[anfang:anfang + block], values[anfang:anfang + block]
    m_neu = max(m, s.max())
    faktor = np.exp(m - m_neu)  # alter Stand auf das neue Maximum umrechnen (vor Block 1: 0)
    e = np.exp(s - m_neu)
    l, u, m = l * faktor + e.sum(), u * faktor + e @ v, m_neu
    blockweise.append(u / l)
    einzeln.append(np.average(v, weights=np.exp(s - s.max())))  # der Block für sich allein

for name, wert in [("Dicht", dicht), ("Online", u / l), ("m", m), ("l", l), ("u", u),
                   ("Mittel der Blockergebnisse", np.mean(einzeln))]:
    print(f"{name}: {wert:.6f}".replace(".", ","))
figur, achse = plt.subplots(figsize=(6, 3.5), layout="constrained")
nummern = np.arange(1, len(blockweise) + 1)
achse.bar(nummern, einzeln, width=0.5, color="#bbbbbb", label="Block für sich")
achse.plot(nummern, blockweise, "o-", color="#0066a1", label="online bis hier")
achse.axhline(dicht, color="#d0021b", linestyle="--", label="dichte Attention")
achse.set_xticks(nummern, [f"Block {k}" for k in nummern])
achse.yaxis.set_major_formatter(lambda y, _: f"{y:g}".replace(".", ","))
achse.legend()
plt.show()
