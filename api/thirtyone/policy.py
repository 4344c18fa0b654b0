"""The judging policy: how good each legal move looks from the acting seat's own hand and the
face-up cards, one policy for the greedy bot (:class:`~thirtyone.bots.GreedyBot`), the
advice's playouts and the opponents the worlds model (:mod:`thirtyone.worlds`).

The policy keeps the best three cards it can make, takes a face-up card or table hand only
when that improves its hand, knocks when its hand reaches the knock threshold, stands in its
final turn with a hand of at least :data:`STAND_AT`, and always takes a sure 31 (a blitz) when
one lies face up. The knock threshold (:func:`knock_threshold`, the one rule every user reads:
the greedy bot, the playouts' shortcuts and the worlds' knock model) is a threshold by the
count of turns each played, plus in a lives game an adjustment by the acting seat's own lives
left, plus one when the stock is short (:class:`KnockPolicy`). All three were fitted by
self-play, per preset and number of players, by ``benchmarks/fit_policy.py``; the engine ships
its output as ``policy_thresholds.json`` (:func:`knock_policy`). In the race to 31 it plays the
exact solver's move (:func:`race_move`).

>>> from thirtyone.game import new_game, legal_moves
>>> state = new_game("scat", 2, seed=2, dealer=0)
>>> judge = Judge.of_state(state)
>>> len(judge.values(legal_moves(state))) == len(legal_moves(state))
True
"""

from __future__ import annotations

import bisect
import functools
import json
import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from itertools import combinations
from typing import Any, TypeVar

from thirtyone.cards import DECKS, Card, parse_card
from thirtyone.game import GameState
from thirtyone.game.racing import GOAL
from thirtyone.hands import HAND_SIZE, Evaluator, evaluator
from thirtyone.race import solve
from thirtyone.rules import Family, Rules, Settlement, make_rules

Move = Mapping[str, Any]
MoveT = TypeVar("MoveT", bound=Mapping[str, Any])
"""A move of the caller's type (the engine's :data:`~thirtyone.game.Move` union, or plain data)."""

STAND_AT = 20
"""In its last turn after a knock, the policy keeps a hand worth this much."""
DECLARE_AT = 28
"""The policy declares (schnautz) a hand worth this much."""
DEFAULT_KNOCK = (25, 25, 25, 25, 25, 24, 23, 22, 21)
"""Knock thresholds by turns each, for a preset and player count the fit did not cover: the
policy's former rule (25, one point less per turn each after the fourth)."""
SURE = 200.0
"""The value of a move that makes a 31 at once from face-up cards: above every other."""
KNOCK = 100.0
"""The value of a knock (or declaration) the threshold allows: above any hand's points."""


LIVES_BUCKETS = 4
"""The knock threshold's adjustment by the acting seat's own lives left (lives games only):
one for each of 0 (a free ride, or swimming: its next loss puts it out), 1, 2, and 3 or more
lives."""
SHORT_STOCK_DRAWS = 3
"""The draw family's stock is short when it holds fewer cards than this many draws each: the
round soon ends by the stock (void, a showdown, or a turned pile, as the rules say)."""
SHORT_STOCK_RENEWALS = 2
"""The widow family's stock (which only renews the table, three cards at a time) is short
when it holds fewer than this many renewals: a round of passes soon brings the showdown."""


