"""The map of the concepts: one source for every page's "Vorher lesen" and "Siehe auch".

READ_FIRST   slug → the pages to read before this one (the prerequisite graph, acyclic).
SEE_ALSO     slug → (related slug, short German reason), in the order the page lists them.
TERMS        slug → (term, why it matters here or "") for related terms without a page; each term is an
             entry of probierlabor/pageblocks/glossary.py, which spells and explains it, and the page links there.
PATHS        the start page's learning paths: (title, short German description, slugs in order).

The macros ``read_first`` and ``see_also`` (mkdocs_hooks/macros.py) render these as relative
Markdown links to the other pages' titles; tests/concepts/test_graph.py checks the shape.
"""

from __future__ import annotations

READ_FIRST: dict[str, tuple[str, ...]] = {
    "tokenisierung": (),
    "embeddings": ("tokenisierung",),
    "softmax-temperatur": (),
    "gradientenabstieg": (),
    "kreuzentropie-perplexitaet": ("softmax-temperatur",),
    "attention": ("embeddings", "softmax-temperatur"),
    "validation-set": (),
    "overfitting": (),
    "metr-horizon": (),
    "irt": ("metr-horizon",),
    "ewc": ("gradientenabstieg", "overfitting"),
    "reservoir-sampling": (),
    "experience-replay": (),
    "continual-learning": ("experience-replay", "ewc"),
    "sequence-packing": (),
    "reinforcement-learning": (),
    "loss-masking": (),
    "pass-at-k": (),
    "greedy-decoding": (),
    "beam-search": ("greedy-decoding",),
    "top-k-sampling": ("softmax-temperatur", "greedy-decoding"),
    "top-p-sampling": ("softmax-temperatur", "top-k-sampling"),
    "speculative-decoding": ("softmax-temperatur", "greedy-decoding"),
    "mqa": ("softmax-temperatur", "attention", "kv-cache"),
    "gqa": ("mqa",),
    "rope": (),
    "kl-divergence": (),
    "knowledge-distillation": ("gradientenabstieg", "softmax-temperatur", "kl-divergence"),
    "prefill": (),
    "decode": ("tokenisierung", "softmax-temperatur", "prefill"),
    "kv-cache": ("tokenisierung", "decode"),
    "flash-attention": (),
    "paged-attention": ("kv-cache",),
    "prefix-caching": ("paged-attention",),
    "continuous-batching": ("decode",),
    "ttft": ("prefill",),
}

