"""The evaluators kept, by the rules they score: a bounded cache (least recently used first)
of the :class:`~thirtyone.hands.tables.Evaluator` of each :class:`~thirtyone.hands.basis.Basis`,
the scores of hands asked for by their codes, and how a pickled score comes back as its
table's own."""

from __future__ import annotations

import contextlib
import copyreg
import functools
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any

from thirtyone.cards import Card, parse_card
from thirtyone.hands.basis import Basis, basis_of
from thirtyone.hands.reading import mask_of
from thirtyone.hands.score import HandScore
from thirtyone.hands.tables import Evaluator
from thirtyone.rules import PRESETS, Rules, make_rules

# Every evaluator made is kept, the least recently used going first, while their tables hold no
# more scores than eight whole tables (a whole table is some 6-7 MB; the presets use nine): an
# API worker stays under 120 MB however many house rule sets its clients send, and a client
# rotating a few dozen rule sets, each asking for a few hands, keeps its tables. The count of
# scores is kept as tables fill (each table calls _count_filled) and made exact when
# evaluators go.
_TABLE_BUDGET = 8 * 24_804
_MOST_EVALUATORS = 64
_EVALUATORS: OrderedDict[Basis, Evaluator] = OrderedDict()
_filled = [0]


def evaluator_of(basis: Basis) -> Evaluator:
    found = _EVALUATORS.get(basis)
    if found is None:
        found = _EVALUATORS[basis] = Evaluator(basis, _count_filled)
        if len(_EVALUATORS) > _MOST_EVALUATORS:
            _forget(_TABLE_BUDGET)
        return found
    # Forgotten by another thread meanwhile? It serves this call all the same.
    with contextlib.suppress(KeyError):
        _EVALUATORS.move_to_end(basis)
    return found


def _count_filled() -> None:
    _filled[0] += 1
    if _filled[0] > _TABLE_BUDGET:
        # Down to half the budget, so that this stays rare.
        _forget(_TABLE_BUDGET // 2)


def _forget(keep: int) -> None:
    """Let the least recently used evaluators go until the rest hold at most ``keep`` scores
    and there are at most _MOST_EVALUATORS of them; the most recent one always stays."""
    total = sum(len(judge.table) for judge in list(_EVALUATORS.values()))
    while len(_EVALUATORS) > 1 and (total > keep or len(_EVALUATORS) > _MOST_EVALUATORS):
        _, gone = _EVALUATORS.popitem(last=False)
        total -= len(gone.table)
    _filled[0] = total
    # Some of the scores kept by codes may be theirs: a hand's score stays the one object of
    # the one table of its rules.
    score_codes.cache_clear()


def evaluator_for(variant: str | Rules, options: Mapping[str, Any] | None) -> Evaluator:
    if options is None and isinstance(variant, str):
        # A preset by its id skips the name lookup; the tables themselves stay in the bounded
        # cache above, so this map holds only each preset's small basis.
        basis = _BASIS_BY_PRESET_ID.get(variant)
        if basis is None:
            basis = basis_of(make_rules(variant))
            if variant in PRESETS:
                _BASIS_BY_PRESET_ID[variant] = basis
        return evaluator_of(basis)
    return evaluator_of(basis_of(make_rules(variant, options)))


_BASIS_BY_PRESET_ID: dict[str, Basis] = {}


CODE_SEQUENCES = frozenset({list, tuple, str})


# Room for every hand of a deck in its canonical codes (22,100 to 24,804) and then some: a
# client scoring many different hands would otherwise keep missing and pay for the cache too.
# Some 250 bytes an entry, 8 MB at most.
@functools.lru_cache(maxsize=32_768)
def score_codes(codes: str | tuple[str | Card, ...], variant: str | Rules) -> HandScore:
    return evaluator_for(variant, None).read(codes)


def _stored_score(basis: Basis, codes: tuple[str, ...]) -> HandScore:
    return evaluator_of(basis).table[mask_of(parse_card(code) for code in codes)]


def _pickled(score: HandScore) -> tuple[Callable[..., HandScore], tuple[Any, ...]]:
    return (_stored_score, (score.basis, tuple(card.code for card in score.cards)))


# Scores are shared by their table: a pickled score comes back as the table's own. The score
# type does not know the tables; the module that keeps them says how one is found again.
copyreg.pickle(HandScore, _pickled)
