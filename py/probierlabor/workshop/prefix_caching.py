# Prefix Caching: Welche Blöcke einer neuen Anfrage findet der Cache über ihre verketteten Hashes?
import hashlib
import struct
import numpy as np
import matplotlib.pyplot as plt

# Einstellungen aus dem Experiment (ändere sie ruhig):
x = 'H'
block_size = 2

gespeichert = list("ABCDEFGH")


def hashes(tokens):
    # Hash eines vollen Blocks: über den Hash des Blocks davor und die eigenen Token-IDs (A = 65 …)
    kette, vorher = [], b""
    for anfang in range(0, len(tokens) - block_size + 1, block_size):
        ids = b"".join(struct.pack("<q", ord(t)) for t in tokens[anfang:anfang + block_size])
        vorher = hashlib.sha256(vorher + ids).digest()
        kette.append(vorher)
    return kette


def wiederverwendet(ersetzt):
    anfrage = [("X" if t == ersetzt else t) for t in gespeichert]
    bekannt = set(hashes(gespeichert))  # diese Blöcke liegen schon im Cache
    passend = np.cumprod([h in bekannt for h in hashes(anfrage)]).sum()  # nur ein Lauf ab dem Anfang zählt
    # das letzte Token rechnet das Modell immer selbst, sonst fehlen die Logits fürs erste neue Token
    return passend, min(passend, (len(anfrage) - 1) // block_size), anfrage


passend, bloecke, anfrage = wiederverwendet(x)
print("Anfrage:", " ".join(anfrage))
print("Hashes:", " ".join(h.hex()[:6] for h in hashes(anfrage)))
print("Passende Blöcke:", passend)
print("Wiederverwendete Blöcke:", bloecke)
print("Wiederverwendete Tokens:", bloecke * block_size)
print("Neu zu rechnen:", len(anfrage) - bloecke * block_size)

figur, achse = plt.subplots(figsize=(6, 3.5), layout="constrained")
faelle = gespeichert + ["-"]  # "-": nichts ersetzt, dieselbe Anfrage noch einmal
achse.bar(faelle, [wiederverwendet(f)[1] * block_size for f in faelle],
          color=["#d0021b" if f == x else "#0066a1" for f in faelle])
achse.set(xlabel="durch X ersetztes Token", ylabel="wiederverwendete Tokens", title=f"Blöcke zu {block_size} Tokens")
plt.show()
