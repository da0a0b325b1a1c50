# Reinforcement Learning: der Return G = r₁ + γ·r₂ der beiden Wege an der Gabelung
import numpy as np
import matplotlib.pyplot as plt

# Einstellungen aus dem Experiment (ändere sie ruhig):
gamma = 0.9
path = 'A'
reveal = 'none'
rewards = []

a1, a2, b1, b2 = rewards or [2, 0, 0, 5]  # eigene Münzen: A in Runde 1 und 2, dann B
belohnung = {"A": np.array([a1, a2]), "B": np.array([b1, b2])}  # Münzen in Runde 1 und Runde 2

def rueckgabe(weg, g):  # der Return: Runde 2 zählt nur mit dem Gewicht γ
    return belohnung[weg] @ np.array([1, g])

fig, ax = plt.subplots(figsize=(6, 4))
g = np.linspace(0, 1, 101)
for weg, farbe in [("A", "#0066a1"), ("B", "#d0021b")]:
    # Runde 2 kennst du erst, wenn sie aufgedeckt ist
    bekannt = reveal == "both" or (reveal == "own" and weg == path)
    text = f"{rueckgabe(weg, gamma):.4f}".replace(".", ",") if bekannt else "verdeckt"
    print(f"Return Weg {weg}: {text}{' (gewählt)' if weg == path else ''}")
    if bekannt:
        ax.plot(g, [rueckgabe(weg, x) for x in g], color=farbe, label=f"Weg {weg}")
        ax.plot(gamma, rueckgabe(weg, gamma), "o", color=farbe, ms=10 if weg == path else 6)
    else:  # nur Runde 1 ist bekannt
        ax.axhline(belohnung[weg][0], color=farbe, ls="--", label=f"Weg {weg}: nur Runde 1")
G_A, G_B = rueckgabe("A", gamma), rueckgabe("B", gamma)
if reveal == "both":
    print("Besser:", "gleich" if np.isclose(G_A, G_B) else ("Weg A" if G_A > G_B else "Weg B"))
# Gleichstand: a1 + γ·a2 = b1 + γ·b2 (im Spiel 2 + γ·0 = 0 + γ·5); zahlen beide in Runde 2 gleich, nie
print(f"Gleichstand bei γ: {(a1 - b1) / (b2 - a2):.4f}".replace(".", ",") if b2 != a2 else "Gleichstand: nie")

ax.axvline(gamma, color="#bbbbbb", ls=":")
ax.set(xlabel="Gewicht der Zukunft γ", ylabel="Return G (Münzen)")
komma = lambda v, _: f"{v:g}".replace(".", ",")  # Dezimalkomma an den Achsen
ax.xaxis.set_major_formatter(komma)
ax.yaxis.set_major_formatter(komma)
ax.legend()
plt.show()
