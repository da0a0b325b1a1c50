# Prefill in Abschnitten: Jede Position mittelt die Values, die sie sehen darf
import numpy as np
import matplotlib.pyplot as plt

# Einstellungen aus dem Experiment (ändere sie ruhig):
chunk = 2
step = 4
cache = True
v1 = 2
v2 = 4
v3 = 8
v4 = 10

values = np.array([v1, v2, v3, v4], dtype=float)
n = len(values)
# alle auf einmal: Position i mittelt die Values 1 bis i (spätere sind maskiert)
alle = np.cumsum(values) / np.arange(1, n + 1)

ausgaben = np.full(n, np.nan)
anfaenge = list(range(0, n, chunk))
fertig = anfaenge[:step]  # die ersten Abschnitte sind schon verarbeitet
for anfang in fertig:
    for i in range(anfang, min(anfang + chunk, n)):
        erste = 0 if cache else anfang  # ohne Cache sieht i nur den eigenen Abschnitt
        ausgaben[i] = values[erste:i + 1].mean()
# ohne Cache liegen danach nur die K/V des letzten Abschnitts vor
im_cache = min(fertig[-1] + chunk, n) if cache else min(chunk, n - fertig[-1])

print(f"Abschnitte: {len(fertig)} von {len(anfaenge)}")
print(f"K/V im Cache danach: {im_cache}")
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
achse.set_title("Prefill " + ("mit" if cache else "ohne") + " Cache")
achse.legend()
plt.show()
