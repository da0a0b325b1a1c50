# Time to First Token: Welche Phasen bis zum ersten Token zusammenkommen, vom Client und vom Server aus gesehen
import numpy as np
import matplotlib.pyplot as plt

# Einstellungen aus dem Experiment (ändere sie ruhig, alle Zeiten in ms):
up = 30
prep = 10
queue = 200
prefill = 120
first = 5
down = 35
gap = 20
more = 4

namen = ["Netz hin", "Vorbereitung", "Warteschlange", "Prefill", "erstes Ergebnis", "Netz zurück"]
dauer = np.array([up, prep, queue, prefill, first, down])
ende = np.cumsum(dauer)  # die Phasen folgen lückenlos aufeinander
anfang = ende - dauer
ttft = ende[-1]  # der Client misst vom Absenden bis zum ersten Token
server = ende[4] - ende[0]  # der Server misst von der Ankunft bis zum fertigen ersten Ergebnis
tokens = ttft + gap * np.arange(more + 1)  # danach kommt alle gap ms ein weiteres Token

print(f"TTFT beim Client: {ttft} ms")
print(f"Zeit im Server: {server} ms")
print(f"Netz hin und zurück: {up + down} ms")
print(f"Antwort komplett: {tokens[-1]} ms")
if ttft > 0:
    print(f"Anteil des Prefills an der TTFT: {100 * prefill / ttft:.4f} %".replace(".", ","))

figur, achse = plt.subplots(figsize=(7, 3), layout="constrained")
farben = ["#bbbbbb", "#0066a1", "#0066a1", "#d0021b", "#0066a1", "#bbbbbb"]
achse.barh(0, dauer, left=anfang, color=farben, edgecolor="white")
for name, a, d in zip(namen, anfang, dauer):
    if d > 0:
        achse.text(a + d / 2, 0.45, name, rotation=30, fontsize=8)
achse.vlines(tokens, -0.6, -0.4, color="#d0021b", label="Tokens beim Client")
achse.set(yticks=[], ylim=(-0.8, 1.4), xlabel="Zeit in ms", title=f"TTFT {ttft} ms, Serverzeit {server} ms")
achse.legend(loc="upper right")
plt.show()
