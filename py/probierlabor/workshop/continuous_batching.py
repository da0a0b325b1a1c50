# Continuous Batching gegen feste Gruppe: Plätze im Batch, Anfragen Runde für Runde geplant
import numpy as np
import matplotlib.pyplot as plt

# Einstellungen aus dem Experiment (ändere sie ruhig):
b_rounds = 2
a_rounds = 6
c_ready = 1
c_rounds = 2
slots = 2
lengths = []
arrivals = []

# Name, bereit ab, Runden; eigene Anfragen heißen A bis F, und eine fehlende Ankunftsrunde ist 0
anfragen = ([(n, (arrivals + [0] * 6)[i], r) for i, (n, r) in enumerate(zip("ABCDEF", lengths))] if lengths
            else [("A", 0, a_rounds), ("B", 0, b_rounds), ("C", c_ready, c_rounds)])
beobachtet, bereit_ab = "C" if len(anfragen) > 2 else anfragen[-1][0], {n: b for n, b, _ in anfragen}

def plane(fest):
    wartend = sorted(anfragen, key=lambda r: r[1])  # wer früher bereit ist, kommt zuerst dran
    frei_ab, plan, t = [0] * slots, {}, 0
    while wartend:
        gruppe_fertig = max(frei_ab) <= t  # eine feste Gruppe startet erst, wenn alle fertig sind
        for platz in range(slots):
            bereit = [r for r in wartend if r[1] <= t]
            if bereit and frei_ab[platz] <= t and (gruppe_fertig or not fest):
                name, _, runden = bereit[0]
                plan[name], frei_ab[platz] = (platz, t, t + runden), t + runden
                wartend.remove(bereit[0])
        t += 1
    return plan

figur, achsen = plt.subplots(2, 1, figsize=(6, 4), sharex=True, layout="constrained")
for achse, (titel, fest) in zip(achsen, [("Continuous Batching", False), ("Feste Gruppe", True)]):
    plan = plane(fest)
    ende = max(e for _, _, e in plan.values())
    print(f"{titel}, Wartezeit von {beobachtet}: {plan[beobachtet][1] - bereit_ab[beobachtet]}")
    print(f"{titel}, mittlere Zeit bis fertig: {np.mean([plan[n][2] - b for n, b, _ in anfragen]):.6f}".replace(".", ","))
    print(f"{titel}, alles fertig nach: {ende}\n{titel}, leere Platz-Runden: {slots * ende - sum(r for *_, r in anfragen)}")
    for name, (platz, start, stop) in plan.items():
        achse.barh(platz, stop - start, left=start, color="#d0021b" if name == beobachtet else "#0066a1", edgecolor="white")
        achse.text((start + stop) / 2, platz, f"{name} {start}→{stop}", ha="center", va="center", color="white")
    achse.set(title=titel, yticks=range(slots), yticklabels=[f"Platz {p + 1}" for p in range(slots)])
achsen[1].set_xlabel("Runde")
plt.show()
