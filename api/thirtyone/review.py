"""Game review: every decision of every seat valued against the best move that seat could see.

A match is replayed from its record: the rules, the number of players, the seed, the first
dealer and the moves played in order (the seed shows in a finished game's state; a match
record of the table-life issue carries the same). At each decision (a seat to act with more
than one legal move) the advice (:func:`~thirtyone.advice.advise_view`) values every legal
move from that seat's own view, in the match's own measure; the review keeps the value of the
move played, the best value, and what the difference cost. Its effort is bounded: at most
:data:`MAX_DECISIONS` decisions, and :data:`WORLDS` worlds shared among them (never fewer
than :data:`MIN_SAMPLES` a decision), so a review costs well under a second of CPU whatever
the match; exact positions (the last turn after a knock, the race) cost no sampling.

A player's ``accuracy`` is the share of its decisions where the move played was worth the
best one within the advice's error (exactly, where the values are exact).

>>> from thirtyone.game import new_game, apply_move, legal_moves
>>> state = new_game("race", 2, seed=5, dealer=1)
>>> moves = []
>>> while not state.is_over:
...     move = legal_moves(state)[0]
...     moves.append(move)
...     state, _ = apply_move(state, move)
>>> done = review({"variant": "race", "players": 2, "seed": 5, "dealer": 1, "moves": moves})
>>> [player.seat for player in done.players], 0 <= done.players[0].accuracy <= 1
([0, 1], True)
"""

from __future__ import annotations

import gettext
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from thirtyone.advice import MEASURE_TEXTS, advise_view
from thirtyone.errors import N_, MoveError, StateError
from thirtyone.game import GameState, apply_move, legal_moves, new_game, view
from thirtyone.policy import Move
from thirtyone.words import describe_move, format_message

MAX_DECISIONS = 300
"""The most decisions a record may hold (a long match of two players has about 150)."""
MAX_MOVES = 2_000
"""The most moves a record may hold."""
WORLDS = 600
"""The worlds a review samples in all, shared among its decisions."""
MIN_SAMPLES = 4
"""The fewest worlds a sampled decision gets."""
MISTAKES = 3
"""How many of the biggest mistakes a review names."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision: the seat, the round, the move played and the best one (by their place
    in the legal moves), their values in ``measure`` and what the move played cost."""

    number: int
    seat: int
    round: int
    played: Move
    best: Move
    value: float
    best_value: float
    stderr: float
    exact: bool
    seen: Mapping[str, Any] = field(repr=False, compare=False)

    @property
    def loss(self) -> float:
        return max(0.0, self.best_value - self.value)

    @property
    def accurate(self) -> bool:
        """The move played was worth the best within the advice's error."""
        return self.loss <= (1e-9 if self.exact else self.stderr)

    def to_dict(self) -> dict[str, Any]:
        return {"number": self.number, "seat": self.seat, "round": self.round,
                "played": dict(self.played), "best": dict(self.best), "value": self.value,
                "best_value": self.best_value, "stderr": self.stderr, "exact": self.exact,
                "loss": self.loss}


@dataclass(frozen=True, slots=True)
class PlayerReview:
    seat: int
    decisions: int
    accuracy: float
    lost: float
    """The sum of what the seat's moves cost, in the measure."""

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "decisions": self.decisions, "accuracy": self.accuracy,
                "lost": self.lost}


@dataclass(frozen=True, slots=True)
class Review:
    measure: str
    decisions: tuple[Decision, ...]
    players: tuple[PlayerReview, ...]

    @property
    def mistakes(self) -> list[Decision]:
        """The :data:`MISTAKES` decisions that cost most (the earliest of equal ones)."""
        costly = [decision for decision in self.decisions if not decision.accurate]
        return sorted(costly, key=lambda decision: -decision.loss)[:MISTAKES]


def review(record: Mapping[str, Any]) -> Review:
    """Review the match of ``record`` (see the module docstring); a
    :class:`~thirtyone.errors.ThirtyOneError` names what is wrong with a bad record."""
    state, moves = _read(record)
    positions = []
    for number, move in enumerate(moves):
        if state.is_over:
            raise StateError("bad_record", N_("the record goes on after the match is over"),
                             field=f"moves.{number}")
        legal: list[Move] = list(legal_moves(state))
        seat = state.turn
        before = state
        try:
            played = apply_move(state, move)
        except MoveError:
            raise StateError("bad_record", N_("move {index} of the record is not legal "
                                              "there"), field=f"moves.{number}",
                             index=number) from None
        state = played.state
        if seat is not None and len(legal) > 1:
            # The move as the engine played it (canonical), to find it among the legal ones.
            positions.append((number, seat, before.round, view(before, seat), legal,
                              legal.index(played.move)))
        if len(positions) > MAX_DECISIONS:
            raise StateError("record_too_long", N_("a review covers at most {limit} "
                                                   "decisions"), field="moves",
                             limit=MAX_DECISIONS)
    samples = max(MIN_SAMPLES, WORLDS // max(len(positions), 1))
    decisions = []
    measure = ""
    for number, seat, round_, seen, legal, index in positions:
        advice = advise_view(seen, samples, f"review:{number}", moves=legal)
        measure = advice.measure
        chosen = advice.moves[index]
        best = advice.best
        decisions.append(Decision(number, seat, round_, chosen.move, best.move, chosen.value,
                                  best.value, chosen.stderr, advice.exact, seen))
    players = []
    for seat in range(state.players):
        mine = [decision for decision in decisions if decision.seat == seat]
        accurate = sum(decision.accurate for decision in mine)
        players.append(PlayerReview(seat, len(mine), accurate / len(mine) if mine else 1.0,
                                    sum(decision.loss for decision in mine)))
    return Review(measure, tuple(decisions), tuple(players))


def mistake_text(translations: gettext.NullTranslations, decision: Decision,
                 measure: str) -> str:
    """One mistake in words: the round, the seat, the move played, the better one and what it
    cost, in ``translations``' language."""
    return format_message(translations, N_(
        "Round {round}, seat {seat}: {played} instead of {best} lost {loss} ({measure})."), {
        "round": decision.round, "seat": decision.seat,
        "played": describe_move(translations, decision.played, decision.seen),
        "best": describe_move(translations, decision.best, decision.seen),
        "loss": f"{decision.loss:.3f}",
        "measure": format_message(translations, MEASURE_TEXTS[measure]),
    })


def _read(record: Mapping[str, Any]) -> tuple[GameState, Sequence[Move]]:
    if not isinstance(record, Mapping):
        raise StateError("bad_record", N_("a record is an object"), field="record")
    moves = record.get("moves")
    if not isinstance(moves, list) or len(moves) > MAX_MOVES or not all(
            isinstance(move, Mapping) for move in moves):
        raise StateError("bad_record", N_("a record lists at most {limit} moves, each an "
                                          "object"), field="moves", limit=MAX_MOVES)
    players = record.get("players")
    if isinstance(players, bool) or not isinstance(players, int):
        raise StateError("bad_record", N_("a record names its number of players"),
                         field="players")
    variant: Any = record.get("variant")
    try:
        # new_game refuses a variant of any other type with an OptionError.
        state = new_game(variant, players, seed=record.get("seed"),
                         dealer=record.get("dealer"), options=record.get("options"))
    except (TypeError, ValueError, AttributeError):
        raise StateError("bad_record", N_("a record names its variant, players and seed"),
                         field="variant") from None
    return state, moves
