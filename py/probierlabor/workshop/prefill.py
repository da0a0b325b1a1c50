# Prefill in Abschnitten: Jede Position mittelt die Values, die sie sehen darf
import numpy as np
import matplotlib.pyplot as plt

# Einstellungen aus dem Experiment (ändere sie ruhig):
chunk = 2
step = 8
cache = True
v1 = 2
v2 = 4
v3 = 8
v4 = 10
values = []
scores = []

n = max(len(values), len(scores)) or 4  # eigene Listen: so viele Positionen wie die längere, fehlende sind 0
v, s = (np.array(((e or f) + [0.0] * 8)[:n], dtype=float) for e, f in [(values, [v1, v2, v3, v4]), (scores, [])])
mittel = lambda sicht: np.average(v[sicht], weights=np.exp(s[sicht] - s[sicht].max()))  # Softmax über die Scores
alle = [mittel(np.arange(i + 1)) for i in range(n)]  # alle auf einmal: Position i sieht 1 bis i, nie spätere

ausgaben = np.full(n, np.nan)
anfaenge = list(range(0, n, chunk))
fertig = anfaenge[:step]  # die ersten Abschnitte sind schon verarbeitet
for anfang in fertig:
    for i in range(anfang, min(anfang + chunk, n)):
        erste = 0 if cache else anfang  # ohne Cache sieht i nur den eigenen Abschnitt
        ausgaben[i] = mittel(np.arange(erste, i + 1))
# ohne Cache liegen danach nur die K/V des letzten Abschnitts vor
im_cache = min(fertig[-1] + chunk, n) if cache else min(chunk, n - fertig[-1])

print(f"Abschnitte: {len(fertig)} von {len(anfaenge)}\nK/V im Cache danach: {im_cache}")
for i in range(n):
    text = "noch offen" if np.isnan(ausgaben[i]) else f"{ausgaben[i]:.6f}".replace(".", ",")
    print(f"Position {i + 1}: {text} (alle auf einmal: {alle[i]:.6f})".replace(".", ","))
stimmt = "ja" if np.allclose(ausgaben, alle) else "nein"
print("Gleiches Ergebnis wie alle auf einmal:", stimmt if len(fertig) == len(anfaenge) else "noch nicht fertig")

figur, achse = plt.subplots(figsize=(6, 3.5), layout="constrained")
x = np.arange(1, n + 1)
achse.bar(x - 0.2, ausgaben, width=0.4, color="#0066a1", label=f"in Abschnitten zu {chunk}")
achse.bar(x + 0.2, alle, width=0.4, color="#bbbbbb", label="alle auf einmal")
achse.set_xticks(x, [f"Position {i}" for i in x])
achse.yaxis.set_major_formatter(lambda y, _: f"{y:g}".replace(".", ","))
achse.legend(title="Prefill " + ("mit" if cache else "ohne") + " Cache")
plt.show()
