# Tokenisierung: Byte-Pair-Encoding mit den Merges des Sprachmodells dieser Website
import json
import re
import numpy as np
import matplotlib.pyplot as plt
from probierlabor.kit.site_tokenizer import TEXT  # die Datei des Tokenizers

# Einstellungen aus dem Experiment (ändere sie ruhig):
merges = 768
row = 'haus'
text = ''

beispiele = {"haus": "Haus", "strasse": "Straßenbahnhaltestelle", "schaltflaeche": "Klicke auf die Schaltfläche.",
             "emoji": "Ich 😀 dich", "katze": "Die Katze sitzt auf der Straße."}
satz = text or beispiele[row]  # ein eigener Text ersetzt das Beispiel
datei = json.loads(TEXT)  # der Tokenizer des Modells
rang = {tuple(paar): i for i, paar in enumerate(datei["merges"])}  # Merge i macht das Paar zu 256 + i
stuecke = re.findall(datei["pattern"], satz)  # ein Wort samt Leerzeichen davor, Zahlen, Satzzeichen

def bpe(ids, k):
    """Verschmilzt immer das am frühesten gelernte Paar, solange es zu den ersten k Merges gehört."""
    while len(ids) > 1:
        paar = min(zip(ids, ids[1:]), key=lambda p: rang.get(p, len(rang)))
        if rang.get(paar, len(rang)) >= k:
            return ids
        aus, i = [], 0
        while i < len(ids):
            treffer = tuple(ids[i:i + 2]) == paar
            aus.append(256 + rang[paar] if treffer else ids[i])
            i += 2 if treffer else 1
        ids = aus
    return ids

tokens = lambda k: [t for stueck in stuecke for t in bpe(list(stueck.encode("utf-8")), k)]  # der ganze Text
n_bytes, ids = len(satz.encode("utf-8")), tokens(merges)
print(f"Bytes: {n_bytes}\nTokens: {len(ids)}\nNummern: {' '.join(map(str, ids))}")
alle = np.arange(len(rang) + 1)  # 0 bis alle Merges: 769 Zerlegungen, einen Moment Geduld
anzahl = np.array([len(tokens(k)) for k in alle])
print("Halb so viele Tokens wie Bytes ab Merge:", next((k for k in alle if 2 * anzahl[k] <= n_bytes), "nie"))
plt.step(alle, anzahl, where="post", label="Tokens")
plt.axhline(len(satz), color="#00745a", linestyle="--", label="Zeichen")
plt.plot([merges], [len(ids)], "o", color="#0066a1")
plt.xlabel("Merges (Vokabular = 256 + Merges)"), plt.ylabel("Tokens"), plt.legend()
plt.show()
