# Kreuzentropie und Perplexität: −ln p des richtigen Tokens, gemittelt, und e hoch dieses Mittel
import re
import numpy as np
import matplotlib.pyplot as plt

# Einstellungen aus dem Experiment (ändere sie ruhig):
satz = 'katze'
text = ''
p = []

saetze = {"katze": "Die Katze schläft.", "hund": "Der Hund bellt.", "miaut": "Der Hund miaut.",
          "fisch": "Die Katze frisst gern Fisch.", "sofa": "Die Katze schläft auf dem Sofa.", "maus": "Die Maus schläft."}
# Die Tabelle: nach einem Wort ein paar Fortsetzungen; die übrigen ihrer 16 Tokens teilen sich den Rest.
# "?" steht für jedes Wort, das die Tabelle nicht kennt.
tokens = "die der katze hund schläft frisst bellt miaut gern fisch knochen auf dem sofa . ?".split()
anfang = {"die": 1 / 2, "der": 1 / 4}
tabelle = {"<anfang>": anfang, ".": anfang, "die": {"katze": 1 / 2, "?": 1 / 4}, "der": {"hund": 1 / 2, "?": 1 / 4},
           "katze": {"schläft": 1 / 2, "frisst": 1 / 4, "miaut": 1 / 8}, "hund": {"bellt": 1 / 2, "schläft": 1 / 4, "frisst": 1 / 8},
           "schläft": {".": 1 / 2, "auf": 1 / 4, "gern": 1 / 8}, "frisst": {"fisch": 1 / 4, "knochen": 1 / 4, "gern": 1 / 4},
           "bellt": {".": 1 / 2, "gern": 1 / 4}, "miaut": {".": 1 / 2, "gern": 1 / 4},
           "gern": {"fisch": 1 / 4, "knochen": 1 / 4, ".": 1 / 4}, "fisch": {".": 3 / 4}, "knochen": {".": 3 / 4},
           "auf": {"dem": 1 / 2, "?": 1 / 4}, "dem": {"sofa": 1 / 2, "?": 1 / 4}, "sofa": {".": 3 / 4}, "?": {}}


def wahrscheinlichkeit(davor, token):
    genannt = tabelle[davor]  # ein nicht genanntes Token bekommt seinen Teil vom Rest
    return genannt.get(token, (1 - sum(genannt.values())) / (len(tokens) - len(genannt)))


woerter = re.findall(r"[^\W\d_]+|\.", text or saetze[satz])[:10]  # höchstens 10 Tokens
folge = [w.lower() if w.lower() in tokens else "?" for w in woerter]
q = np.array([wahrscheinlichkeit(d, t) for d, t in zip(["<anfang>"] + folge[:-1], folge)])
q[:len(p)] = p[:len(q)]  # eigene Wahrscheinlichkeiten ersetzen die ersten Werte der Tabelle
verlust = -np.log(q)  # in Nat; −log₂ q wäre in Bit
mittel = verlust.mean()  # die Kreuzentropie
komma = lambda x: f"{x:.6f}".replace(".", ",")
print("\n".join(f"Verlust {wort}: {komma(wert)}" for wort, wert in zip(woerter, verlust)))
print("Kreuzentropie (Nat):", komma(mittel))
print("Kreuzentropie (Bit):", komma(mittel / np.log(2)))
print("Perplexität:", komma(np.exp(mittel)))

plt.bar(range(len(q)), verlust, color="#b35a00", tick_label=woerter)
plt.axhline(mittel, color="black", linestyle="--", label=f"Mittel, Perplexität {np.exp(mittel):.2f}")
plt.ylabel("−ln p (Nat)"), plt.legend(), plt.show()
