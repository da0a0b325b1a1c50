"""The corpus: documents carry source and licence, the split is deterministic, disjoint and draws from every
source, and the LibreOffice help is read from a .deb as the real one is built (small fixtures, no download)."""

import hashlib
import io
import lzma
import tarfile

import pytest

from model import corpus, libreoffice_help
from model.corpus import Document, build, documents, held_out


@pytest.fixture(scope="module")
def site_docs():
    return documents(external=False)


def test_documents_carry_name_source_and_licence(site_docs):
    assert len(site_docs) > 60
    assert {d.source for d in site_docs} == {"site"}
    assert all(d.name and d.licence == corpus.SITE.licence and d.text for d in site_docs)
    assert len({d.name for d in site_docs}) == len(site_docs)


def test_held_out_is_the_stated_sha256_rule():
    for paragraph in ("Das Modell wählt das nächste Token.", "Greedy nimmt das Token mit dem größten Logit.", "ä" * 9):
        number = int(hashlib.sha256(paragraph.encode("utf-8")).hexdigest()[:16], 16)
        assert held_out(paragraph) == (number % 100 < corpus.HELDOUT_PERCENT)


def _paragraphs(text):
    return text.split("\n") if text else []


def test_split_is_deterministic_disjoint_and_draws_from_every_source(site_docs):
    other = [Document(f"fixture/{i}", "fixture", "CC0-1.0", f"Satz Nummer {i} steht hier.\nUnd noch einer, {i}.")
             for i in range(200)]
    docs = site_docs + other
    first, second = build(docs), build(list(docs))
    assert (first.train, first.heldout) == (second.train, second.heldout)
    train, heldout = _paragraphs(first.train), _paragraphs(first.heldout)
    assert not set(train) & set(heldout)
    assert len(set(train)) == len(train) and len(set(heldout)) == len(heldout)
    assert all(held_out(p) for p in heldout) and not any(held_out(p) for p in train)
    # every paragraph of every document is on one side, once
    everything = {p for d in docs for p in d.text.split("\n") if p}
    assert set(train) | set(heldout) == everything
    assert [s.name for s in first.sources] == ["site", "fixture"]
    for source in first.sources:
        share = len(_paragraphs(source.heldout)) / (len(_paragraphs(source.heldout)) + len(_paragraphs(source.train)))
        assert 0.03 < share < 0.15, (source.name, share)
    assert first.sources[1].licence == "CC0-1.0" and first.sources[1].documents == 200


def test_a_paragraph_seen_before_is_left_out():
    docs = [Document("a", "eins", "CC0-1.0", "Derselbe Satz.\nNur in a."),
            Document("b", "zwei", "CC-BY-4.0", "Derselbe Satz.\nNur in b.")]
    corpus_ = build(docs)
    both = _paragraphs(corpus_.train) + _paragraphs(corpus_.heldout)
    assert sorted(both) == ["Derselbe Satz.", "Nur in a.", "Nur in b."]
    source_b = corpus_.sources[1]
    assert "Derselbe Satz." not in source_b.train + source_b.heldout


# the help's markup as in text/swriter/guide/text_frame.html and text/shared/optionen/01040200.html
HELP_PAGE = """<html><head><title>Rahmen</title></head><body><div id="DisplayArea">
<h1 id="hd_id3149487" dir="auto"><a name="text_frame"></a>Einfügen, Bearbeiten und Verketten von Rahmen</h1>
<p id="par_id3149842" class="paragraph" dir="auto">Ein Rahmen ist ein "Behälter" für Text und Grafiken, die Sie
auf der Seite beliebig positionieren können.</p>
<p id="par_1" class="listitem" dir="auto">Drücken Sie <span class="switchinline"><span hidden="true" id="MACtext_1"
class="MAC"><span class="keycode">Befehl</span></span><span hidden="true" id="defaulttext_1"><span
class="keycode">Strg</span></span></span><span class="keycode">+F</span> zum schnellen Öffnen der Suchleiste.</p>
<p id="par_2" class="paragraph" dir="auto">Siehe <span class="switchinline"><span hidden="true" id="WRITERtext_2"
class="WRITER"><a href="de/text/swriter/01/03140000.html">Ansicht – Versteckte Absätze anzeigen</a></span><span
hidden="true" id="defaulttext_2">Ansicht – Versteckte Absätze</span></span> im Menü Ansicht.</p>
<p id="par_3" class="code">Sub Main : MsgBox "Hallo Welt, wie geht es dir?" : End Sub</p>
<p id="par_4" class="paragraph">Siehe auch Zeichen.</p>
<p id="par_5" class="paragraph">=SUMME(A1:A10;B1:B10;C1:C10) / 2 + 3</p>
<p id="par_6" class="tableheadintable">Die Spalte mit den Namen der Funktionen.</p>
</div></body></html>"""


