# KL-Divergenz: Wie weit liegt die Näherung von der Referenz entfernt – in beiden Richtungen?
import numpy as np
import matplotlib.pyplot as plt

# Einstellungen aus dem Experiment (ändere sie ruhig; eigene Verteilungen p_eigen, q_eigen ersetzen p_a, q_a):
p_a = 0.9
q_a = 0.5
swap = False
p_eigen = []
q_eigen = []

def kl(r, a):
    # Σ r·ln(r/a), Referenz r, Näherung a: r = 0 zählt nicht, a = 0 < r macht sie unendlich
    with np.errstate(divide="ignore", invalid="ignore"):
        summanden = np.where(r > 0, r * np.log(r / a), 0.0)
    return np.maximum(0.0, summanden.sum(axis=0))  # nie negativ, auch nicht durch Rundung


def zeige(wert):
    return "∞" if np.isinf(wert) else f"{wert:.4f}".replace(".", ",")


p, q = np.array(p_eigen if p_eigen else [p_a, 1 - p_a]), np.array(q_eigen if q_eigen else [q_a, 1 - q_a])
n = max(len(p), len(q))  # fehlende Ereignisse bekommen die Wahrscheinlichkeit 0
p, q = np.pad(p, (0, n - len(p))), np.pad(q, (0, n - len(q)))
referenz, naeherung = (q, p) if swap else (p, q)
print(f"D(p‖q): {zeige(kl(p, q))} Nat")
print(f"D(q‖p): {zeige(kl(q, p))} Nat")
entropie = sum(-r * np.log(r) for r in referenz if r > 0)
print(f"Kreuzentropie: {zeige(entropie + kl(referenz, naeherung))} Nat")  # = Entropie + KL
print(f"Entropie der Referenz: {zeige(entropie)} Nat")
figur, achse = plt.subplots(figsize=(6, 3.5))
if n == 2:  # beide Richtungen, während q(A) von 0 bis 1 läuft und p fest bleibt
    pa = np.linspace(0.001, 0.999, 500)
    achse.plot(pa, kl(p[:, None], np.array([pa, 1 - pa])), color="#0066a1", label="D(p‖q)")
    achse.plot(pa, kl(np.array([pa, 1 - pa]), p[:, None]), color="#d0021b", label="D(q‖p)")
    achse.axvline(q[0], color="#bbbbbb", linestyle="--", label="dein q(A)")
    achse.set(ylim=(0, 3), xlabel="q(A)", ylabel="KL-Divergenz in Nat")
    achse.xaxis.set_major_formatter(lambda x, _: f"{x:g}".replace(".", ","))
else:  # mehr Ereignisse: die beiden Verteilungen nebeneinander
    achse.bar(np.arange(n) - 0.2, p, 0.4, color="#0066a1", label="p")
    achse.bar(np.arange(n) + 0.2, q, 0.4, color="#d0021b", label="q", tick_label=list("ABCDEFGH"[:n]))
achse.yaxis.set_major_formatter(lambda y, _: f"{y:g}".replace(".", ","))
achse.legend()
plt.show()
