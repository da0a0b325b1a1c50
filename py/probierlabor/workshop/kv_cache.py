# KV-Cache: Wie viel Rechnen er spart und wie viele Byte er belegt
import math
import numpy as np
import matplotlib.pyplot as plt

# Einstellungen aus dem Experiment (ändere sie ruhig):
step = 4
layers = 1
positions = 4
kv_heads = 2
dim = 3
bytes_per = 4
batch = 1

tokens = list("ABCDEF")[:step]
# mit Cache rechnet jedes neue Token nur sein eigenes K/V-Paar, ohne Cache alle bis dahin noch einmal
mit_cache = np.ones(step, dtype=int)
ohne_cache = np.arange(1, step + 1)
print("Aktuelles Token:", tokens[-1])
print("K/V-Paare im Cache:", mit_cache.sum())
print("K/V-Berechnungen mit Cache:", mit_cache.sum())
print("K/V-Berechnungen ohne Cache:", ohne_cache.sum())

# die 2 steht für K und V; Python-Ganzzahlen laufen auch bei großen Modellen nicht über
je_position = math.prod([2, layers, kv_heads, dim, bytes_per, batch])
gesamt = je_position * positions
print("Byte je Position:", je_position)
print("Byte gesamt:", gesamt)
print(f"Byte für {', '.join(tokens)}:", je_position * step)
print(f"MiB: {gesamt / 2**20:.6f}".replace(".", ","))

figur, achse = plt.subplots(figsize=(6, 3.5), layout="constrained")
x = np.arange(step)
achse.plot(x, np.cumsum(ohne_cache), "o-", color="#bbbbbb", label="ohne Cache")
achse.plot(x, np.cumsum(mit_cache), "o-", color="#0066a1", label="mit KV-Cache")
achse.set_xticks(x, tokens)
achse.set(xlabel="verarbeitetes Token", ylabel="K/V-Berechnungen bisher", ylim=(0, ohne_cache.sum() + 1),
          title=f"{je_position} Byte je Position, {gesamt} Byte gesamt")
achse.yaxis.set_major_locator(plt.MaxNLocator(integer=True))  # es gibt nur ganze K/V-Paare
achse.legend()
plt.show()