def test_help_page_keeps_sentences_and_the_default_variant():
    assert libreoffice_help.page_paragraphs(HELP_PAGE) == [
        'Ein Rahmen ist ein "Behälter" für Text und Grafiken, die Sie auf der Seite beliebig positionieren können.',
        "Drücken Sie Strg+F zum schnellen Öffnen der Suchleiste.",
        "Siehe Ansicht – Versteckte Absätze im Menü Ansicht.",
    ]


def _deb(members: dict[str, str]) -> bytes:
    """A minimal .deb: ar archive with debian-binary, control.tar.xz and data.tar.xz."""
    data = io.BytesIO()
    with tarfile.open(fileobj=data, mode="w") as tar:
        for name, text in members.items():
            body = text.encode("utf-8")
            info = tarfile.TarInfo(name)
            info.size = len(body)
            tar.addfile(info, io.BytesIO(body))
    entries = [("debian-binary", b"2.0\n"), ("control.tar.xz", lzma.compress(b"x")),
               ("data.tar.xz", lzma.compress(data.getvalue()))]
    out = b"!<arch>\n"
    for name, body in entries:
        header = f"{name}/".ljust(16) + "0".ljust(12) + "0".ljust(6) + "0".ljust(6) + "100644".ljust(8)
        out += (header + str(len(body)).ljust(10) + "`\n").encode() + body + (b"\n" if len(body) % 2 else b"")
    return out


def test_help_texts_read_the_pages_from_the_deb(tmp_path):
    root = libreoffice_help.HELP_ROOT
    deb = tmp_path / "help.deb"
    deb.write_bytes(_deb({root + "text/swriter/guide/text_frame.html": HELP_PAGE,
                          root + "text/shared/leer.html": "<p class='paragraph'>Zu kurz.</p>",
                          root + "noscript.html": "<p class='paragraph'>Außerhalb von text/ liegt nichts Lesbares.</p>"}))
    texts = libreoffice_help.help_texts(deb)
    assert [name for name, _ in texts] == ["text/swriter/guide/text_frame.html"]
    assert texts[0][1] == libreoffice_help.page_paragraphs(HELP_PAGE)


def test_a_cached_deb_that_does_not_match_its_pin_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(libreoffice_help, "CACHE_DIR", tmp_path)
    name = f"{libreoffice_help.PACKAGE}_{libreoffice_help.VERSION.replace(':', '%3a')}_all.deb"
    (tmp_path / name).write_bytes(b"!<arch>\nnicht das Paket")
    with pytest.raises(RuntimeError, match="gepinnt"):
        libreoffice_help.deb_path()


def test_written_texts_are_the_corpus_byte_for_byte(tmp_path):
    docs = [Document(f"d{i}", "fixture", "CC0-1.0", f"Absatz {i} mit Umlauten: äöüß.") for i in range(40)]
    built = build(docs)
    corpus.write(built, tmp_path / "korpus")
    assert (tmp_path / "korpus" / "train.txt").read_bytes() == built.train.encode("utf-8")
    assert (tmp_path / "korpus" / "heldout.txt").read_text(encoding="utf-8") == built.heldout
    assert (tmp_path / "korpus" / "fixture.heldout.txt").read_text(encoding="utf-8") == built.sources[0].heldout
    assert corpus.sha256(built.train) == hashlib.sha256((tmp_path / "korpus" / "train.txt").read_bytes()).hexdigest()


def test_drift_names_the_texts_that_differ_from_the_ones_the_weights_were_trained_on():
    built = corpus.Corpus("ein Satz.", "noch einer.", [])
    same = {"train": corpus.sha256("ein Satz."), "heldout": corpus.sha256("noch einer.")}
    assert corpus.drift(built, same) == []
    assert corpus.drift(built, same | {"heldout": corpus.sha256("anders.")}) == ["heldout"]
    assert corpus.drift(built, {}) == ["train", "heldout"]


def test_make_model_trains_on_the_pinned_prose_the_committed_weights_read(tmp_path):
    from engine import pretrained
    from model import site_prose
    texts = site_prose.pinned_texts()
    names = [name for name, _ in texts]
    assert names[0].startswith("pages/") and "glossary" in names and any(n.startswith("lesson:") for n in names)
    assert documents(external=False)[0].text == "\n".join(texts[0][1])  # the default is the pinned copy
    # pinning the same texts again writes the same bytes (no time stamp), so a re-pin shows in git only if
    # the prose changed
    site_prose.pin(texts, "x", tmp_path / "a.json.gz")
    site_prose.pin(texts, "x", tmp_path / "b.json.gz")
    assert (tmp_path / "a.json.gz").read_bytes() == (tmp_path / "b.json.gz").read_bytes()
    if not libreoffice_help.deb_cached():
        pytest.skip("the LibreOffice help is not in .cache/downloads (make model fetches it)")
    trained_on = pretrained.manifest()["training"]["corpus_sha256"]
    assert corpus.drift(build(), trained_on) == []
