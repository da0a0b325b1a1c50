# Continuous Batching gegen feste Gruppe: zwei Plätze, drei Anfragen, Runde für Runde geplant
import numpy as np
import matplotlib.pyplot as plt

# Einstellungen aus dem Experiment (ändere sie ruhig):
b_rounds = 2
a_rounds = 6
c_ready = 1
c_rounds = 2

anfragen = [("A", 0, a_rounds), ("B", 0, b_rounds), ("C", c_ready, c_rounds)]  # Name, bereit ab, Runden


def plane(fest):
    wartend = sorted(anfragen, key=lambda r: r[1])  # wer früher bereit ist, kommt zuerst dran
    frei_ab, plan, t = [0, 0], {}, 0
    while wartend:
        gruppe_fertig = max(frei_ab) <= t  # eine feste Gruppe startet erst, wenn alle fertig sind
        for platz in range(2):
            bereit = [r for r in wartend if r[1] <= t]
            if bereit and frei_ab[platz] <= t and (gruppe_fertig or not fest):
                name, _, runden = bereit[0]
                plan[name] = (platz, t, t + runden)
                frei_ab[platz] = t + runden
                wartend.remove(bereit[0])
        t += 1
    return plan


figur, achsen = plt.subplots(2, 1, figsize=(6, 4), sharex=True, layout="constrained")
for achse, (titel, fest) in zip(achsen, [("Continuous Batching", False), ("Feste Gruppe", True)]):
    plan = plane(fest)
    ende = max(e for _, _, e in plan.values())
    fertig = np.mean([plan[name][2] - bereit for name, bereit, _ in anfragen])
    print(f"{titel}, Wartezeit von C: {plan['C'][1] - c_ready}")
    print(f"{titel}, mittlere Zeit bis fertig: {fertig:.6f}".replace(".", ","))
    print(f"{titel}, alles fertig nach: {ende}")
    print(f"{titel}, leere Platz-Runden: {2 * ende - sum(r for _, _, r in anfragen)}")
    for name, (platz, start, stop) in plan.items():
        achse.barh(platz, stop - start, left=start, color="#d0021b" if name == "C" else "#0066a1", edgecolor="white")
        achse.text((start + stop) / 2, platz, f"{name} {start}→{stop}", ha="center", va="center", color="white")
    achse.set(title=titel, yticks=[0, 1], yticklabels=["Platz 1", "Platz 2"])
achsen[1].set_xlabel("Runde")
plt.show()
