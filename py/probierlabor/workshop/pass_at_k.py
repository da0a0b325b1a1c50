# pass@k: Welcher Anteil aller Gruppen aus k Versuchen enthält mindestens einen Erfolg?
from math import comb

import numpy as np
import matplotlib.pyplot as plt

# Einstellungen aus dem Experiment (ändere sie ruhig):
n = 4
c = 1
k = 2

erfolge = min(c, n)  # mehr Erfolge als Versuche gibt es nicht

def pass_at(j):
    # Anteil der Gruppen aus j Versuchen, die nicht nur aus Fehlversuchen bestehen
    return 1 - comb(n - erfolge, j) / comb(n, j)

gruppen = comb(n, k)  # 0, wenn k > n
mit_erfolg = gruppen - comb(n - erfolge, k)
print(f"Gruppen: {gruppen}")
print(f"Gruppen mit Erfolg: {mit_erfolg}")
if k <= n:
    print(f"pass@k: {pass_at(k):.4f}".replace(".", ","))
else:
    print("pass@k: nicht schätzbar (k > n)")
print(f"Naiv: {1 - (1 - erfolge / n) ** k:.4f}".replace(".", ","))

budgets = np.arange(1, n + 1)
schaetzung = np.array([pass_at(j) for j in budgets])
naiv = 1 - (1 - erfolge / n) ** budgets  # tut so, als dürfte ein Versuch mehrmals vorkommen
farben = np.where(budgets == k, "#0066a1", "#bbbbbb")
figur, achse = plt.subplots(figsize=(6, 3.5))
achse.bar(budgets, schaetzung, color=farben, label="Schätzung (Gruppen)")
achse.plot(budgets, naiv, "o-", color="#d0021b", label="naiv 1 − (1 − c/n)^j")
achse.set_xticks(budgets)
achse.set_xlabel("erlaubte Versuche j")
achse.set_ylabel("pass@j")
achse.set_ylim(0, 1.1)
achse.yaxis.set_major_formatter(lambda y, _: f"{y:g}".replace(".", ","))
achse.legend()
achse.set_title(f"n = {n} Versuche, davon {erfolge} bestanden")
plt.show()
