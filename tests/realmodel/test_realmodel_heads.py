"""„Am echten Modell“ on the attention page (realmodel/heads.py, pageblocks/heads_block.py): the trained target's
attention of every layer and head on the reader's sentence, as the heatmap gets it; the caps and notes; the
block's choices from the model's own configuration."""

import numpy as np
import pytest
from probierlabor.pageblocks import heads_block
from probierlabor.realmodel import heads, models
from probierlabor.realmodel.fields import PROMPT_CHARS
from probierlabor.realmodel.form import PromptError

from engine.attention import attention_maps


def test_every_layer_and_head_of_the_trained_model_row_by_row():
    out = heads.run({"prompt": heads.DEFAULT_SENTENCE})
    model, tokenizer = models.load("target")
    ids = tokenizer.encode(heads.DEFAULT_SENTENCE)
    assert (out["layers"], out["heads"], out["kv_heads"]) == (4, 8, 2)  # GQA: four query heads per K/V head
    assert [t["id"] for t in out["tokens"]] == ids and out["notes"] == []
    full = attention_maps(model, ids)
    for layer in range(4):
        for head in range(8):
            rows = out["maps"][layer][head]
            assert [len(row) for row in rows] == list(range(1, len(ids) + 1))  # the mask: keys up to the query
            for i, row in enumerate(rows):
                np.testing.assert_allclose(row, full[layer, head, i, :i + 1], atol=0.5 * 10 ** -heads.DIGITS)
                assert sum(row) == pytest.approx(1, abs=len(row) * 0.5 * 10 ** -heads.DIGITS)


def test_a_long_sentence_is_cut_with_a_note_and_an_empty_one_refused():
    long = "Die Katze jagt die Maus. " * 30
    out = heads.run({"prompt": long})
    shown = len(out["tokens"])
    assert heads.HEAD_TOKENS - 3 <= shown <= heads.HEAD_TOKENS and len(out["maps"][0][0]) == shown
    said = " ".join(out["notes"])
    assert f"nur die ersten {PROMPT_CHARS}" in said and f"Die Karte zeigt die ersten {shown}." in said
    # what the link keeps is the text the map shows, and it gives the same tokens again
    assert long.startswith(out["settings"]["prompt"])
    assert models.load("target")[1].encode(out["settings"]["prompt"]) == [t["id"] for t in out["tokens"]]
    with pytest.raises(PromptError, match="Der Satz ist leer"):
        heads.run({"prompt": "   "})


def test_the_block_offers_the_models_layers_and_heads_and_stays_closed():
    html = heads_block.section("attention")
    assert html.startswith('<details class="pl-realmodel" data-realmodel="attention" data-realmodel-view="heads"')
    config = models.load("target")[0].config
    assert html.count("<option") == config.num_layers + config.num_heads
    assert "Kopf 4 (K/V-Kopf 1)" in html and "Kopf 5 (K/V-Kopf 2)" in html
    assert " open" not in html.split(">")[0] and 'data-realmodel-field="prompt"' in html


def test_a_megabyte_sentence_leaves_only_what_the_map_shows_for_the_link():
    """The block wrote the reader's whole sentence into the address: 1 MB made every head change take a second."""
    out = heads.run({"prompt": "Die Katze jagt die Maus. " * 40_000})
    assert len(out["settings"]["prompt"]) < 200 and out["notes"][0] == (
        f"Dein Satz hat 1\u202f000\u202f000 Zeichen. Das Modell liest nur die ersten {PROMPT_CHARS}.")


def test_a_layer_or_head_the_model_does_not_have_is_clamped_with_a_note():
    """A hand-edited link's m.layer / m.head was replaced by the first layer and head without a word. The
    notes are the contract's (Param.coerce), for any other setting out of range."""
    for layer, head, shown, said in (
        ("9", "0", ("4", "1"), [("„Schicht“: 9 ", "verwendet wird 4."), ("„Kopf“: 0 ", "verwendet wird 1.")]),
        ("x", "7", ("1", "7"), [("„Schicht“: „x“ ist kein gültiger Wert", "1.")]),
    ):
        out = heads.run({"prompt": "Die Katze jagt", "layer": layer, "head": head})
        assert (out["settings"]["layer"], out["settings"]["head"]) == shown
        assert [(n[:len(start)], n[-len(end):]) for n, (start, end) in zip(out["notes"], said)] == said
        assert len(out["notes"]) == len(said)
