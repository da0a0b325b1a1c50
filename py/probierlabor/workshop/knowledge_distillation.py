# Knowledge Distillation: harter und weicher Verlust eines Schülers, der vom Lehrer lernt
import numpy as np
import matplotlib.pyplot as plt

# Einstellungen aus dem Experiment (ändere sie ruhig):
T = 1.0
s_a = 0.9
split = 0.5
alpha = 0.5

tokens = ["A", "B", "C"]
label = np.array([1.0, 0.0, 0.0])
lehrer = np.array([0.60, 0.35, 0.05])
# der Schüler gibt A die Chance s_a und teilt den Rest im Verhältnis split zu 1 − split auf B und C
schueler = np.array([s_a, split * (1 - s_a), (1 - split) * (1 - s_a)])


def weich(chancen):
    # Logits ln p durch T teilen und wieder normieren: größeres T macht die Verteilung flacher
    logits = np.log(chancen) / T
    e = np.exp(logits - logits.max())
    return e / e.sum()


lehrer_T, schueler_T = weich(lehrer), weich(schueler)
hart = -np.log(schueler[0])  # das Label schaut nur auf A
kl = np.sum(lehrer_T * np.log(lehrer_T / schueler_T))  # wie weit der Schüler vom Lehrer weg ist
gesamt = (1 - alpha) * hart + alpha * T**2 * kl  # T² gleicht aus, dass weiche Ziele schwächer ziehen

for name, wert in [("Harter Verlust", hart), ("Weicher Verlust (KL)", kl), ("T² · KL", T**2 * kl),
                   ("Gesamt", gesamt)] + [(f"Lehrer bei T, {t}", q) for t, q in zip(tokens, lehrer_T)]:
    print(f"{name}: {wert:.6f}".replace(".", ","))

figur, achse = plt.subplots(figsize=(6, 3.5), layout="constrained")
x = np.arange(3)
for k, (name, werte, farbe) in enumerate([("Label „A“", label, "#bbbbbb"), ("Lehrer", lehrer_T, "#0066a1"),
                                          ("Schüler", schueler_T, "#d0021b")]):
    achse.bar(x + (k - 1) * 0.27, werte, width=0.27, color=farbe, label=name)
achse.set_xticks(x, [f"Token {t}" for t in tokens])
achse.yaxis.set_major_formatter(lambda y, _: f"{y:g}".replace(".", ","))
achse.set_ylabel("Wahrscheinlichkeit")
achse.set_title(f"Weiche Ziele bei T = {T:g}".replace(".", ","))
achse.legend()
plt.show()
