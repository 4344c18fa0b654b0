"""Cards, their notation and aliases, and the decks (RULES.md §1)."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from thirtyone import ALL_CARDS, DECKS, Card, CardError, parse_card, parse_cards
from thirtyone.cards import JOKERS, RANKS, SUITS


def test_every_card_reads_back_from_its_code():
    assert len(ALL_CARDS) == 54
    for index, card in enumerate(ALL_CARDS):
        assert card.index == index and card.mask == 1 << index
        assert parse_card(card.code) is card
        assert parse_card(card.code.lower()) is card
        assert parse_card(card) is card
        assert str(card) == card.code and repr(card) == f"Card({card.code!r})"


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("AS", "AS"), ("10H", "10H"), ("2C", "2C"), ("QD", "QD"), ("X1", "X1"), ("X2", "X2"),
        # T for ten, lower case, spaces around
        ("TS", "10S"), ("td", "10D"), ("Th", "10H"), ("as", "AS"), ("10c", "10C"),
        ("x2", "X2"), ("  KH ", "KH"), ("jC", "JC"),
        # Unicode suits, filled and outlined
        ("A♠", "AS"), ("10♥", "10H"), ("Q♦", "QD"), ("J♣", "JC"), ("7♤", "7S"), ("9♡", "9H"),
        ("8♢", "8D"), ("6♧", "6C"), ("T♦", "10D"), ("k♠", "KS"),
        # Latin T before a suit symbol is a ten; Cyrillic Т is туз, the ace.
        ("T♠", "10S"), ("Т♠", "AS"),
        # Russian ranks: туз, король, дама, валет; lower case too
        ("Т♥", "AH"), ("К♦", "KD"), ("Д♣", "QC"), ("В♠", "JS"), ("т♠", "AS"), ("д♥", "QH"),
        ("в♦", "JD"), ("к♣", "KC"),
        # Italian ranks: asso, re, donna, fante
        ("A♦", "AD"), ("R♥", "KH"), ("D♠", "QS"), ("F♣", "JC"), ("r♠", "KS"), ("f♦", "JD"),
        ("d♣", "QC"),
        # number ranks with Unicode suits
        ("2♠", "2S"), ("9♣", "9C"),
    ],
)
def test_aliases(text, code):
    assert parse_card(text) is parse_card(code)
    assert parse_card(text).code == code


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("", ""), ("A", "A"), ("11S", "11S"), ("1S", "1S"), ("ZZ", "ZZ"), ("X3", "X3"),
        ("XS", "XS"), ("AS KS", "AS KS"), ("10", "10"), ("AX", "AX"), ("ТS", "ТS"),
        ("ДS", "ДS"), ("DS", "DS"), ("RH", "RH"), ("FC", "FC"), ("К", "К"), ("♠", "♠"),
        ("Z♠", "Z♠"), ("AS♠", "AS♠"),
    ],
)
def test_bad_codes_name_the_code(text, shown):
    with pytest.raises(CardError) as raised:
        parse_card(text)
    error = raised.value
    assert error.code == "bad_card"
    assert error.params == {"card": shown}
    assert repr(shown) in str(error)
    assert error.to_dict()["code"] == "bad_card"


@pytest.mark.parametrize("value", [None, 5, 1.5, ["AS"], b"AS"])
def test_non_strings_are_bad_cards(value):
    with pytest.raises(CardError) as raised:
        parse_card(value)
    assert raised.value.code == "bad_card"
    assert raised.value.params == {"card": repr(value)}


def test_localized_ranks_need_a_unicode_suit():
    # "D" is a suit letter in the canonical notation, so "DS" is not the queen of spades.
    with pytest.raises(CardError):
        parse_card("DS")
    assert parse_card("D♠").code == "QS"


def test_parse_cards():
    assert [card.code for card in parse_cards("AS KS,10S")] == ["AS", "KS", "10S"]
    assert [card.code for card in parse_cards("as, k♠ , Т♥")] == ["AS", "KS", "AH"]
    assert [card.code for card in parse_cards(["x1", parse_card("2C")])] == ["X1", "2C"]
    assert parse_cards("") == [] and parse_cards([]) == []
    with pytest.raises(CardError) as raised:
        parse_cards(["AS", "BAD", "ALSO"])
    assert raised.value.params == {"card": "BAD"}


def test_card_of():
    assert Card.of("A", "S") is parse_card("AS")
    assert Card.of("10", "H") is parse_card("10H")
    assert Card.of("X", "1") is JOKERS[0] and Card.of("X", "2") is JOKERS[1]
    for rank, suit in (("Z", "S"), ("A", "Z"), ("T", "S"), ("X", "3")):
        with pytest.raises(CardError) as raised:
            Card.of(rank, suit)
        assert raised.value.code == "bad_card"


def test_card_fields():
    ace, ten, seven, joker = (parse_card(code) for code in ("AS", "10H", "7D", "X2"))
    assert (ace.rank, ace.suit, ace.value, ace.rank_order) == ("A", "S", 11, 14)
    assert (ten.rank, ten.suit, ten.value, ten.rank_order) == ("10", "H", 10, 10)
    assert (seven.value, seven.rank_order) == (7, 7)
    assert (joker.rank, joker.suit, joker.value, joker.rank_order) == ("X", None, 0, 15)
    assert joker.is_joker and not ace.is_joker
    assert [parse_card(f"{rank}C").value for rank in RANKS] == [
        2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 11,
    ]
    assert [parse_card(f"{rank}C").rank_order for rank in RANKS] == list(range(2, 15))
    # Pictures and ten share a value but not a rank: the king beats the queen on ranks.
    king, queen = parse_card("KC"), parse_card("QC")
    assert king.value == queen.value and king.rank_order > queen.rank_order


def test_cards_are_immutable_hashable_and_ordered():
    card = parse_card("QH")
    with pytest.raises(dataclasses.FrozenInstanceError):
        card.rank = "K"  # type: ignore[misc]
    assert hash(card) == card.index
    assert {card, parse_card("qh"), parse_card("Д♥")} == {card}
    assert card == parse_card("QH") and card != parse_card("QS") and card != "QH"
    ordered = sorted(parse_cards("AS 2C X1 10D 2D KH"))
    assert [c.code for c in ordered] == ["2C", "2D", "10D", "KH", "AS", "X1"]
    assert pickle.loads(pickle.dumps(card)) is card


@pytest.mark.parametrize(
    ("deck", "size", "ranks", "jokers", "ace"),
    [
        ("full52", 52, RANKS, 0, 11),
        ("piquet32", 32, ("7", "8", "9", "10", "J", "Q", "K", "A"), 0, 11),
        ("short36", 36, ("6", "7", "8", "9", "10", "J", "Q", "K", "A"), 0, 11),
        ("full54", 54, RANKS, 2, 11),
        ("race24", 24, ("2", "3", "4", "5", "6", "A"), 0, 1),
        ("nine24", 24, ("9", "10", "J", "Q", "K", "A"), 0, 11),
        ("five40", 40, ("5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"), 0, 11),
        ("italian40", 40, ("2", "3", "4", "5", "6", "7", "J", "Q", "K", "A"), 0, 11),
    ],
)
def test_decks(deck, size, ranks, jokers, ace):
    cards = DECKS[deck]
    assert cards.id == deck and len(cards) == size and cards.name
    assert sum(card.is_joker for card in cards) == jokers
    assert {card.rank for card in cards if not card.is_joker} == set(ranks)
    assert {card.suit for card in cards if not card.is_joker} == set(SUITS)
    assert len(set(cards)) == size
    assert cards.mask == sum(card.mask for card in cards)
    assert all(card in cards for card in cards)
    assert sum(card not in cards for card in ALL_CARDS) == 54 - size
    assert "AS" not in cards  # only Card objects are members
    assert cards.value(parse_card("AH")) == ace
    assert cards.value(parse_card("KH")) == 10
    assert list(cards) == sorted(cards, key=lambda card: card.index)


def test_deck_ids():
    assert set(DECKS) == {"full52", "piquet32", "short36", "full54", "race24", "nine24",
                          "five40", "italian40"}
