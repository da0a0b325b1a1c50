"""The glossary: one spelling, one gender and one meaning per term, for every page, so no page
teaches a word another page spells or means differently.

TERMS       the entries, alphabetical on the page. Each gives the preferred spelling, the article
            ("" for terms used without one), the plural ("" when none is used), a short German
            explanation, the concept page if there is one, and the variants a page must not use:
            regex → what the glossary page shows as „nicht: …“ ("" to keep a rule off the page).
IMPERATIVES short imperatives of weak verbs; the pages write the e-form (Stelle, Schiebe, Wähle …)
            and the standard form of strong verbs (Lies, Sieh, Nimm, Gib, Lass).
FINDINGS    the one heading of every concept page's observations section.

``page()`` renders pages/glossar.md (macro ``glossary``); graph.TERMS names only terms from here,
and the "Siehe auch" section links them to their entry. tests/pageblocks/test_glossary.py scans every built
page for the variants.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from ..kit import api

FINDINGS = "Was du entdeckst"

# A variant right after "englisch" is the house's way of naming the English term; it is allowed.
ENGLISH_NOTE = re.compile(r"englisch\s*[*„\"]*$")


@dataclass(frozen=True)
class Term:
    term: str
    article: str
    plural: str
    explanation: str
    page: str = ""
    avoid: dict[str, str] = field(default_factory=dict)

    @property
    def anchor(self) -> str:
        plain = unicodedata.normalize("NFKD", self.term.replace("ß", "ss")).encode("ascii", "ignore").decode()
        return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")


# Words after which a noun stands in the plural ("1 Token" is singular, so 1 is left out).
_NUMBER_WORDS = (r"(?:(?!1\b)\d+|zwei|drei|vier|fünf|sechs|sieben|acht|neun|zehn|elf|zwölf|hundert|tausend"
                 r"|viele|wenige|mehrere|alle|beide|einige|keine|[Ww]elche)")
# German statistics reads „Chance“ as odds, p/(1 − p), so a probability is never called that; any noun
# with „Chance“ in it counts (Erfolgschance, Log-Chance), identifiers in code (greedy_chance) do not.
_CHANCE = r"\b(?=[A-ZÄÖÜ])[\w-]*[Cc]hance\w*"

TERMS: tuple[Term, ...] = (
    Term("Attention", "die", "",
         "Jedes Token vergleicht seine Query mit den Keys aller sichtbaren Tokens und mischt deren Values, "
         "gewichtet nach der Softmax der Scores.", page="attention"),
    Term("Batch", "der", "die Batches",
         "Eine Gruppe von Beispielen oder Anfragen, die das Modell in einem gemeinsamen Durchlauf bearbeitet."),
    Term("Beam Search", "die", "", "Behält bei jedem Schritt die besten Anfänge einer Antwort statt nur eines.",
         page="beam-search"),
    Term("Behavioral Cloning", "das", "",
         "Ein Modell ahmt vorgemachte Handlungen nach, ohne Belohnungen zu sehen."),
    Term("Bit", "das", "die Bit",
         "Die Einheit eines Verlusts oder einer Entropie, gerechnet mit dem Logarithmus zur Basis 2: "
         "Ein Bit ist die Unsicherheit eines Münzwurfs.", page="kreuzentropie-perplexitaet"),
    Term("Byte-Pair-Encoding", "das", "",
         "Ein Verfahren, das die häufigsten Paare Schritt für Schritt zu neuen Tokens verschmilzt. Es beginnt "
         "mit einzelnen Zeichen, hier mit den 256 Bytes. Kurz BPE.", page="tokenisierung"),
    Term("Benchmark", "der", "die Benchmarks",
         "Eine feste Sammlung von Aufgaben, an der man Modelle vergleicht."),
    Term("Catastrophic Forgetting", "das", "",
         "Ein Modell lernt etwas Neues und verliert dabei stark, was es vorher konnte.",
         page="continual-learning", avoid={r"\bcatastrophic forgetting\b": "catastrophic forgetting"}),
    Term("Causal Masking", "das", "",
         "Jede Position darf nur sich selbst und frühere Positionen sehen, nie spätere. "
         "Die Sperre dafür heißt kausale Maske.", page="attention",
         avoid={r"\b(?!Causal Masking\b)[Cc]ausal[- ][Mm]asking\b": "causal masking, Causal-Masking"}),
    Term("Chunked Prefill", "das", "",
         "Das Prefill eines langen Prompts in Portionen, damit andere Anfragen dazwischen weiterlaufen."),
    Term("Disaggregated Serving", "das", "",
         "Prefill und Decode laufen auf getrennten Rechnern, jeder auf seine Arbeit zugeschnitten."),
    Term("Embedding", "das", "die Embeddings",
         "Der Vektor, mit dem ein Modell ein Token darstellt: seine Zeile in einer gelernten Tabelle.",
         page="embeddings"),
    Term("End-to-End Request Latency", "die", "",
         "Die ganze Wartezeit einer Anfrage, vom Absenden bis zum letzten Token."),
    Term("Entropie", "die", "",
         "Ein Maß für die Unsicherheit einer Verteilung: hoch, wenn viele Ausgänge ähnlich wahrscheinlich sind."),
    Term("erwartungstreue Schätzung", "die", "",
         "Eine Schätzung, die im Mittel über viele Wiederholungen genau den wahren Wert trifft."),
    Term("Fine-Tuning", "das", "",
         "Ein fertig trainiertes Modell wird mit ausgewählten Beispielen weitertrainiert.",
         avoid={r"\b(?!Fine-Tuning\b)[Ff]ine[- ]?[Tt]uning\b": "Fine-tuning, Finetuning, fine-tuning"}),
    Term("Fisher-Information", "die", "",
         "Misst, wie stark sich die Vorhersagen ändern, wenn man ein Gewicht verschiebt. EWC nutzt sie als "
         "Wichtigkeit.", page="ewc"),
    Term("FlashAttention 2", "", "",
         "Die zweite Fassung von FlashAttention; sie verteilt die Arbeit besser auf die Recheneinheiten.",
         page="flash-attention"),
    Term("Gerade", "die", "die Geraden",
         "Eine Linie ohne Krümmung; als Regel sagt sie y = a · x + b voraus. Gebeugt: der Geraden, zur Geraden.",
         avoid={r"\b(?:zur|der|einer|dieser|jeder) Gerade\b(?![n\w-])": "der Gerade, zur Gerade"}),
    Term("Gradient", "der", "die Gradienten",
         "Der Pfeil aus den Ableitungen eines Verlusts nach allen Gewichten: Er zeigt dorthin, wo der Verlust "
         "am schnellsten steigt.", page="gradientenabstieg"),
    Term("Gradientenabstieg", "der", "",
         "Lernen in Schritten gegen den Gradienten: Jeder Schritt ändert die Gewichte so, dass der Verlust sinkt.",
         page="gradientenabstieg", avoid={r"\b[Gg]radient [Dd]escent\b": "Gradient Descent"}),
    Term("Grokking", "das", "",
         "Ein Modell scheint lange nur auswendig zu lernen und verallgemeinert nach viel mehr Training "
         "plötzlich doch."),
    Term("Inter-Token Latency", "die", "",
         "Die Zeit zwischen zwei ausgegebenen Tokens, nachdem das erste da ist.",
         avoid={r"\bInter-token Latency\b": "Inter-token Latency"}),
    Term("Jensen-Shannon-Divergenz", "die", "",
         "Eine symmetrische Verwandte der KL-Divergenz: Sie misst von beiden Seiten zu einer Mischung."),
    Term("Kosinus-Ähnlichkeit", "die", "",
         "Das Skalarprodukt zweier Vektoren geteilt durch ihre Längen: 1 bei gleicher Richtung, 0 bei "
         "senkrechten, −1 bei entgegengesetzten Vektoren.",
         page="embeddings", avoid={r"\bKosinusähnlichkeit\b": "Kosinusähnlichkeit"}),
    Term("Kreuzentropie", "die", "",
         "Der übliche Verlust beim Lernen von Wahrscheinlichkeiten: Er bestraft, wenn das richtige Ergebnis "
         "eine kleine Wahrscheinlichkeit bekommt. Englisch heißt sie cross-entropy.", page="kreuzentropie-perplexitaet",
         avoid={r"\b[Cc]ross[- ]?[Ee]ntropy\b": "Cross-Entropy", r"\bKreuz-Entropie\b": "Kreuz-Entropie"}),
    Term("Key", "der", "die Keys",
         "Der Vektor, mit dem ein Token sagt, was es bietet; die Query eines anderen Tokens wird mit ihm "
         "verglichen.", page="attention"),
    Term("Kopf", "der", "die Köpfe",
         "Englisch head: eine Attention-Rechnung mit eigenen Queries, Keys und Values. Ein Modell hat in "
         "jeder Schicht mehrere Köpfe nebeneinander.", page="attention"),
    Term("K/V-Kopf", "der", "die K/V-Köpfe",
         "Die Keys und Values, die ein oder mehrere Query-Köpfe lesen. Bei MHA hat jeder Query-Kopf einen "
         "eigenen, bei GQA und MQA teilen sich mehrere einen. Der KV-Cache hält jeden K/V-Kopf einmal.", page="gqa",
         avoid={r"\bK/V-S[äa]tz\w*": "K/V-Satz, K/V-Sätze", r"\bK/V-Gruppe\w*": "K/V-Gruppe",
                r"\bKV-K[oö]pf\w*": "KV-Kopf", r"\bK/V-Darstellung\w*": "K/V-Darstellung"}),
    Term("KV-Cache", "der", "die KV-Caches",
         "Der Speicher für die Keys und Values aller bisherigen Tokens, damit das Modell sie nicht neu "
         "berechnen muss.", page="kv-cache",
         avoid={r"\bKV ?Cache": "KV Cache", r"\bkv-Cache\b": "kv-Cache",
                # not the file names kv-cache-growth.json or …/kv-cache/
                r"(?<![/\w-])[Kk][Vv]-cache\b(?![-./])": "KV-cache"}),
    Term("Label", "das", "die Labels",
         "Die richtige Antwort, die zu einem Trainingsbeispiel gehört, etwa die Abteilung einer Nachricht.",
         avoid={r"\bEtikett\w*": "Etikett",
                r"\b(?:der|den|einen|jeden|keinen)(?: \w+(?:en|er|es))? Label\b(?![s\w-])": "der Label",
                r"\bdie(?: \w+en)? Label\b(?![s\w-])": "die Label (Plural)",
                r"\bLabeln\b": "Labeln", r"\bLabelen\b": "Labelen"}),
    Term("logistische Regression", "die", "",
         "Passt eine S-förmige Kurve an Ja-nein-Ergebnisse an, etwa Erfolg oder Misserfolg."),
    Term("Lernrate", "die", "die Lernraten",
         "Die Zahl η, die beim Gradientenabstieg sagt, mit welchem Faktor der Gradient zum Schritt wird.",
         page="gradientenabstieg",
         avoid={r"\b[Ll]earning[- ][Rr]ate\b": "Learning Rate"}),
    Term("Logit", "das", "die Logits",
         "Der Rohwert, den ein Modell für jedes mögliche nächste Token ausgibt; die Softmax macht daraus "
         "Wahrscheinlichkeiten.", page="softmax-temperatur",
         # das Logit: „den/einen (größten) Logit“ is the masculine accusative
         avoid={r"\b(?:[Dd]en|[Ee]inen)\s+(?:\w+e[nr]?\s+)?Logit\b(?!-)": "der Logit"}),
    Term("LoRA", "", "",
         "Low-Rank Adaptation: Statt aller Gewichte lernt man kleine Zusatzmatrizen, einen Adapter."),
    Term("Maximum-Likelihood-Schätzung", "die", "",
         "Man wählt die Werte, unter denen die beobachteten Daten am wahrscheinlichsten sind."),
    Term("Multi-Head Attention", "die", "",
         "Attention mit mehreren Köpfen; jeder Kopf hat eigene Queries, Keys und Values. Kurz MHA.",
         page="gqa"),
    Term("Nat", "das", "die Nat",
         "Die Einheit eines Verlusts oder einer Entropie, gerechnet mit dem natürlichen Logarithmus ln. "
         "Ein Bit sind ln 2 ≈ 0,693 Nat.", page="kreuzentropie-perplexitaet",
         avoid={r"\b[Nn]ats\b": "Nats, nats", r"\bnat\b": "nat"}),
    Term("Newton-Verfahren", "das", "",
         "Ein Rechenverfahren, das sich Schritt für Schritt dem höchsten oder tiefsten Punkt einer Funktion "
         "nähert. Jeder Schritt nutzt die Steigung und die Krümmung an der Stelle, an der er gerade ist."),
    Term("Nucleus Sampling", "das", "", "Ein anderer Name für Top-p-Sampling.", page="top-p-sampling"),
    Term("On-Policy-Selbstdestillation", "die", "",
         "Ein Modell lernt von sich selbst, an Antworten, die es gerade selbst erzeugt."),
    Term("Odds", "die", "",
         "Das Verhältnis p/(1 − p) einer Wahrscheinlichkeit p zu ihrer Gegenwahrscheinlichkeit, etwa 3 zu 1 bei "
         "p = 0,75. Ihr Logarithmus heißt Log-Odds."),
    Term("Online-Softmax", "die", "",
         "Berechnet die Softmax Stück für Stück, ohne alle Werte vorher zu kennen. FlashAttention nutzt das.",
         page="flash-attention"),
    Term("Padding", "das", "",
         "Leere Füllplätze, die kurze Beispiele auf die Länge der längsten bringen.", page="sequence-packing"),
    Term("Perplexität", "die", "",
         "e hoch der Kreuzentropie eines Texts: so unsicher, als wählte das Modell bei jedem Token zwischen so "
         "vielen gleich guten Tokens.", page="kreuzentropie-perplexitaet",
         avoid={r"\bPerplexity\b": "Perplexity", r"\bPerplexizität\b": "Perplexizität"}),
    Term("Positional Encoding", "das", "",
         "Die ursprüngliche Art, Positionen mitzugeben: Ein Positionsvektor wird zum Embedding des Tokens addiert.",
         page="rope"),
    Term("Prefill", "das", "",
         "Der erste Durchlauf, in dem das Modell den ganzen Prompt auf einmal liest und den KV-Cache füllt.",
         page="prefill",
         avoid={r"\b(?:der|den|einen)(?: \w+e[nrs]?)? Prefill\b(?![s\w-])": "der Prefill, den Prefill",
                r"\bPre-[Ff]ill\b": "Pre-fill"}),
    Term("Prompt", "der", "die Prompts", "Der Text, den das Modell als Eingabe bekommt, bevor es antwortet."),
    Term("Query", "die", "die Queries",
         "Der Vektor, mit dem ein Token in der Attention fragt, was es sucht; Englisch für Anfrage.",
         page="attention"),
    Term("Reward Hacking", "das", "",
         "Ein Modell findet einen Weg, viel Belohnung zu bekommen, ohne die eigentliche Aufgabe zu lösen."),
    Term("RLHF", "", "",
         "Reinforcement Learning from Human Feedback: Die Belohnung kommt aus Urteilen von Menschen.",
         page="reinforcement-learning"),
    Term("Runde", "die", "die Runden",
         "Ein Durchgang eines Ablaufs, der sich wiederholt, in dem jede Beteiligte einmal dran ist: "
         "ein Zug im Spiel, ein Schritt für alle laufenden Anfragen, ein Vorschlag mit Prüfung. "
         "Ein Durchgang über alle Trainingsdaten heißt dagegen Epoche.",
         avoid={r"\bTrainingsrunden?\b": "Trainingsrunde",
                r"\bRunden über die\b": "Runden über die Daten"}),
    Term("Epoche", "die", "die Epochen",
         "Ein Durchgang über alle Trainingsbeispiele; das Training wiederholt ihn mehrmals."),
    Term("Scaled Dot-Product Attention", "die", "",
         "Die Grundrechnung der Attention: Skalarprodukt von Query und Key, geteilt durch die Wurzel der "
         "Dimension, dann Softmax und gewichtete Summe der Values.", page="attention"),
    Term("Skalierung des KV-Caches", "die", "",
         "Wie der Speicher des KV-Caches mit Kontextlänge, Schichten und Köpfen wächst.", page="kv-cache"),
    Term("Softmax", "die", "",
         "Macht aus beliebigen Zahlen (Logits) Wahrscheinlichkeiten, die zusammen 1 ergeben.",
         page="softmax-temperatur"),
    Term("Stichprobe", "die", "die Stichproben",
         "Eine Auswahl aus einer größeren Menge, aus der man auf das Ganze schließt."),
    Term("Temperatur", "die", "",
         "Teilt die Logits vor der Softmax: Unter 1 wird die Verteilung steiler, über 1 flacher.",
         page="softmax-temperatur"),
    Term("Test Set", "das", "die Test Sets",
         "Daten, die erst ganz am Ende ein einziges Mal zur Bewertung dienen.", page="validation-set",
         avoid={r"\btest set\b": "test set"}),
    Term("Token", "das", "die Tokens",
         "Ein Textstück, mit dem ein Sprachmodell rechnet: ein Wort, ein Wortteil, ein Zeichen oder ein Byte. "
         "Jedes Token hat eine Nummer im Vokabular.", page="tokenisierung",
         avoid={r"\b(?:der|den|einen|jeden|keinen|welchen|diesen)(?: \w+e[nrs]?)? (?:\w+-)?Token\b(?![s\w-])":
                "der Token, den Token, einen Token",
                r"\bdie(?: \w+en?)? Token\b(?![s\w-])": "die Token (Plural)",
                r"\b" + _NUMBER_WORDS + r"(?: \w+e)? Token\b(?![s\w-])": "zwei Token",
                r"\b(?:[Mm]askierte|[Bb]ewertete|[Ss]ichtbare) Token\b(?![s\w-])": "maskierte Token"}),
    Term("Vokabular", "das", "die Vokabulare",
         "Alle Tokens, die ein Tokenizer kennt, jedes mit seiner Nummer.", page="tokenisierung"),
    Term("Tokenisierung", "die", "", "Das Zerlegen eines Textes in Tokens.", page="tokenisierung"),
    Term("Tokenizer", "der", "die Tokenizer", "Zerlegt Text in Tokens und übersetzt sie in Nummern.",
         page="tokenisierung"),
    Term("Top-k-Sampling", "das", "",
         "Lost das nächste Token nur unter den k wahrscheinlichsten aus.", page="top-k-sampling",
         avoid={r"\b[Tt]op-k[ ][Ss]ampling\b": "Top-k Sampling", r"\bTop-K\b": "Top-K"}),
    Term("Top-p-Sampling", "das", "",
         "Lost das nächste Token nur unter den wahrscheinlichsten aus, bis ihre Summe p erreicht.",
         page="top-p-sampling",
         avoid={r"\b[Tt]op-p[ ][Ss]ampling\b": "Top-p Sampling", r"\bTop-P\b": "Top-P"}),
    Term("Value", "der", "die Values",
         "Der Vektor, den ein Token in der Attention weitergibt; die Ausgabe ist eine gewichtete Summe "
         "der Values.", page="attention"),
    Term("Validation Set", "das", "die Validation Sets",
         "Daten, die beim Lernen beiseitebleiben. Mit ihnen wählst du Einstellungen wie den Grad einer Kurve.",
         page="validation-set", avoid={r"\bvalidation set\b": "validation set"}),
    Term("Übertragung von Caches zwischen Modellen", "die", "",
         "Ein Modell nutzt den KV-Cache weiter, den ein anderes Modell berechnet hat."),
    Term("Unit-Test", "der", "die Unit-Tests",
         "Ein kleines Programm, das prüft, ob ein Stück Code das Richtige liefert."),
    Term("Verlustfunktion", "die", "die Verlustfunktionen",
         "Eine Zahl für jede Wahl der Gewichte, die misst, wie falsch das Modell liegt. Gelernt wird, indem sie "
         "sinkt.", page="gradientenabstieg", avoid={r"\b[Ll]oss[- ][Ff]unction\b": "Loss Function"}),
    Term("Vektor", "der", "die Vektoren",
         "Eine Liste von Zahlen fester Länge. Zwei Zahlen sind ein Pfeil in der Ebene.", page="embeddings"),
    Term("Wahrscheinlichkeit", "die", "die Wahrscheinlichkeiten",
         "Eine Zahl von 0 bis 1 (oder 0 bis 100 %), die sagt, wie sicher etwas eintritt. In der Statistik "
         "meint „Chance“ dagegen die Odds.",
         avoid={_CHANCE: "Chance, Erfolgschance"}),
    Term("Weight Decay", "der", "",
         "Eine Strafe auf große Gewichte beim Training neuronaler Netze.", page="overfitting",
         avoid={r"\bweight decay\b": "weight decay"}),
)

# Wordings that are no term's variant but still wrong on a page: (pattern, what it should say instead).
PHRASES: tuple[tuple[str, str], ...] = (
    # a page stands on its own: it says what it means, not which source text it was written from
    (r"\bLehrtext\w*|\bArtikelbeispiel\w*|\b(?:des|im|der|dem) Artikels?\b(?!-)",
     "keine Bemerkung über die Vorlage der Seite (Lehrtext, Artikel); sag, was gemeint ist"),
    # K/V names two vectors, so it takes no singular article; the pair is „das K/V-Paar“
    (r"\b[Jj]ede[rs]? K/V\b(?!-)", "jedes K/V-Paar"),
    # one citation style on every page: „Vaswani et al. 2017“, as most pages write it
    (r"\b[A-ZÄÖÜ][a-zäöüß]+ und (?:Kollegen\b|andere(?=[,:)]))", "et al."),
)

# Weak verbs whose short imperative the pages do not use (the e-form: Stelle, Schiebe …).
IMPERATIVES = ("Stell", "Schieb", "Verschieb", "Dreh", "Wähl", "Änder", "Find", "Zieh", "Setz", "Schau", "Probier",
               "Klick", "Mach", "Leg", "Zähl", "Such", "Hol", "Prüf", "Beobacht", "Vergleich", "Tausch")
# Capitalised, these are imperatives only where a sentence begins ("Vergleich" is also a noun).
IMPERATIVE = re.compile(r"(?:^|(?<=[.!?:;]\s)|(?<=[–(„]\s)|(?<=[(„]))(?:" + "|".join(IMPERATIVES) + r")\s"
                        r"|\b(?:" + "|".join(v.lower() for v in IMPERATIVES if v != "Vergleich") + r")\s")


def by_term() -> dict[str, Term]:
    return {t.term: t for t in TERMS}


def link(term: str) -> str:
    """A Markdown link from a concept page to the term's entry."""
    return f"[{term}](glossar.md#{by_term()[term].anchor})"


def _entry(t: Term) -> str:
    grammar = ", ".join(part for part in (t.article, f"Plural: {t.plural}" if t.plural else "") if part)
    head = f"**{t.term}**" + (f" ({grammar})" if grammar else "")
    text = f"{head} – {t.explanation}"
    if t.page:
        text += f" Seite: [{api.concept(t.page).TITLE}]({t.page}.md)."
    shown = [variant for s in t.avoid.values() for variant in s.split(", ") if variant]
    if shown:
        text += " Nicht: " + "; ".join(f"„{s}“" for s in shown) + "."
    return f'<p id="{t.anchor}" markdown>{text}</p>'


def page() -> str:
    """The entries, one paragraph each under its first letter."""
    lines: list[str] = []
    letter = ""
    for t in sorted(TERMS, key=lambda t: t.term.casefold().replace("ü", "u")):
        first = t.term[0].upper().replace("Ü", "U")
        if first != letter:
            letter = first
            lines += ["", f"## {letter}", ""]
        lines += [_entry(t), ""]
    return "\n".join(lines)
