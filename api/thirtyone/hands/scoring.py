"""The entry points: score a hand (:func:`score_hand`), rank hands (:func:`compare_hands`),
and the :func:`evaluator` game code scores with, under a preset or a rule set."""

from __future__ import annotations

import reprlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from thirtyone.cards import Card
from thirtyone.errors import N_, HandError
from thirtyone.hands.basis import basis_of
from thirtyone.hands.evaluators import CODE_SEQUENCES, evaluator_for, evaluator_of, score_codes
from thirtyone.hands.score import HandScore
from thirtyone.hands.tables import Evaluator
from thirtyone.rules import Rules, make_rules


def score_hand(
    hand: str | Iterable[str | Card],
    variant: str | Rules = "scat",
    options: Mapping[str, Any] | None = None,
) -> HandScore:
    """Score a hand of three cards under a preset (by id or name) or a :class:`Rules`, with
    ``options`` overriding the preset's.

    >>> score_hand(["A♠", "K♠", "10♠"], "blitz").category
    'blitz'
    >>> score_hand("AS KS QS", "blitz").category
    'suit'
    >>> score_hand("JC 9H 9D", "trentuno")
    HandScore(points=30, category='three-of-a-kind', suit=None, counted='9H 9D JC',
              wild={'JC': '9C'})
    >>> score_hand("QH JS 10S", "stop-the-bus").category
    'run'
    >>> score_hand("AS KS 10S", "scat", {"three_of_a_kind": "31"})
    Traceback (most recent call last):
    ...
    thirtyone.errors.OptionError: option 'three_of_a_kind' must be one of off, 30.5, \
30-below-suited, 30, not '31'
    >>> score_hand("AS KS X1")
    Traceback (most recent call last):
    ...
    thirtyone.errors.CardError: the card X1 is not in the deck full52
    """
    if options is None and hand.__class__ in CODE_SEQUENCES:
        # The API's way: a few codes under a preset, asked again and again. The codes and the
        # rule set are the key, which saves parsing them and finding the rules.
        try:
            codes = hand if hand.__class__ is str else tuple(hand)
            return score_codes(codes, variant)
        except TypeError:
            pass  # something unhashable in the hand: the slow path names the fault
    return evaluator_for(variant, options).read(hand)


def compare_hands(
    hands: Sequence[str | Iterable[str | Card]],
    variant: str | Rules = "scat",
    options: Mapping[str, Any] | None = None,
) -> Ranking:
    """Rank hands best first under a preset or :class:`Rules`; tied hands share a group.

    Hands may share cards: this compares hands, it does not deal them.

    >>> ranking = compare_hands(["AS KS QS", "AH KH JH", "6C 6D 6H", "5C 5D 5H"], "schnautz")
    >>> ranking.order, ranking.winners, ranking.losers
    ([[0], [1], [2], [3]], [0], [3])
    >>> compare_hands(["AS KS QS", "AH KH JH", "9C 9D 2S"]).order
    [[0, 1], [2]]
    >>> compare_hands(["7H 7D 7C", "AS KS"])
    Traceback (most recent call last):
    ...
    thirtyone.errors.HandError: a hand has 3 cards, not 2
    """
    if isinstance(hands, str | bytes | Mapping) or not isinstance(hands, Iterable):
        raise HandError(
            "bad_hands", N_("hands must be a list of hands, not {hands}"),
            field="hands", hands=reprlib.repr(hands),
        )
    judge = evaluator_for(variant, options)
    scores = [judge.read(hand, field=f"hands[{i}]") for i, hand in enumerate(hands)]
    if not scores:
        raise HandError("no_hands", N_("there are no hands to compare"), field="hands")
    order: list[list[int]] = []
    previous: HandScore | None = None
    for index in sorted(range(len(scores)), key=lambda i: -scores[i].strength):
        if previous is not None and scores[index].strength == previous.strength:
            order[-1].append(index)
        else:
            order.append([index])
        previous = scores[index]
    return Ranking(order, list(order[0]), list(order[-1]), scores)


def evaluator(rules: Rules | str) -> Evaluator:
    """The :class:`Evaluator` of ``rules`` (a :class:`Rules` or a preset name), cached: its
    table is built on first use, once per set of hand rules.

    >>> evaluator(make_rules("jokers"))
    Evaluator('full54', 24804 hands)
    >>> evaluator("trentuno") is evaluator(make_rules("trentuno"))
    True
    >>> evaluator("scat") is evaluator(make_rules("bank", {"ante": 5}))
    True
    """
    if not isinstance(rules, Rules):
        rules = make_rules(rules)
    return evaluator_of(basis_of(rules))


@dataclass(frozen=True, slots=True)
class Ranking:
    """Hands ranked best first: ``order`` groups tied hands' indices, ``winners`` are the
    indices of the best hands and ``losers`` those of the lowest (all hands tied: both)."""

    order: list[list[int]]
    winners: list[int]
    losers: list[int]
    scores: list[HandScore]

    def to_dict(self) -> dict[str, Any]:
        """The ranking as plain JSON-able data.

        >>> data = compare_hands(["7H 8D 9C", "9S 8S 2H"]).to_dict()
        >>> data["order"], data["winners"], data["losers"], data["scores"][1]["points"]
        ([[1], [0]], [1], [0], 17)
        """
        return {
            "order": [list(group) for group in self.order],
            "winners": list(self.winners),
            "losers": list(self.losers),
            "scores": [score.to_dict() for score in self.scores],
        }
