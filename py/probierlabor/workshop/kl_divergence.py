# KL-Divergenz: Wie weit liegt die Näherung von der Referenz entfernt – in beiden Richtungen?
import numpy as np
import matplotlib.pyplot as plt

# Einstellungen aus dem Experiment (ändere sie ruhig):
q1 = 0.9
p1 = 0.5
swap = False


def kl(r, a):
    # Σ r·ln(r/a), Referenz r, Näherung a: r = 0 zählt nicht, a = 0 < r macht sie unendlich
    with np.errstate(divide="ignore", invalid="ignore"):
        summanden = np.where(r > 0, r * np.log(r / a), 0.0)
    return np.maximum(0.0, summanden.sum(axis=0))  # nie negativ, auch nicht durch Rundung


def zeige(wert):
    return "∞" if np.isinf(wert) else f"{wert:.4f}".replace(".", ",")


q, p = np.array([q1, 1 - q1]), np.array([p1, 1 - p1])
referenz, naeherung = (p, q) if swap else (q, p)
print(f"D(q‖p): {zeige(kl(q, p))} nat")
print(f"D(p‖q): {zeige(kl(p, q))} nat")
entropie = sum(-r * np.log(r) for r in referenz if r > 0)
# Kreuzentropie = Entropie der Referenz + KL-Divergenz
print(f"Kreuzentropie: {zeige(entropie + kl(referenz, naeherung))} nat")
print(f"Entropie der Referenz: {zeige(entropie)} nat")

# beide Richtungen, während p(A) von 0 bis 1 läuft und q fest bleibt
pa = np.linspace(0.001, 0.999, 500)
alle_p = np.array([pa, 1 - pa])
figur, achse = plt.subplots(figsize=(6, 3.5))
achse.plot(pa, kl(q[:, None], alle_p), color="#0066a1", label="D(q‖p)")
achse.plot(pa, kl(alle_p, q[:, None]), color="#d0021b", label="D(p‖q)")
achse.axvline(p1, color="#bbbbbb", linestyle="--", label="dein p(A)")
achse.set_ylim(0, 3)
achse.set_xlabel("p(A)")
achse.set_ylabel("KL-Divergenz in nat")
achse.xaxis.set_major_formatter(lambda x, _: f"{x:g}".replace(".", ","))
achse.yaxis.set_major_formatter(lambda y, _: f"{y:g}".replace(".", ","))
achse.legend()
plt.show()
