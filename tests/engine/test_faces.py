"""Card faces: every card of every deck draws as well-formed SVG, hidden cards as a back."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from thirtyone.cards import ALL_CARDS, DECKS
from thirtyone.errors import CardError
from thirtyone.faces import (
    ITALIAN_RANK_LETTERS,
    ITALIAN_SUIT_COLOURS,
    ITALIAN_SUIT_PATHS,
    SUIT_COLOURS,
    SUIT_PATHS,
    card_svg,
)

SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("code", [card.code for card in ALL_CARDS] + [None])
def test_every_face_is_well_formed_svg_without_style_or_ids(code):
    svg = card_svg(code, label="x")
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    assert root.get("viewBox") == "0 0 100 140"
    for element in root.iter():
        # A strict CSP refuses style attributes; ids would clash between faces in one page.
        assert element.get("style") is None
        assert element.get("id") is None


def test_suits_are_coloured_and_ranks_localized():
    assert f'fill="{SUIT_COLOURS["H"]}"' in card_svg("AH")
    assert f'fill="{SUIT_COLOURS["S"]}"' in card_svg("AS")
    russian = {"A": "Т", "K": "К", "Q": "Д", "J": "В"}
    texts = [node.text for node in ET.fromstring(card_svg("AS", ranks=russian)).iter(f"{SVG}text")]
    assert texts == ["Т", "Т"]
    texts = [node.text for node in ET.fromstring(card_svg("10D", ranks=russian)).iter(f"{SVG}text")]
    assert texts == ["10", "10"]


def test_label_is_escaped_and_accessible():
    root = ET.fromstring(card_svg("QH", label='<dama "di" cuori>'))
    assert root.get("aria-label") == '<dama "di" cuori>'
    assert root.find(f"{SVG}title").text == '<dama "di" cuori>'
    assert ET.fromstring(card_svg("QH")).get("aria-hidden") == "true"


def test_the_back_shows_no_rank_and_a_bad_code_is_refused():
    assert "<text" not in card_svg(None)
    with pytest.raises(CardError):
        card_svg("ZZ")


@pytest.mark.parametrize("code", [card.code for card in DECKS["italian40"]])
def test_the_italian_pack_draws_its_own_suits(code):
    """RULES.md §4.15: cups, coins, batons and swords, drawn by the project, in their colours,
    with the pack's letters (F, C, R for fante, cavallo, re)."""
    svg = card_svg(code, pack="italian", ranks=ITALIAN_RANK_LETTERS, label="x")
    root = ET.fromstring(svg)
    suit = code[-1]
    paths = [node.get("d") for node in root.iter(f"{SVG}path")]
    assert ITALIAN_SUIT_PATHS[suit] in paths and SUIT_PATHS[suit] not in paths
    assert f'fill="{ITALIAN_SUIT_COLOURS[suit]}"' in svg
    texts = [node.text for node in root.iter(f"{SVG}text")]
    letter = {"J": "F", "Q": "C", "K": "R"}.get(code[:-1], code[:-1])
    assert texts[0] == letter
    assert svg != card_svg(code, ranks=ITALIAN_RANK_LETTERS, label="x")
