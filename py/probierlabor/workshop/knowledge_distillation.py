# Knowledge Distillation: harter und weicher Verlust eines Schülers, der vom Lehrer lernt
import numpy as np
import matplotlib.pyplot as plt

# Einstellungen aus dem Experiment (ändere sie ruhig):
T = 1.0
s_a = 0.9
split = 0.5
alpha = 0.5
teacher = []

lehrer = np.array(teacher if teacher else [0.60, 0.35, 0.05])  # ein eigener Lehrer ersetzt den des Beispiels
tokens, label = list("ABCDEFGH"[:len(lehrer)]), np.eye(len(lehrer))[0]  # das Label ist immer A
# der Schüler: A bekommt s_a, B den Anteil split vom Rest (bei zwei Tokens alles), C, D, … den Rest wie beim Lehrer
b = split if len(lehrer) > 2 else 1.0
rest = lehrer[2:] if lehrer[2:].sum() > 0 else np.ones(len(lehrer) - 2)  # gibt der Lehrer ihnen nichts: gleich viel
schueler = np.concatenate([[s_a, b * (1 - s_a)], (1 - b) * (1 - s_a) * rest / rest.sum()])

def weich(wahrsch):
    with np.errstate(divide="ignore"):  # Logits ln p durch T teilen (ln 0 = −∞ wird 0); größeres T: flacher
        logits = np.log(wahrsch) / T
    e = np.exp(logits - logits.max())
    return e / e.sum()

lehrer_T, schueler_T = weich(lehrer), weich(schueler)
hart = -np.log(schueler[0])  # das Label schaut nur auf A
m = lehrer_T > 0  # Tokens, die der Lehrer ausschließt, zählen nicht
kl = np.sum(lehrer_T[m] * np.log(lehrer_T[m] / schueler_T[m]))  # wie weit der Schüler vom Lehrer weg ist
gesamt = (1 - alpha) * hart + alpha * T**2 * kl  # T² gleicht aus, dass weiche Ziele schwächer ziehen

for name, wert in [("Harter Verlust", hart), ("Weicher Verlust (KL)", kl), ("T² · KL", T**2 * kl),
                   ("Gesamt", gesamt)] + [(f"Lehrer bei T, {t}", q) for t, q in zip(tokens, lehrer_T)]:
    print(f"{name}: {wert:.6f}".replace(".", ","))

figur, achse = plt.subplots(figsize=(6, 3.5), layout="constrained")
x = np.arange(len(tokens))
for k, (name, werte, farbe) in enumerate([("Label „A“", label, "#bbbbbb"), ("Lehrer", lehrer_T, "#0066a1"),
                                          ("Schüler", schueler_T, "#d0021b")]):
    achse.bar(x + (k - 1) * 0.27, werte, width=0.27, color=farbe, label=name)
achse.set_xticks(x, [f"Token {t}" for t in tokens])
achse.yaxis.set_major_formatter(lambda y, _: f"{y:g}".replace(".", ","))
achse.set_ylabel("Wahrscheinlichkeit")
achse.set_title(f"Weiche Ziele bei T = {T:g}".replace(".", ","))
achse.legend()
plt.show()
