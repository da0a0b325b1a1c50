# Decode: Token für Token weiterschreiben, mit KV-Cache und zum Vergleich ohne
import numpy as np
import matplotlib.pyplot as plt

# Einstellungen aus dem Experiment (ändere sie ruhig):
steps = 0
prompt = 'AB'

namen = ["A", "B", "C"]
vektoren = {"A": [1.0, 0.0], "B": [0.0, 1.0], "C": [-1.0, -1.0]}  # hier ist Q = K = V der Vektor

cache = np.empty((0, 2))  # ein K/V-Paar pro verarbeiteter Position
neu_mit_cache, neu_ohne_cache, gewaehlt = [], [], []
zu_verarbeiten = list(prompt)  # erst der ganze Prompt (Prefill), danach je das zuletzt gewählte Token
for durchlauf in range(steps + 1):
    cache = np.vstack([cache] + [vektoren[t] for t in zu_verarbeiten])
    neu_mit_cache.append(len(zu_verarbeiten))
    neu_ohne_cache.append(len(cache))  # ohne Cache: alle Positionen noch einmal rechnen
    # Attention des letzten Tokens über alle Positionen im Cache
    scores = cache @ cache[-1] / np.sqrt(2)  # geteilt durch die Wurzel der Dimension 2
    gewichte = np.exp(scores - scores.max())
    gewichte /= gewichte.sum()
    h = gewichte @ cache
    logits = np.array([h[1], h[0], -h[0] - h[1]])  # so legt das Spielzeugmodell die Logits für A, B, C fest
    wahl = namen[np.argmax(logits.round(12))]  # bei Gleichstand das erste: A vor B vor C
    gewaehlt.append(wahl)
    zu_verarbeiten = [wahl]  # das Gewählte kommt erst im nächsten Durchlauf in den Cache

print(f"h: ({h[0]:.6f}; {h[1]:.6f})".replace(".", ","))
print("Gewählt:", " ".join(gewaehlt))
print("Positionen im Cache:", len(cache))
print("K/V-Berechnungen mit Cache:", sum(neu_mit_cache))
print("K/V-Berechnungen ohne Cache:", sum(neu_ohne_cache))

figur, achse = plt.subplots(figsize=(6, 3.5), layout="constrained")
x = np.arange(steps + 1)
achse.bar(x - 0.2, neu_ohne_cache, width=0.4, color="#bbbbbb", label="ohne Cache")
achse.bar(x + 0.2, neu_mit_cache, width=0.4, color="#0066a1", label="mit KV-Cache")
achse.set_xticks(x, ["Prefill"] + [str(k) for k in x[1:]])
achse.set(xlabel="Durchlauf", ylabel="neue K/V-Paare",
          title=f"Prompt {' '.join(prompt)}, gewählt: {' '.join(gewaehlt)}")
achse.yaxis.set_major_locator(plt.MaxNLocator(integer=True))  # es gibt nur ganze K/V-Paare
achse.legend()
plt.show()