@dataclass(frozen=True, slots=True)
class KnockPolicy:
    """When the policy knocks: a threshold by the count of turns each played so far
    (``by_turn``, the last one holding from then on), plus in a lives game an adjustment by
    the acting seat's lives left (``by_lives``, one per bucket of :data:`LIVES_BUCKETS`,
    none when empty), plus ``short_stock`` when the stock is short (:func:`short_stock`)."""

    by_turn: tuple[float, ...]
    by_lives: tuple[float, ...] = ()
    short_stock: float = 0.0

    def threshold(self, rules: Rules, players: int, turns: int, lives: int | None = None,
                  stock: int | None = None) -> float:
        """The points to knock with after ``turns`` turns of the round (all seats), for a
        seat with ``lives`` lives left and ``stock`` cards in the stock (``None``: unknown,
        no adjustment)."""
        table = self.by_turn
        value = table[min(turns // max(players, 1), len(table) - 1)]
        if lives is not None and self.by_lives and rules.settlement == Settlement.LIVES:
            value += self.by_lives[min(max(lives, 0), len(self.by_lives) - 1)]
        if stock is not None and self.short_stock and short_stock(rules, players, stock):
            value += self.short_stock
        return value


def short_stock(rules: Rules, players: int, stock: int) -> bool:
    """Whether a stock of ``stock`` cards is short: the round soon ends by it (see
    :data:`SHORT_STOCK_DRAWS`, :data:`SHORT_STOCK_RENEWALS`); never in other families."""
    if rules.family == Family.DRAW:
        return stock < SHORT_STOCK_DRAWS * max(players, 1)
    if rules.family == Family.WIDOW:
        return stock < SHORT_STOCK_RENEWALS * HAND_SIZE
    return False


DEFAULT_POLICY = KnockPolicy(DEFAULT_KNOCK)
"""The knock policy of a preset and player count the fit did not cover: the former rule,
with no adjustment."""


@functools.cache
def _fitted() -> dict[str, Any]:
    text = resources.files("thirtyone").joinpath("policy_thresholds.json").read_text()
    data: dict[str, Any] = json.loads(text)
    return data


@functools.cache
def knock_policy(variant: str, players: int) -> KnockPolicy:
    """The knock policy fitted for the preset ``variant`` and ``players`` seats (a preset
    played with changed options keeps its preset's fit), else :data:`DEFAULT_POLICY`."""
    data = _fitted()
    key = str(players)
    by_turn = data["thresholds"].get(variant, {}).get(key)
    if not by_turn:
        return DEFAULT_POLICY
    return KnockPolicy(
        by_turn=tuple(by_turn),
        by_lives=tuple(data.get("lives", {}).get(variant, {}).get(key, ())),
        short_stock=float(data.get("short_stock", {}).get(variant, {}).get(key, 0.0)),
    )


def knock_threshold(rules: Rules, players: int, turns: int, lives: int | None = None,
                    stock: int | None = None) -> float:
    """The points the policy knocks with after ``turns`` turns of the round (all seats), for
    a seat with ``lives`` lives left and ``stock`` cards left in the stock (the one rule:
    :meth:`KnockPolicy.threshold` of the fitted :func:`knock_policy`)."""
    return knock_policy(rules.variant, players).threshold(rules, players, turns, lives, stock)


def knock_model(rules: Rules, players: int, turns: int, lives: int | None = None,
                stock: int | None = None) -> float:
    """The least a seat that knocked after ``turns`` turns, with ``lives`` lives left and
    ``stock`` cards in the stock (``None``: unknown, as the stock at a past knock is), is taken
    to hold (the worlds' knock model): the policy's threshold, but never above the former
    rule's (:data:`DEFAULT_KNOCK`): a fitted policy that knocks only with 31 (a blitz ends the
    round by itself) says nothing of a seat that did knock, and the seats met play their own
    way."""
    former = DEFAULT_POLICY.threshold(rules, players, turns)
    return min(knock_threshold(rules, players, turns, lives, stock), former)


@dataclass(frozen=True, slots=True)
class Judge:
    """One seat's position as the policy reads it: its hand, the top of the discard pile and
    the table cards it sees (``None`` face down), the phase and the knock threshold now."""

    rules: Rules
    hand: tuple[Card, ...]
    top: Card | None
    table: tuple[Card | None, ...]
    phase: str
    knocked: bool
    knock_at: float
    stand_at: float = STAND_AT

    @classmethod
    def of_state(cls, state: GameState, knock_at: float | None = None) -> Judge:
        """The position of the seat to act in ``state``; the policy still reads only its
        hand and the face-up cards."""
        players = sum(1 for held in state.hands if held) or state.players
        seat = state.seat_to_act
        return cls(
            rules=state.rules, hand=state.hands[seat],
            top=state.discard[-1] if state.discard else None,
            table=tuple(card if up else None
                        for card, up in zip(state.table, state.table_face_up, strict=True)),
            phase=str(state.phase), knocked=state.knocker is not None,
            knock_at=knock_threshold(state.rules, players, state.turns,
                                     state.seats[seat].lives, len(state.stock))
            if knock_at is None else knock_at,
        )

    @classmethod
    def of_view(cls, seen: Mapping[str, Any],
                knock_at: float | Sequence[float] | KnockPolicy | None = None,
                stand_at: float = STAND_AT) -> Judge:
        """The position of the seat of the view ``seen``; ``knock_at`` a threshold, one per
        count of turns each (as :attr:`KnockPolicy.by_turn`, no adjustment), or a whole
        :class:`KnockPolicy`, instead of the fitted one."""
        rules = make_rules(seen["rules"]["variant"], seen["rules"]["options"])
        players = sum(1 for held in seen["hands"] if held) or len(seen["hands"])
        seat = seen["turn"]
        if knock_at is None or isinstance(knock_at, KnockPolicy):
            policy = knock_at or knock_policy(rules.variant, players)
            threshold = policy.threshold(rules, players, seen["turns"],
                                         seen["seats"][seat]["lives"], seen["stock"])
        elif isinstance(knock_at, Sequence):
            threshold = KnockPolicy(tuple(knock_at)).threshold(rules, players, seen["turns"])
        else:
            threshold = knock_at
        return cls(
            rules=rules, hand=tuple(parse_card(code) for code in seen["hands"][seat]),
            top=parse_card(seen["discard"][-1]) if seen["discard"] else None,
            table=tuple(None if code is None else parse_card(code) for code in seen["table"]),
            phase=seen["phase"], knocked=seen["knocker"] is not None,
            knock_at=threshold, stand_at=stand_at,
        )

    def values(self, moves: Sequence[Move]) -> list[float]:
        """How good each move looks (higher is better; ``-inf`` for a move it cannot judge)."""
        score = scorer(self.rules)
        now = best_of(self.hand, score)
        held = {card.code: card for card in self.hand}
        values = []
        exchange = None
        for move in moves:
            value: float | None
            if move["type"] == "exchange" and len(self.hand) == HAND_SIZE:
                # The hot path of the widow games' playouts (up to 19 exchanges a turn): the
                # hand after an exchange is read by its mask, one table lookup.
                exchange = exchange or self._exchange_judge(held)
                value = exchange(move)
            else:
                value = self._judge(move, now, score, held)
            values.append(-math.inf if value is None else value)
        return values

    def _exchange_judge(self, held: Mapping[str, Card]) -> Callable[[Move], float]:
        worth = mask_scorer(self.rules)
        table = self.table
        whole = 0
        for card in self.hand:
            whole |= card.mask
        now = worth(whole)
        unseen = average_hand(self.rules)
        sure = self.rules.ranking != "brag"

        def judge(move: Move) -> float:
            mask = whole
            seen = 0
            for position in move["take"]:
                card = table[position]
                if card is not None:
                    mask |= card.mask
                    seen += 1
            if seen < len(move["take"]):
                return unseen if not seen and len(move["take"]) == HAND_SIZE else now - 0.75
            for code in move["give"]:
                mask ^= held[code].mask
            after = worth(mask)
            return SURE if sure and after >= GOAL else after
        return judge

    def choose(self, moves: Sequence[Move], rng: random.Random) -> Move:
        """The move of highest value, ties broken by ``rng``; the solver's in the race."""
        if len(moves) == 1:
            return moves[0]
        values = self.values(moves)
        top = max(values)
        chosen = [move for move, value in zip(moves, values, strict=True) if value == top]
        return chosen[0] if len(chosen) == 1 else rng.choice(chosen)

    def _judge(self, move: Move, now: float, score: Callable[[Any], float],
               held: Mapping[str, Card]) -> float | None:
        kind = move["type"]
        hand = self.hand
        if kind == "discard":
            card = held[move["card"]]
            return score([other for other in hand if other is not card])
        if kind == "knock":
            return KNOCK if now >= self.knock_at else None
        if kind == "pass" and self.phase == "exchange":
            # Schwimmen's pass keeps the hand: a stand after a knock; before one, worth what
            # the hand is worth, so preferred to an exchange that gains nothing.
            if not self.knocked:
                return now
            kind = "stand"
        if kind == "stand":
            return 50.0 if now >= self.stand_at else now - 2
        if kind == "draw":
            if move["source"] == "discard" and self.top is not None:
                after = best_of([*hand, self.top], score)
                if self._sure(after):
                    return SURE
                return after if after > now else now - 1
            return now - 0.5
        if kind == "exchange":
            taken = [self.table[position] for position in move["take"]]
            if all(card is None for card in taken) and len(taken) == HAND_SIZE:
                return average_hand(self.rules)  # a whole hand taken unseen
            if None in taken:
                return now - 0.75
            given = [held[code] for code in move["give"]]
            after = score([*(card for card in hand if card not in given), *taken])
            return SURE if self._sure(after) else after
        if kind == "swap_hand":
            first = move["hand"] * HAND_SIZE
            cards = self.table[first:first + HAND_SIZE]
            if None in cards:
                return None
            after = score(cards)
            return SURE if self._sure(after) else after
        if kind == "keep":
            first = move["hand"] * HAND_SIZE
            return score(hand[first:first + HAND_SIZE])
        if kind == "declare":
            return KNOCK if now >= DECLARE_AT else None
        if kind == "pass" and self.phase != "join":
            return now - 0.25
        if kind == "reveal":
            return now
        return None

    def _sure(self, value: float) -> bool:
        return value >= GOAL and self.rules.ranking != "brag"


def race_move(discard: Sequence[Card | str], moves: Sequence[MoveT]) -> MoveT:
    """The race to 31 by the exact solver: a winning card when there is one; in a lost
    position, the first move (every move loses against perfect play)."""
    winning = set(solve(discard).winning_cards)
    for move in moves:
        if move.get("card") in winning:
            return move
    return moves[0]


def playout_move(state: GameState, moves: Sequence[Move], rng: random.Random,
                 hurry: bool = False) -> Move:
    """The policy's move for the seat to act in ``state`` (a world of the advice); with
    ``hurry`` it knocks at its first chance (a playout past its horizon)."""
    if len(moves) == 1:
        return moves[0]
    if moves[0]["type"] == "take":
        return race_move(state.discard, moves)
    return Judge.of_state(state, knock_at=-math.inf if hurry else None).choose(moves, rng)


def best_of(cards: Sequence[Card], score: Callable[[Any], float]) -> float:
    """The value of the best three of ``cards`` (three or more)."""
    if len(cards) == HAND_SIZE:
        return score(cards)
    return max(score(trio) for trio in combinations(cards, HAND_SIZE))


@functools.lru_cache(maxsize=64)
def scorer(rules: Rules) -> Callable[[Any], float]:
    """What a hand is worth to the policy: its points, or under the brag ranking (where
    points say nothing) 31 times the share of hands it beats."""
    judge = evaluator(rules)
    score = judge.score
    if rules.ranking != "brag":
        return lambda cards: score(cards).points
    worth = _brag_worth(judge)
    return lambda cards: worth[score(cards).strength]


@functools.lru_cache(maxsize=64)
def mask_scorer(rules: Rules) -> Callable[[int], float]:
    """:func:`scorer` for a hand given as the OR of its three cards' masks."""
    judge = evaluator(rules)
    table = judge.table
    if rules.ranking != "brag":
        return lambda mask: table[mask].points
    worth = _brag_worth(judge)
    return lambda mask: worth[table[mask].strength]


@functools.lru_cache(maxsize=16)
def average_hand(rules: Rules) -> float:
    """What a hand dealt at random is worth to the policy, on average: estimated from a
    fixed sample of hands, as scoring tables are filled only as hands are asked for and a
    whole table would cost a request a third of a second."""
    if rules.ranking == "brag":
        return GOAL / 2
    score = evaluator(rules).score
    cards = list(DECKS[rules.deck].cards)
    sample = random.Random("average hand")
    return math.fsum(score(sample.sample(cards, HAND_SIZE)).points
                     for _ in range(_AVERAGE_SAMPLE)) / _AVERAGE_SAMPLE


_AVERAGE_SAMPLE = 2_000


@functools.lru_cache(maxsize=4)
def _brag_worth(judge: Evaluator) -> dict[int, float]:
    # Every hand of the deck is scored (once per rule set: the result is cached).
    strengths = sorted(judge.score(trio).strength
                       for trio in combinations(judge.deck.cards, HAND_SIZE))
    count = len(strengths)
    return {strength: GOAL * bisect.bisect_left(strengths, strength) / count
            for strength in set(strengths)}