SEE_ALSO: dict[str, tuple[tuple[str, str], ...]] = {
    "tokenisierung": (
        ("softmax-temperatur", "macht aus den Logits des Modells Wahrscheinlichkeiten, eine für jedes Token "
                               "des Vokabulars."),
        ("prefill", "das Modell liest alle Tokens des Prompts in einem Durchlauf."),
        ("decode", "danach entsteht die Antwort Token für Token, ein Schritt je Token."),
        ("kv-cache", "hält für jedes Token Keys und Values: mehr Tokens, mehr Speicher."),
        ("sequence-packing", "füllt Trainingsfenster fester Länge, gemessen in Tokens."),
        ("loss-masking", "entscheidet Token für Token, welche Positionen im Verlust zählen."),
        ("embeddings", "was das Modell mit jedem Token macht: Es schlägt seinen Vektor nach."),
    ),
    "embeddings": (
        ("rope", "gibt die Position nicht per Addition mit, sondern dreht Query und Key; dann zählt nur der Abstand."),
        ("mqa", "Queries und Keys sind auch Vektoren; die Attention vergleicht sie mit dem Skalarprodukt."),
        ("softmax-temperatur", "am Ausgang macht das Modell aus seinem letzten Vektor ein Logit je Token und "
                               "daraus Wahrscheinlichkeiten."),
        ("attention", "wie ein Kopf mit Query, Keys und Values rechnet, Schritt für Schritt."),
        ("gradientenabstieg", "wie Training die Gewichte Schritt für Schritt entlang des Gradienten verschiebt."),
    ),
    "kreuzentropie-perplexitaet": (
        ("kl-divergence", "die Kreuzentropie minus die Entropie der Referenz: wie weit zwei Verteilungen "
                          "auseinanderliegen."),
        ("knowledge-distillation", "ein Schüler lernt mit Kreuzentropie die ganze Verteilung eines Lehrers statt "
                                   "nur das richtige Token."),
        ("loss-masking", "welche Tokens im Mittel des Verlusts zählen und welche nicht."),
        ("continual-learning", "der Verlust auf alten Aufgaben steigt, wenn ein Modell nur Neues lernt."),
        ("gradientenabstieg", "wie ein Modell Schritt für Schritt seinen Verlust senkt."),
        ("tokenisierung", "was ein Token ist und wie ein Tokenizer Text in Tokens zerlegt."),
    ),
    "softmax-temperatur": (
        ("greedy-decoding", "der Grenzfall \\(T = 0\\): immer das Token mit dem größten Logit."),
        ("top-k-sampling", "zieht nach der Softmax nur unter den k wahrscheinlichsten Tokens."),
        ("top-p-sampling", "zieht aus der kleinsten Spitzengruppe, die eine Schwelle erreicht; die Temperatur "
                           "verschiebt, wie groß sie ist."),
        ("knowledge-distillation", "ein Lehrer gibt seine Verteilung bei hoher Temperatur weiter; der Verlust "
                                   "trägt den Faktor \\(T^2\\)."),
        ("speculative-decoding", "prüft Vorschläge gegen die Verteilung des großen Modells, bei jeder Temperatur."),
        ("kl-divergence", "misst, wie weit zwei Verteilungen, etwa bei zwei Temperaturen, auseinanderliegen."),
        ("kreuzentropie-perplexitaet", "dieselben „gleich guten Tokens“ als Perplexität, gemittelt über einen "
                                       "ganzen Text."),
        ("tokenisierung", "was ein Token ist und wie ein Tokenizer Text in Tokens zerlegt."),
        ("gradientenabstieg", "wie Training die Gewichte Schritt für Schritt entlang des Gradienten verschiebt."),
    ),
    "gradientenabstieg": (
        ("overfitting", "dort lernt eine Kurve die Daten; zu gut gelernt schadet auf neuen Daten."),
        ("ewc", "dieselbe Schüssel aus zwei Gewichten, mit einer Strafe gegen das Vergessen."),
        ("continual-learning", "ein kleines Netz lernt dort mit Gradientenabstieg eine Aufgabe nach der anderen."),
        ("experience-replay", "mischt alte Beispiele in die Schritte, damit der Abstieg Früheres nicht verlernt."),
        ("kreuzentropie-perplexitaet", "der Verlust, auf dem Sprachmodelle mit Gradientenabstieg lernen."),
    ),
    "attention": (
        ("mqa", "alle Köpfe teilen sich einen Key und einen Value je Token; der KV-Cache schrumpft."),
        ("gqa", "Gruppen von Köpfen teilen sich Keys und Values, wie im Modell dieser Website."),
        ("rope", "wie Query und Key ihre Position mitbekommen, bevor der Score entsteht."),
        ("kv-cache", "hebt Keys und Values früherer Tokens auf, damit jede neue Query sie nur noch liest."),
        ("prefill", "rechnet die Attention für alle Tokens des Prompts auf einmal, mit kausaler Maske."),
        ("flash-attention", "dieselbe Rechnung in Kacheln, ohne die ganze Tabelle der Gewichte zu speichern."),
        ("tokenisierung", "was ein Token ist und wie ein Tokenizer Text in Tokens zerlegt."),
    ),
    "validation-set": (
        ("overfitting", "warum die Kurve das Heft perfekt trifft und trotzdem schlecht schätzt."),
        ("pass-at-k", "auch dort geht es darum, ehrlich zu messen, was ein Modell kann."),
        ("kreuzentropie-perplexitaet", "das Fehlermaß bei Textvorhersagen; auch dort zählt der Wert auf Text, "
                                       "den das Modell beim Lernen nicht gesehen hat."),
    ),
    "overfitting": (
        ("ewc", "eine Strafe auf Gewichtsänderungen, diesmal gegen das Vergessen einer alten Aufgabe."),
        ("validation-set", "Daten, die beim Lernen beiseitebleiben, damit du den Grad ehrlich wählen kannst."),
        ("irt", "auch dort hält eine Strafe (λ) die geschätzten Werte klein."),
    ),
    "metr-horizon": (
        ("irt", "schätzt Fähigkeit und Aufgabenschwierigkeit aus demselben Muster von Erfolgen, statt die "
                "Schwierigkeit mit der menschlichen Arbeitszeit gleichzusetzen."),
        ("pass-at-k", "Erfolg, wenn ein Modell mehrere Versuche hat."),
    ),
    "irt": (
        ("metr-horizon", "liest eine Aufgabenlänge an einer Erfolgskurve ab; IRT hilft zu prüfen, ob die "
                         "Länge überhaupt für Schwierigkeit steht."),
        ("overfitting", "dort zieht eine ähnliche Strafe (λ) große Koeffizienten zur 0."),
    ),
    "ewc": (
        ("overfitting", "dort bestraft λ große Koeffizienten, hier Abstände zu alten Gewichten."),
        ("experience-replay", "löst dasselbe Problem, indem es alte Beispiele aufhebt statt Wichtigkeiten."),
        ("continual-learning", "das Ziel, nacheinander zu lernen, ohne zu vergessen; dort tritt EWC in einem "
                               "kleinen echten Modell gegen Wiederholungen an."),
    ),
    "reservoir-sampling": (
        ("experience-replay", "braucht einen Puffer früherer Beispiele; mit Reservoir Sampling wählst du, "
                              "welche davon hineinkommen."),
        ("continual-learning", "Lernen aus einem Datenstrom, wenn nicht alles aufbewahrt werden kann."),
    ),
    "experience-replay": (
        ("reservoir-sampling", "entscheidet, welche Beispiele aus einem Strom in einen Puffer fester Größe "
                               "kommen, jedes gleich wahrscheinlich."),
        ("continual-learning", "das Ziel, weiterzulernen und Früheres zu behalten; Replay ist ein Weg dorthin, "
                               "und dort wird gemessen, wie viel er bringt."),
        ("ewc", "schützt alte Fähigkeiten ohne gespeicherte Beispiele, über eine Strafe auf wichtige Gewichte."),
        ("reinforcement-learning", "von dort stammt die Idee: Erfahrungen aufheben und später noch einmal "
                                   "aus ihnen lernen."),
        ("gradientenabstieg", "die Schritte, in die Replay alte Beispiele mischt."),
    ),
    "continual-learning": (
        ("experience-replay", "ein paar alte Beispiele aufheben und beim neuen Training immer wieder mit "
                              "hineinmischen."),
        ("ewc", "wichtige Gewichte festhalten statt Beispiele aufbewahren."),
        ("reservoir-sampling", "wie du bei begrenztem Speicher fair auswählst, was du aufhebst."),
        ("knowledge-distillation", "ein älteres Modell gibt Hinweise an das neue weiter – eine andere "
                                   "Strategie als das Aufbewahren von Beispielen."),
        ("softmax-temperatur", "wie die Softmax aus Punktzahlen Wahrscheinlichkeiten macht; sie koppelt hier "
                               "die Abteilungen."),
        ("gradientenabstieg", "wie das kleine Netz hier Schritt für Schritt lernt, und warum die Lernrate zählt."),
        ("kreuzentropie-perplexitaet", "der Verlust, auf dem das Netz hier alte und neue Aufgaben lernt."),
    ),
    "sequence-packing": (
        ("loss-masking", "welche Positionen im Verlust zählen, an einem Agenten-Transkript; auch dort bleibt "
                         "das Lesen davon unberührt."),
        ("tokenisierung", "wie aus Text die Tokens werden, nach denen hier die Längen zählen."),
        ("attention", "die kausale Maske in einem Kopf: Spätere Tokens bekommen das Gewicht 0."),
    ),
    "reinforcement-learning": (
        ("experience-replay", "Erfahrungen aufheben und beim Lernen wiederverwenden."),
        ("pass-at-k", "prüft ein Test die Antworten, zählt pass@k, wie oft einer von k Versuchen besteht."),
        ("loss-masking", "welche Tokens eines Agenten-Transkripts im Verlust zählen."),
    ),
    "loss-masking": (
        ("sequence-packing", "dort müssen beim Zusammenlegen von Beispielen der Zugriff auf den Kontext und "
                             "die bewerteten Positionen ebenfalls getrennt gesteuert werden."),
        ("tokenisierung", "wie ein Tokenizer den Text in die Tokens zerlegt, die hier einzeln zählen."),
        ("kreuzentropie-perplexitaet", "der Verlust, den die Maske für jedes Token zulässt oder ausblendet."),
        ("attention", "wie ein Kopf mit Query, Keys und Values rechnet, Schritt für Schritt."),
    ),
    "pass-at-k": (
        ("validation-set", "auch dort geht es darum, ehrlich zu messen, was ein Modell kann."),
        ("overfitting", "eine gute Zahl auf den eigenen Daten ist noch kein gutes Ergebnis auf neuen."),
        ("metr-horizon", "eine andere Erfolgskurve: Erfolg über die Länge der Aufgaben statt über die Zahl "
                         "der Versuche."),
        ("reinforcement-learning", "lernt aus Belohnungen; oft ist die Belohnung, ob ein Test besteht."),
    ),
    "greedy-decoding": (
        ("decode", "der Schritt, in dem das Modell Token für Token erzeugt; Greedy ist seine Auswahlregel."),
        ("beam-search", "behält mehrere Anfänge, um die Entscheidung aufzuschieben; mit Breite 1 ist es Greedy."),
        ("top-k-sampling", "zieht zufällig unter den k besten Tokens; mit \\(k = 1\\) und einem eindeutigen "
                           "Maximum wählt es wie Greedy."),
        ("top-p-sampling", "zieht aus der kleinsten Spitzengruppe, die eine Schwelle erreicht."),
        ("speculative-decoding", "beschleunigt das Schreiben, ohne die Verteilung zu ändern."),
        ("softmax-temperatur", "Greedy ist dort der Grenzfall der Temperatur 0."),
        ("tokenisierung", "was ein Token ist und wie ein Tokenizer Text in Tokens zerlegt."),
    ),
    "beam-search": (
        ("greedy-decoding", "Beam Search mit Breite 1."),
        ("top-k-sampling", "wählt zufällig unter den k besten Tokens statt Folgen zu behalten."),
        ("knowledge-distillation", "bei der Destillation auf Folgenebene lernt der Schüler aus den "
                                   "Beam-Search-Ausgaben des Lehrers."),
        ("tokenisierung", "was ein Token ist und wie ein Tokenizer Text in Tokens zerlegt."),
    ),
    "top-k-sampling": (
        ("top-p-sampling", "die Grenze nach der Summe der Wahrscheinlichkeiten statt nach der Zahl."),
        ("greedy-decoding", "das Gleiche wie \\(k = 1\\) bei eindeutigem Maximum."),
        ("beam-search", "behält mehrere Folgen, lost aber nichts aus."),
        ("tokenisierung", "was ein Token ist und wie ein Tokenizer Text in Tokens zerlegt."),
    ),
    "top-p-sampling": (
        ("top-k-sampling", "legt die Zahl der Kandidaten fest statt ihrer Summe."),
        ("greedy-decoding", "kein Zufall, immer das wahrscheinlichste Token."),
        ("knowledge-distillation", "verwendet ebenfalls eine Temperatur, dort um die Verteilung eines "
                                   "Lehrermodells weicher zu machen."),
        ("kl-divergence", "ein Maß dafür, wie weit eine gefilterte Verteilung von der ursprünglichen abweicht."),
        ("tokenisierung", "was ein Token ist und wie ein Tokenizer Text in Tokens zerlegt."),
    ),
    "speculative-decoding": (
        ("decode", "der Token-für-Token-Schritt, den Speculative Decoding beschleunigt."),
        ("top-p-sampling", "eine Ziehregel, die in \\(p\\) und \\(q\\) schon stecken kann."),
        ("kl-divergence", "ein anderes Maß dafür, wie weit zwei Verteilungen wie \\(p\\) und \\(q\\) "
                          "auseinanderliegen."),
        ("tokenisierung", "was ein Token ist und wie ein Tokenizer Text in Tokens zerlegt."),
    ),
    "mqa": (
        ("gqa", "der Mittelweg zwischen MHA und MQA, mit Speicherrechner."),
        ("kv-cache", "der Speicher, den MQA verkleinert."),
        ("decode", "der Schritt, in dem der Cache bei jedem Token gelesen wird."),
        ("rope", "wie Queries und Keys ihre Position mitbekommen."),
        ("embeddings", "Vektoren und ihr Skalarprodukt, die Grundrechnung jeder Attention, zum Ziehen."),
        ("tokenisierung", "was ein Token ist und wie ein Tokenizer Text in Tokens zerlegt."),
    ),
    "gqa": (
        ("mqa", "der Grenzfall mit einer einzigen Gruppe."),
        ("kv-cache", "der Speicher, der hier schrumpft."),
        ("flash-attention", "spart Speicherzugriffe auf andere Weise; beides lässt sich kombinieren."),
        ("rope", "wie Queries und Keys ihre Position mitbekommen."),
        ("attention", "ein einzelner Kopf Schritt für Schritt, und die Köpfe des Modells dieser Website."),
        ("tokenisierung", "was ein Token ist und wie ein Tokenizer Text in Tokens zerlegt."),
    ),
    "rope": (
        ("mqa", "was mit den Keys nach dem Drehen geschieht, wenn alle Köpfe sie teilen."),
        ("gqa", "dasselbe, wenn sich Gruppen von Köpfen Keys und Values teilen."),
        ("embeddings", "die addierten Sinus-Positionen, die RoPE ersetzt, und Vektoren zum Ziehen."),
        ("attention", "die Rechnung, in die die gedrehten Queries und Keys eingehen: Score, Softmax, Summe."),
        ("tokenisierung", "was ein Token ist und wie ein Tokenizer Text in Tokens zerlegt."),
        ("softmax-temperatur", "was die Softmax aus Scores oder Logits macht."),
    ),
    "kl-divergence": (
        ("knowledge-distillation", "ein Schüler lernt, die Verteilung eines Lehrers nachzubilden."),
        ("top-p-sampling", "hier misst du, wie weit die gefilterte Verteilung von der ursprünglichen abweicht."),
        ("softmax-temperatur", "woher die Verteilungen eines Modells kommen und wie die Temperatur sie verändert."),
        ("kreuzentropie-perplexitaet", "die Kreuzentropie, aus der die KL-Divergenz entsteht, am Verlust eines "
                                       "Sprachmodells."),
        ("tokenisierung", "was ein Token ist und wie ein Tokenizer Text in Tokens zerlegt."),
    ),
    "knowledge-distillation": (
        ("kl-divergence", "das Maß, mit dem du die Vorhersagen von Lehrer und Schüler vergleichst."),
        ("beam-search", "liefert die Folgen des Lehrers, wenn auf Folgenebene destilliert wird."),
        ("continual-learning", "dort kann ein älteres Modell als Lehrer helfen, Früheres nicht zu vergessen."),
        ("kreuzentropie-perplexitaet", "die Kreuzentropie mit dem harten Label, der erste Teil des Verlusts."),
        ("tokenisierung", "was ein Token ist und wie ein Tokenizer Text in Tokens zerlegt."),
    ),
    "prefill": (
        ("decode", "die Erzeugung nach dem Prefill, Token für Token."),
        ("kv-cache", "was Prefill für später ablegt und was es kostet."),
        ("attention", "die Rechnung eines Kopfes, die Prefill für jedes Token des Prompts ausführt."),
        ("ttft", "die ganze Wartezeit bis zum ersten Token."),
        ("continuous-batching", "Anfragen betreten und verlassen die Gruppe zwischen Iterationen."),
        ("softmax-temperatur", "wie die Softmax aus Scores Gewichte macht, die zusammen 1 ergeben."),
        ("tokenisierung", "wie der Prompt in die Tokens zerfällt, die das Prefill liest."),
    ),
    "decode": (
        ("prefill", "verarbeitet den Prompt, bevor Decode beginnt."),
        ("kv-cache", "was jeder Durchlauf ablegt und was es kostet."),
        ("greedy-decoding", "die Auswahlregel dieses Beispiels."),
        ("speculative-decoding", "prüft mehrere vorgeschlagene Tokens in einem Durchlauf statt nur eines."),
        ("continuous-batching", "viele Decode-Schleifen teilen sich die Hardware."),
        ("embeddings", "wie die Tokens zu ihren Vektoren kommen und wie man Vektoren vergleicht."),
        ("attention", "wie ein Kopf mit Query, Keys und Values rechnet, Schritt für Schritt."),
    ),
    "kv-cache": (
        ("prefill", "füllt den Cache mit dem bekannten Prompt."),
        ("decode", "ergänzt den Cache bei jedem Token um ein Paar."),
        ("paged-attention", "der Cache in Blöcken fester Größe."),
        ("prefix-caching", "den Cache eines gemeinsamen Präfixes wiederverwenden."),
        ("gqa", "weniger K/V-Köpfe, kleinerer Cache."),
        ("mqa", "nur ein K/V-Kopf, der kleinste Cache."),
        ("attention", "wozu die Keys und Values im Cache da sind: Jede neue Query liest sie."),
    ),
    "flash-attention": (
        ("gqa", "weniger K/V-Köpfe, kombinierbar mit FlashAttention."),
        ("attention", "die Rechnung, die FlashAttention in Kacheln zerlegt, an einem Kopf zum Ziehen."),
        ("paged-attention", "wie der KV-Cache in Blöcken im Speicher liegt."),
        ("softmax-temperatur", "die Softmax an einem Beispiel zum Ziehen; das Abziehen des größten Werts "
                               "ist hier der laufende Maximalwert."),
        ("tokenisierung", "was ein Token ist und wie ein Tokenizer Text in Tokens zerlegt."),
    ),
    "paged-attention": (
        ("kv-cache", "was in den Blöcken steht und wie viel Speicher es kostet."),
        ("gqa", "macht jeden Eintrag im KV-Cache kleiner; PagedAttention verteilt die Einträge geschickter."),
        ("mqa", "der kleinste Eintrag: ein K/V-Kopf für alle."),
        ("prefix-caching", "Blöcke, die mehrere Anfragen gemeinsam nutzen."),
        ("flash-attention", "organisiert die Rechnung, nicht die Ablage; beides lässt sich kombinieren."),
        ("decode", "hängt Position für Position an und braucht so immer wieder einen neuen Block."),
        ("continuous-batching", "wechselnde Anfragen, für die Blöcke schnell frei werden müssen."),
        ("tokenisierung", "was ein Token ist und wie ein Tokenizer Text in Tokens zerlegt."),
        ("attention", "wie ein Kopf mit Query, Keys und Values rechnet, Schritt für Schritt."),
    ),
    "prefix-caching": (
        ("paged-attention", "die Blöcke und Blocktabellen, auf denen Prefix Caching aufbaut."),
        ("kv-cache", "was in den Blöcken steht."),
        ("decode", "erzeugt die Antwort weiterhin Token für Token."),
        ("ttft", "wird kürzer, wenn weniger Arbeit an der Eingabe bleibt."),
        ("tokenisierung", "was ein Token ist und wie ein Tokenizer Text in Tokens zerlegt."),
        ("attention", "wie ein Kopf mit Query, Keys und Values rechnet, Schritt für Schritt."),
    ),
    "continuous-batching": (
        ("paged-attention", "Speicher in Blöcken, damit wechselnde Anfragen Platz finden."),
        ("prefix-caching", "spart Arbeit an der Eingabe, wenn Anfragen gleich beginnen."),
        ("decode", "die Runden, die hier gezählt werden."),
        ("prefill", "die Eingabe einer neuen Anfrage, die vor ihren Runden verarbeitet werden muss."),
        ("ttft", "wann der Scheduler eine Anfrage zulässt, verschiebt das erste Token."),
        ("sequence-packing", "auch beim Training teilen sich mehrere Beispiele einen Durchlauf; dort trennen "
                             "Masken sie voneinander."),
        ("tokenisierung", "was ein Token ist und wie ein Tokenizer Text in Tokens zerlegt."),
    ),
    "ttft": (
        ("continuous-batching", "bestimmt, wie lange eine Anfrage in der Warteschlange bleibt."),
        ("prefix-caching", "spart Arbeit an der Eingabe, wenn der Anfang schon berechnet ist."),
        ("prefill", "die Rechnung an der Eingabe, ein Teil der TTFT."),
        ("decode", "erzeugt die weiteren Tokens in ihrem Rhythmus."),
        ("tokenisierung", "was ein Token ist und wie ein Tokenizer Text in Tokens zerlegt."),
    ),
}

