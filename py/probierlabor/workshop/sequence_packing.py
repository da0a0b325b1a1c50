# Sequence Packing: Zeilen mit 8 Plätzen, erlaubte Zugriffe und bewertete Tokens, gezählt mit Masken
import numpy as np
import matplotlib.pyplot as plt

# Einstellungen aus dem Experiment (ändere sie ruhig):
variant = 'kurz'
packing = True
strategy = 'bfd'
separation = True
start_loss = True

laengen = {"kurz": [3, 2, 2], "voll": [8, 8, 8], "lang": [3, 2, 2, 10]}[variant]  # Tokens je Beispiel
beispiele = [[b] * n for b, n in enumerate(laengen)]  # jedes Token trägt die Nummer seines Beispiels
if packing and strategy == "wrapped":  # alles hintereinander, alle 8 Plätze abschneiden
    zeilen, verloren = [sum(beispiele, [])[i:i + 8] for i in range(0, sum(laengen), 8)], 0
else:  # jedes Beispiel auf 8 Tokens kürzen, der Rest geht verloren
    gekuerzt, verloren = [b[:8] for b in beispiele], sum(max(0, n - 8) for n in laengen)
    zeilen = [] if packing else gekuerzt
    for b in sorted(gekuerzt, key=len, reverse=True) if packing else []:  # längstes zuerst
        # in die Zeile, deren freier Platz am knappsten reicht; eine neue Zeile hat 8 frei
        frei = [8 - len(z) if len(z) + len(b) <= 8 else 99 for z in zeilen] + [8]
        zeilen += [[]] if np.argmin(frei) == len(zeilen) else []
        zeilen[np.argmin(frei)] += b
breite = 8 if packing else max(map(len, zeilen))
raster = np.array([z + [-1] * (breite - len(z)) for z in zeilen])  # −1 = leerer Platz
(zeile, spalte), beispiel = np.nonzero(raster >= 0), raster[raster >= 0]  # jedes Token, Zeile für Zeile
stueck = zeile if packing and strategy == "wrapped" else beispiel  # ohne Längen kennt er nur Zeilen
darf = (zeile[:, None] == zeile) & (spalte[:, None] >= spalte)  # nur frühere Plätze der eigenen Zeile
gesperrt = darf & separation & (stueck[:, None] != stueck)
darf &= ~gesperrt
vorher = zeile[1:] == zeile[:-1]  # das Token davor steht in derselben Zeile
bewertet = vorher & ~(start_loss & (stueck[1:] != stueck[:-1]))  # Anfänge eines Stücks nicht bewerten
quer = beispiel[:, None] != beispiel  # Paare von Tokens aus verschiedenen Beispielen
print(f"Zeilen: {len(raster)} –", " | ".join("".join("·ABCD"[b + 1] for b in z) for z in raster))
print(f"Plätze: {raster.size}\nLeere Plätze: {np.sum(raster < 0)}\nVerlorene Tokens: {verloren}")
print(f"Erlaubte Zugriffe: {darf.sum()}\nZugriffe über Grenzen: {np.sum(darf & quer)}")
print(f"Durch Trennung gesperrt: {gesperrt.sum()}\nBewertete Tokens: {bewertet.sum()}")
print(f"Über Grenzen gelernt: {np.sum(bewertet & (beispiel[1:] != beispiel[:-1]))}")
fig, ax = plt.subplots(figsize=(5, 5))  # Zugriffe: blau im Beispiel, rot über Grenzen, grau gesperrt
ax.imshow(np.select([darf & ~quer, darf & quer, gesperrt], [3, 2, 1]), vmin=0, vmax=3,
          cmap=plt.matplotlib.colors.ListedColormap(["white", "#bbbbbb", "#d0021b", "#0066a1"]))
namen = ["ABCD"[b] + str(list(beispiel[:k]).count(b) + 1) for k, b in enumerate(beispiel)]
ax.set(xticks=range(len(namen)), xticklabels=namen, yticks=range(len(namen)), yticklabels=namen,
       xlabel="liest", ylabel="Position")
plt.show()
