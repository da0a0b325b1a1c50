# Prefix Caching: Welche Blöcke einer neuen Anfrage findet der Cache über ihre verketteten Hashes?
import hashlib
import struct
import numpy as np
import matplotlib.pyplot as plt

# Einstellungen aus dem Experiment (ändere sie ruhig):
x = 'H'
block_size = 2
cached = ''
prompt = ''

gespeichert = list(cached or "ABCDEFGH")  # ein Token je Zeichen, seine ID ist der Zeichencode (A = 65 …)


def hashes(tokens):
    # Hash eines vollen Blocks: über den Hash des Blocks davor und die eigenen Token-IDs
    kette, vorher = [], b""
    for anfang in range(0, len(tokens) - block_size + 1, block_size):
        ids = b"".join(struct.pack("<q", ord(t)) for t in tokens[anfang:anfang + block_size])
        vorher = hashlib.sha256(vorher + ids).digest()
        kette.append(vorher)
    return kette

def wiederverwendet(ersetzt, anfrage=None):
    stelle = "ABCDEFGH".find(ersetzt)  # X an der Stelle dieses Buchstabens (A = 1., H = 8.); "-": keine
    anfrage = anfrage or [("X" if i == stelle else t) for i, t in enumerate(gespeichert)]
    bekannt = set(hashes(gespeichert))  # diese Blöcke liegen schon im Cache
    passend = np.cumprod([h in bekannt for h in hashes(anfrage)]).sum()  # nur ein Lauf ab dem Anfang zählt
    # das letzte Token rechnet das Modell immer selbst, sonst fehlen die Logits fürs erste neue Token
    return passend, min(passend, (len(anfrage) - 1) // block_size), anfrage


passend, bloecke, anfrage = wiederverwendet(x, list(prompt))
print("Anfrage:", " ".join(anfrage))
print("Hashes:", " ".join(h.hex()[:6] for h in hashes(anfrage)))
print(f"Passende Blöcke: {passend}\nWiederverwendete Blöcke: {bloecke}")
print(f"Wiederverwendete Tokens: {bloecke * block_size}\nNeu zu rechnen: {len(anfrage) - bloecke * block_size}")

figur, achse = plt.subplots(figsize=(6, 3.5), layout="constrained")
faelle = list("ABCDEFGH"[:len(gespeichert)]) + ["-"]  # "-": nichts ersetzt, dieselbe Anfrage noch einmal
achse.bar(faelle, [wiederverwendet(f)[1] * block_size for f in faelle],
          color=["#d0021b" if f == x else "#0066a1" for f in faelle])
achse.set(xlabel="X an der Stelle von", ylabel="wiederverwendete Tokens", title=f"Blöcke zu {block_size} Tokens")
plt.show()