TERMS: dict[str, tuple[tuple[str, str], ...]] = {
    "tokenisierung": (),
    "embeddings": (
        ("Scaled Dot-Product Attention", "vergleicht Vektoren mit dem Skalarprodukt"),
    ),
    "kreuzentropie-perplexitaet": (
        ("Entropie", "die Kreuzentropie einer Verteilung mit sich selbst"),
    ),
    "softmax-temperatur": (
        ("Entropie", "oben als Maß der Unsicherheit in Bit"),
    ),
    "gradientenabstieg": (),
    "attention": (
        ("Multi-Head Attention", "mehrere Köpfe nebeneinander, jeder mit eigenen Queries, Keys und Values"),
    ),
    "validation-set": (
        ("Test Set", "oben erklärt"),
        ("Fine-Tuning", "auch dort wählst du Einstellungen wie die Lernrate mit Validierungsdaten"),
    ),
    "overfitting": (
        ("Weight Decay", "die Strafe der Vorlage „Grad 9 mit Strafe“ in neuronalen Netzen"),
        ("Test Set", "für die Bewertung ganz am Ende"),
        ("Grokking", "überangepasst wirkende Modelle, die nach langem Training doch verallgemeinern"),
        ("Catastrophic Forgetting", "ein anderes Problem: Verlust einer alten Fähigkeit nach neuem Lernen"),
    ),
    "metr-horizon": (
        ("logistische Regression", "die Anpassung der Kurve"),
    ),
    "irt": (
        ("logistische Regression", ""),
        ("Maximum-Likelihood-Schätzung", ""),
        ("Newton-Verfahren", ""),
    ),
    "ewc": (
        ("Catastrophic Forgetting", "das Vergessen, gegen das EWC hilft"),
        ("Fine-Tuning", ""),
        ("Fisher-Information", ""),
    ),
    "reservoir-sampling": (
        ("Catastrophic Forgetting", "es kann sich verschärfen, wenn alle Beispiele einer früheren Kategorie "
                                    "aus einem kleinen Speicher fallen"),
    ),
    "experience-replay": (
        ("Catastrophic Forgetting", "der starke Verlust früherer Fähigkeiten, den Wiederholungen verringern "
                                    "können"),
        ("Fine-Tuning", ""),
    ),
    "continual-learning": (
        ("Catastrophic Forgetting", "der starke Verlust früherer Fähigkeiten"),
        ("Fine-Tuning", "Weitertrainieren mit ausgewählten Beispielen; danach auch alte Fähigkeiten prüfen"),
    ),
    "sequence-packing": (
        ("Causal Masking", "die Sperre für den Blick nach rechts"),
        ("Padding", ""),
        ("Fine-Tuning", ""),
    ),
    "reinforcement-learning": (
        ("Behavioral Cloning", ""),
        ("RLHF", ""),
        ("Reward Hacking", ""),
    ),
    "loss-masking": (
        ("Causal Masking", ""),
        ("Fine-Tuning", ""),
    ),
    "pass-at-k": (
        ("Benchmark", ""),
        ("Unit-Test", "als Prüfer"),
        ("erwartungstreue Schätzung", ""),
        ("Stichprobe", ""),
    ),
    "greedy-decoding": (),
    "beam-search": (),
    "top-k-sampling": (),
    "top-p-sampling": (),
    "speculative-decoding": (),
    "mqa": (
        ("Multi-Head Attention", ""),
    ),
    "gqa": (
        ("Multi-Head Attention", "der Grenzfall G = H"),
    ),
    "rope": (
        ("Positional Encoding", "die ursprüngliche, addierte Positionskodierung"),
        ("Scaled Dot-Product Attention", ""),
        ("Causal Masking", ""),
    ),
    "kl-divergence": (
        ("Entropie", ""),
        ("Jensen-Shannon-Divergenz", "eine symmetrische Variante"),
    ),
    "knowledge-distillation": (
        ("On-Policy-Selbstdestillation", ""),
    ),
    "prefill": (
        ("Chunked Prefill", "Prefill in Portionen"),
    ),
    "decode": (
        ("Disaggregated Serving", ""),
    ),
    "kv-cache": (
        ("Causal Masking", ""),
        ("Skalierung des KV-Caches", ""),
        ("Übertragung von Caches zwischen Modellen", ""),
    ),
    "flash-attention": (
        ("FlashAttention 2", ""),
        ("Online-Softmax", ""),
    ),
    "paged-attention": (),
    "prefix-caching": (
        ("LoRA", "eine Adapter-Kennung gehört zu den Zusatzdaten des Hashes"),
    ),
    "continuous-batching": (),
    "ttft": (
        ("Inter-Token Latency", ""),
        ("End-to-End Request Latency", ""),
    ),
}

