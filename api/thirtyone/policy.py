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
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from itertools import combinations
from typing import Any, TypeVar

from thirtyone.cards import DECKS, Card, parse_card
from thirtyone.game import GameState
from thirtyone.game.operations import OPERATIONS, MoveReader, Take, is_move
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
        judging = _Judging(self)
        readings: dict[str, Callable[[Move], float | None]] = {}
        values = []
        for move in moves:
            kind = move["type"]
            read = readings.get(kind)
            if read is None:
                # Each type's reading looked up once: widow turns judge up to 19 exchanges.
                read = readings[kind] = OPERATIONS[kind].reading(judging)
            value = read(move)
            values.append(-math.inf if value is None else value)
        return values

    def exchange_judge(self, held: Mapping[str, Card]) -> Callable[[Move], float]:
        """The value of an exchange from a hand of three, read by the masks of its cards."""
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

    def sure(self, value: float) -> bool:
        """Whether a hand worth ``value`` is a sure 31 (points say so; brag's do not)."""
        return value >= GOAL and self.rules.ranking != "brag"


class _Judging(MoveReader[float | None]):
    """The policy's value of each move type for one position (:meth:`Judge.values`), ``None``
    for a move it does not judge."""

    __slots__ = ("_discards", "hand", "held", "judge", "now", "score", "worth")

    def __init__(self, judge: Judge) -> None:
        self.judge = judge
        self.hand = judge.hand
        # Both scorers at once: looking one up hashes the whole rule set.
        self.score, self.worth = scorers(judge.rules)
        self.now = best_of(judge.hand, self.score)
        self.held = {card.code: card for card in judge.hand}
        self._discards: dict[str, float] | None = None

    def other(self, move: Move) -> float | None:
        return None

    def discard(self, move: Move) -> float | None:
        if self._discards is None:
            # Every discard at once, on the first: the hand's mask and scorer are read once.
            whole = 0
            for card in self.hand:
                whole |= card.mask
            values = discard_values(self.worth, whole, self.hand)
            self._discards = {card.code: value for card, value in zip(self.hand, values,
                                                                       strict=True)}
        return self._discards[move["card"]]

    def knock(self, move: Move) -> float | None:
        return KNOCK if self.now >= self.judge.knock_at else None

    def stand(self, move: Move) -> float | None:
        return 50.0 if self.now >= self.judge.stand_at else self.now - 2

    def draw(self, move: Move) -> float | None:
        judge, now = self.judge, self.now
        if move["source"] == "discard" and judge.top is not None:
            after = best_of([*self.hand, judge.top], self.score)
            if judge.sure(after):
                return SURE
            return after if after > now else now - 1
        return now - 0.5

    @property
    def exchange(self) -> Callable[[Move], float | None]:
        """The reading of an exchange (a property: :meth:`Judge.values` reads it once per
        position). From a hand of three, the hot path of the widow games' playouts (up to 19
        exchanges a turn), the hand after an exchange is read by its mask, one table
        lookup."""
        if len(self.hand) == HAND_SIZE:
            return self.judge.exchange_judge(self.held)
        return self._exchange_unseen

    def _exchange_unseen(self, move: Move) -> float | None:
        """An exchange from a hand of another size than three."""
        judge = self.judge
        taken = [judge.table[position] for position in move["take"]]
        if all(card is None for card in taken) and len(taken) == HAND_SIZE:
            return average_hand(judge.rules)  # a whole hand taken unseen
        if None in taken:
            return self.now - 0.75
        given = [self.held[code] for code in move["give"]]
        after = self.score([*(card for card in self.hand if card not in given), *taken])
        return SURE if judge.sure(after) else after

    def swap_hand(self, move: Move) -> float | None:
        first = move["hand"] * HAND_SIZE
        cards = self.judge.table[first:first + HAND_SIZE]
        if None in cards:
            return None
        after = self.score(cards)
        return SURE if self.judge.sure(after) else after

    def keep(self, move: Move) -> float | None:
        first = move["hand"] * HAND_SIZE
        return self.score(self.hand[first:first + HAND_SIZE])

    def declare(self, move: Move) -> float | None:
        return KNOCK if self.now >= DECLARE_AT else None

    def pass_(self, move: Move) -> float | None:
        phase = self.judge.phase
        if phase == "exchange":
            # Schwimmen's pass keeps the hand: a stand after a knock; before one, worth what
            # the hand is worth, so preferred to an exchange that gains nothing.
            return self.stand(move) if self.judge.knocked else self.now
        if phase == "join":
            return None
        return self.now - 0.25

    def reveal(self, move: Move) -> float | None:
        return self.now


def discard_values(worth: Callable[[int], float], whole: int,
                   cards: Iterable[Card]) -> list[float]:
    """The policy's discard rule, on card masks: each of ``cards`` discarded from the hand
    whose cards' masks OR to ``whole`` is worth the hand the other cards make (``worth``:
    :func:`mask_scorer`), so the policy discards the card whose loss leaves the best hand.
    The judge, the playouts' shortcut (:mod:`thirtyone.playout`) and the worlds' check of the
    discards seen (:mod:`thirtyone.worlds`) all read it here."""
    return [worth(whole ^ card.mask) for card in cards]


def race_move(discard: Sequence[Card | str], moves: Sequence[MoveT]) -> MoveT:
    """The race to 31 by the exact solver: a winning card when there is one; in a lost
    position, the first move (every move loses against perfect play)."""
    winning = set(solve(discard).winning_cards)
    for move in moves:
        if move.get("card") in winning:
            return move
    return moves[0]


def forced_move(discard: Sequence[Card | str], moves: Sequence[MoveT]) -> MoveT | None:
    """The move that needs no judging, if there is one: the only legal move, or a race to
    31's, chosen by the exact solver from the ``discard`` pile. Every player (the bots, the
    playouts) takes it before any judging."""
    if len(moves) == 1:
        return moves[0]
    if is_move(moves[0], Take):
        return race_move(discard, moves)
    return None


def playout_move(state: GameState, moves: Sequence[Move], rng: random.Random,
                 hurry: bool = False) -> Move:
    """The policy's move for the seat to act in ``state`` (a world of the advice); with
    ``hurry`` it knocks at its first chance (a playout past its horizon)."""
    if (forced := forced_move(state.discard, moves)) is not None:
        return forced
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
def scorers(rules: Rules) -> tuple[Callable[[Any], float], Callable[[int], float]]:
    """:func:`scorer` and :func:`mask_scorer` of ``rules``, found with one look-up."""
    return scorer(rules), mask_scorer(rules)


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
