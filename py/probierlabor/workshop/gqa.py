# Grouped-Query Attention: Wie groß ist der KV-Cache, wenn sich H Query-Köpfe G K/V-Köpfe teilen?
import numpy as np
import matplotlib.pyplot as plt

# Einstellungen aus dem Experiment (ändere sie ruhig):
groups = 2
heads = 8
batch = 1
layers = 32
tokens = 1024
head_dim = 128
bytes_per = 2

# G muss H teilen; sonst nehmen wir den nächsten Teiler (bei Gleichstand den kleineren)
teiler = np.array([d for d in range(1, heads + 1) if heads % d == 0])
g = min(groups, heads) if heads % min(groups, heads) == 0 else teiler[np.argmin(abs(teiler - groups))]
zuordnung = np.arange(heads) // (heads // g)  # Query-Kopf → seine Gruppe


def cache_mib(kv_koepfe):
    # 2 für K und V; 1 MiB = 2^20 Byte
    return 2 * batch * layers * tokens * kv_koepfe * head_dim * bytes_per / 2**20


print(f"Gruppen: {g}")
print(f"Köpfe je Gruppe: {heads // g}")
print("Gruppe je Kopf:", *zuordnung)
print(f"Cache GQA: {cache_mib(g):.4f} MiB".replace(".", ","))
print(f"Cache MHA: {cache_mib(heads):.4f} MiB".replace(".", ","))
print(f"Cache MQA: {cache_mib(1):.4f} MiB".replace(".", ","))

figur, achse = plt.subplots(figsize=(6, 3.5))
achse.bar([str(d) for d in teiler], cache_mib(teiler), color=np.where(teiler == g, "#0066a1", "#bbbbbb"))
achse.set_xlabel(f"Gruppen G (Teiler von H = {heads})")
achse.set_ylabel("KV-Cache in MiB")
achse.yaxis.set_major_formatter(lambda y, _: f"{y:g}".replace(".", ","))
achse.set_title("G = 1 ist MQA, G = H ist MHA")
plt.show()