# The six foundation pages and the words by which another page's text shows that it uses their idea: such a
# page links to the foundation page (under „Vorher lesen“ or „Siehe auch“; tests/concepts/test_graph.py checks every page).
USES: dict[str, str] = {
    "tokenisierung": r"\bTokens?\b",
    "embeddings": r"\bEmbeddings?\b",
    "attention": r"\bAttention\b",
    "softmax-temperatur": r"\bSoftmax\b|\bLogits?\b",
    "kreuzentropie-perplexitaet": r"\bKreuzentropie\b|\bPerplexität\b",
    "gradientenabstieg": r"\bGradient(en)?\b|\bGradientenabstieg\b|\bLernrate\b",
}

PATHS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("Grundlagen",
     "Was in jedem Sprachmodell steckt: Tokens, Vektoren, Wahrscheinlichkeiten, Attention und wie es lernt.",
     ("tokenisierung", "embeddings", "softmax-temperatur", "attention", "kreuzentropie-perplexitaet",
      "gradientenabstieg")),
    ("Wie ein Sprachmodell antwortet",
     "Erst liest das Modell den Prompt, dann schreibt es Token für Token. Wie wählt es jedes nächste?",
     ("tokenisierung", "softmax-temperatur", "prefill", "decode", "kv-cache", "greedy-decoding", "top-k-sampling",
      "top-p-sampling")),
    ("Lernen ohne zu vergessen",
     "Ein Modell lernt Neues und soll das Alte behalten.",
     ("gradientenabstieg", "overfitting", "ewc", "reservoir-sampling", "experience-replay", "continual-learning")),
    ("Ehrlich messen",
     "Wie du prüfst, was ein Modell wirklich kann.",
     ("validation-set", "overfitting", "pass-at-k", "metr-horizon", "irt")),
)


def incoming(slug: str) -> list[str]:
    """The pages that link here, as a prerequisite or a related concept."""
    return sorted({src for src, pre in READ_FIRST.items() if slug in pre}
                  | {src for src, rel in SEE_ALSO.items() if slug in (s for s, _ in rel)})
