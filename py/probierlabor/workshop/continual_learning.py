# Continual Learning: ein kleiner Klassifikator lernt Reklamationen dazu – was vergisst er dabei?
import random
import re

import numpy as np
import matplotlib.pyplot as plt
from probierlabor.concepts.continual_learning_messages import TRAIN, TEST  # nur die Texte der Seite

# Einstellungen aus dem Experiment (ändere sie ruhig):
epochs = 20
variant = 'replay'
keep = 20
lam = 100
hint = False
seed = 3

L, R, K = TRAIN  # die drei Abteilungen: Lieferung, Rücksendungen, Reklamationen
woerter = lambda text: set(re.findall(r"[a-zäöüß]+", text.lower()))
vokabular = list(dict.fromkeys(w for a in (L, R, K) for t in TRAIN[a] for w in sorted(woerter(t))))
merkmale = lambda texte: np.array([[w in s for w in vokabular] + [1] for s in map(woerter, texte)], float)
X_alt, X_neu, X_test = (merkmale(t) for t in (TRAIN[L] + TRAIN[R], TRAIN[K], TEST[L] + TEST[R] + TEST[K]))
y_alt, y_neu, y_test = np.repeat([0, 1], 30), np.full(30, 2), np.repeat([0, 1], 50)  # Test: erst 100 alte
def test(W):  # richtig bei alten Nachrichten, bei Reklamationen; alte, die als Reklamation gelten
    antwort = (X_test @ W.T + np.where(hint, [0, 0, -np.inf], 0)).argmax(1)  # Hinweis: alt ist nie Reklamation
    return sum(antwort[:100] == y_test), (100 if hint else sum(antwort[100:] == 2)), sum(antwort[:100] == 2)
def lerne(W, X, y, zufall, a=0.0, W_alt=0.0):  # Softmax-Regression: 30 Epochen, je 10 Beispiele, Lernrate 0,5
    yield test(W)  # vor dem Lernen und nach jeder Epoche: der Test
    for _ in range(30):
        zufall.shuffle(reihe := list(range(len(y))))  # jede Epoche in neuer Reihenfolge
        for b in (reihe[i:i + 10] for i in range(0, len(y), 10)):
            P = np.exp(X[b] @ W.T - (X[b] @ W.T).max(1, keepdims=True))
            W -= 0.5 / len(b) * (P / P.sum(1, keepdims=True) - np.eye(3)[y[b]]).T @ X[b]
            W[:] = (W + a * W_alt) / (1 + a)  # EWC zieht wichtige Gewichte zurück (sonst a = 0)
        yield test(W)
list(lerne(W := np.zeros((3, len(vokabular) + 1)), X_alt, y_alt, random.Random(1)))  # die alte Aufgabe
P = np.exp(X_alt @ W.T) / np.exp(X_alt @ W.T).sum(1, keepdims=True)  # Fisher-Information:
a = 0.5 * lam * (P * (1 - P)).T @ X_alt / 60 if variant == "ewc" else 0.0  # wie wichtig jedes Gewicht war
behalten = sorted(random.Random(seed).sample(range(60), min(keep, 60))) if variant == "replay" else []
X, y = np.vstack([X_neu, X_alt[behalten]]), np.append(y_neu, y_alt[behalten])  # Wiederholungen dazu
kurve = list(lerne(W, X, y, random.Random(2), a, W.copy()))  # die neue Aufgabe: Reklamationen
print("Alte Nachrichten richtig: {}\nReklamationen richtig: {}\nAlte als Reklamation: {}".format(*kurve[epochs]))
plt.plot(np.array(kurve)[:, :2], label=["alte Nachrichten", "Reklamationen"])
plt.axvline(epochs, color="#bbbbbb", ls=":")
plt.xlabel("Epochen mit Reklamationen"), plt.ylabel("richtig (von 100)"), plt.legend()
plt.show()
