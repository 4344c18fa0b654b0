"""Move advice: what each legal move is worth to one seat, from what that seat may see.

:func:`advise` reads only the seat's :func:`~thirtyone.game.view` of the state. It deals the
cards the seat cannot see (the other hands, the stock, face-down table cards, cards out of
play) at random, consistently with what the seat saw this round: a card another seat took
from the discard pile or from the face-up table is in that seat's hand until it gives it away,
and a recycled stock holds the discard pile it was turned over from, in order. In each of these
worlds every legal move is played, then the round is played out by a fixed policy
(:func:`playout_move`) for every seat; the same worlds serve every move, so the moves are
compared on equal cards. What a round is worth depends on the match (:func:`measure_of`):

- ``survival``, lives games: the chance of losing no life this round;
- ``chips``, pot games: the chips won (or lost, when negative) by the end of the deal;
- ``points``, points games: the points scored this round;
- ``win``, the race to 31: the chance of winning.

The advice is the same for the same view, ``samples`` and ``seed``.

>>> from thirtyone.game import new_game
>>> state = new_game("scat", 2, seed=3, dealer=0)
>>> advice = advise(state, 1, samples=20, seed=1)
>>> advice.measure, advice.samples, [entry.move["type"] for entry in advice.moves]
('survival', 20, ['draw', 'draw', 'knock'])
>>> 0 <= advice.best.value <= 1
True
"""

from __future__ import annotations

import bisect
import functools
import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from thirtyone.cards import DECKS, Card, parse_card
from thirtyone.errors import N_, StateError
from thirtyone.game import GameState, Phase, Seat, apply_move, legal_moves, view
from thirtyone.game.racing import GOAL
from thirtyone.hands import HAND_SIZE, Evaluator, evaluator
from thirtyone.rules import Family, Rules, Settlement, make_rules

Move = Mapping[str, Any]
"""A move as the advice reads it: any move of :data:`thirtyone.game.Move`, or one from a view."""

MEASURES: dict[Settlement, str] = {
    Settlement.LIVES: "survival",
    Settlement.POT: "chips",
    Settlement.ESCALATING: "chips",
    Settlement.POINTS: "points",
    Settlement.NONE: "win",
}
"""What a move's value counts, by the match's settlement (see the module docstring)."""

KNOCK_AT = 25
"""The playout policy knocks with this many points or more."""
STAND_AT = 20
"""In its last turn after a knock, the playout policy keeps a hand worth this much."""
DECLARE_AT = 28
"""The playout policy declares (schnautz) a hand worth this much."""
KNOCKER_TRIES = 40
"""Deals tried for a knocker's hidden cards, looking for a hand worth a knock."""
MAX_CHOICE = 4
"""The most extra cards a seat's hidden cards are chosen from (see :meth:`WorldDealer._hand`)."""
LONG_ROUND = 4
"""After this many turns each, the playout policy knocks with one point less per turn each."""

_ROUND_ENDED = frozenset({Phase.ROUND_OVER, Phase.GAME_OVER})


@dataclass(frozen=True, slots=True)
class MoveValue:
    """One legal move, the mean of what it was worth over the samples, and the standard
    error of that mean."""

    move: Move
    value: float
    stderr: float

    def to_dict(self) -> dict[str, Any]:
        return {"move": dict(self.move), "value": self.value, "stderr": self.stderr}


@dataclass(frozen=True, slots=True)
class Advice:
    """The advice for ``seat``: every legal move (in :func:`~thirtyone.game.legal_moves`
    order, or the moves asked about) with its value in ``measure``, over ``samples`` worlds."""

    seat: int
    measure: str
    samples: int
    moves: tuple[MoveValue, ...]

    @property
    def best(self) -> MoveValue:
        """The move of highest value (the first of equal ones)."""
        return max(self.moves, key=lambda entry: entry.value)

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "measure": self.measure, "samples": self.samples,
                "moves": [entry.to_dict() for entry in self.moves]}


def measure_of(rules: Rules) -> str:
    """What advice values count under ``rules``: ``survival``, ``chips``, ``points``, ``win``."""
    return MEASURES[rules.settlement]


def advise(state: GameState, seat: int, samples: int = 200, seed: int | str = 0) -> Advice:
    """Every legal move of ``seat`` with its value, from ``seat``'s view of ``state`` only.

    ``samples`` worlds are dealt from the seed; a :class:`~thirtyone.errors.StateError` says
    when it is not ``seat``'s turn.
    """
    return advise_view(view(state, seat), samples=samples, seed=seed)


def advise_view(seen: Mapping[str, Any], samples: int = 200, seed: int | str = 0, *,
                moves: Sequence[Move] | None = None,
                deadline: float | None = None) -> Advice:
    """:func:`advise` from a seat's view ``seen``; only ``moves`` when given (legal ones).

    With a ``deadline`` (a :func:`time.perf_counter` value) sampling stops early once it has
    passed, after at least one world: the advice then counts fewer ``samples``.
    """
    seat = seen["seat"]
    if seat is None or seen["turn"] != seat or seen["phase"] in _ROUND_ENDED:
        raise StateError("not_your_turn", N_("seat {seat} has no move to make now"),
                         field="seat", seat=seat)
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
        raise StateError("bad_samples", N_("the number of samples must be a positive whole "
                                           "number"), field="samples", samples=samples)
    measure, candidates, values = sample_values(seen, samples, seed, moves=moves,
                                                deadline=deadline)
    return Advice(seat, measure, len(values[0]), tuple(
        MoveValue(dict(move), *_mean_and_error(worlds))
        for move, worlds in zip(candidates, values, strict=True)
    ))


def sample_values(seen: Mapping[str, Any], samples: int, seed: int | str, *,
                  moves: Sequence[Move] | None = None, deadline: float | None = None,
                  measure: str | None = None) -> tuple[str, list[Move], list[list[float]]]:
    """The measure, the moves (the legal ones unless ``moves`` are given), and for each move
    its value in each world dealt: the same worlds in the same order for every move, so two
    moves can be compared world by world. Arguments as for :func:`advise_view`; ``measure``
    may ask for ``lives`` in a lives game: the lives the other seats lost on average, minus
    the seat's own (a knocker losing two lives, or an opponent, counts as such)."""
    deal = WorldDealer(seen)
    first = deal(random.Random(f"advice:{seed}:world:0"))
    candidates: list[Move] = list(moves) if moves is not None else list(legal_moves(first))
    measure = measure or measure_of(first.rules)
    worth = _worth(measure, seen["seat"], first)
    totals: list[list[float]] = [[] for _ in candidates]
    world = first
    dealt = 0
    while dealt < samples:
        if dealt:
            if deadline is not None and time.perf_counter() > deadline:
                break
            world = deal(random.Random(f"advice:{seed}:world:{dealt}"))
        for index, move in enumerate(candidates):
            policy = random.Random(f"advice:{seed}:play:{dealt}")
            after, _ = apply_move(world, move)
            totals[index].append(worth(play_out(after, policy)))
        dealt += 1
    return measure, candidates, totals


def _mean_and_error(values: Sequence[float]) -> tuple[float, float]:
    count = len(values)
    mean = math.fsum(values) / count
    if count < 2:
        return mean, 0.0
    variance = math.fsum((value - mean) ** 2 for value in values) / (count - 1)
    return mean, math.sqrt(variance / count)


def _worth(measure: str, seat: int, before: GameState) -> Callable[[GameState], float]:
    """What a round played out to its end was worth to ``seat`` in ``measure``."""
    if measure == "lives":
        others = [other for other in before.active_seats if other != seat]

        def lives(after: GameState) -> float:
            result = after.result or {}
            lost = result.get("lives_lost") or [0] * after.players
            out = result.get("eliminated", ())
            mine = lost[seat] + (seat in out)
            theirs = sum(lost[other] + (other in out) for other in others)
            return float(theirs / len(others) - mine)
        return lives
    if measure == "survival":
        def survived(after: GameState) -> float:
            result = after.result or {}
            lost = result.get("lives_lost") or ()
            return float(not (lost and lost[seat]) and seat not in result.get("eliminated", ()))
        return survived
    if measure == "points":
        points = before.seats[seat].points
        return lambda after: float(after.seats[seat].points - points)
    if measure == "chips":
        chips = before.seats[seat].chips
        return lambda after: float(after.seats[seat].chips - chips)
    return lambda after: float(seat in after.winners)


def play_out(state: GameState, policy: random.Random) -> GameState:
    """Play the round of ``state`` to its end with :func:`playout_move` for every seat."""
    while state.phase not in _ROUND_ENDED:
        state, _ = apply_move(state, playout_move(state, legal_moves(state), policy))
    return state


# The playout policy

def playout_move(state: GameState, moves: Sequence[Move], policy: random.Random) -> Move:
    """The fixed policy of the playouts: the seat to act keeps the best hand it can see to
    make, knocks at :data:`KNOCK_AT` points, stands at :data:`STAND_AT`; it reads its own hand
    and the face-up cards only, never a hidden card of the world it plays in."""
    if len(moves) == 1:
        return moves[0]
    if moves[0]["type"] == "take":
        return _race_move(state, moves, policy)
    values = judge_moves(state, moves)
    best = max(values)
    chosen = [move for move, value in zip(moves, values, strict=True) if value == best]
    return chosen[0] if len(chosen) == 1 else policy.choice(chosen)


def judge_moves(state: GameState, moves: Sequence[Move]) -> list[float]:
    """How good each move looks to the playout policy (higher is better; ``-inf`` for a move
    it cannot judge), from the acting seat's hand and the face-up cards of ``state``."""
    score = _scorer(state.rules)
    hand = state.hands[state.turn]  # type: ignore[index]
    now = _best(hand, score)
    players = sum(1 for held in state.hands if held)
    # A round where nobody reaches the knocking value would only end at ``max_turns``: the
    # policy settles for less the longer the round lasts.
    knock_at = KNOCK_AT - max(0, state.turns // players - LONG_ROUND)
    values = []
    for move in moves:
        value = _judge(state, move, hand, now, knock_at, score)
        values.append(-math.inf if value is None else value)
    return values


def _judge(state: GameState, move: Move, hand: Sequence[Card], now: float, knock_at: float,
           score: Callable[[Any], float]) -> float | None:
    """How good ``move`` looks to the playout policy (higher is better), ``None`` when it
    cannot tell."""
    kind = move["type"]
    if kind == "discard":
        card = parse_card(move["card"])
        return score([held for held in hand if held is not card])
    if kind == "knock":
        return 100.0 if now >= knock_at else None
    if kind == "stand":
        return 50.0 if now >= STAND_AT else now - 2
    if kind == "draw":
        if move["source"] == "discard":
            gain = _best([*hand, state.discard[-1]], score) - now
            return now + gain if gain > 0 else now - 1
        return now - 0.5
    if kind == "exchange":
        taken = [state.table[position] for position in move["take"]]
        if not any(state.table_face_up[position] for position in move["take"]):
            if len(move["take"]) == HAND_SIZE:
                return _average_hand(state.rules)  # a whole hand taken unseen
            return now - 0.75
        if not all(state.table_face_up[position] for position in move["take"]):
            return now - 0.75
        given = {parse_card(code) for code in move["give"]}
        return score([*(held for held in hand if held not in given), *taken])
    if kind == "swap_hand":
        first = move["hand"] * HAND_SIZE
        if not all(state.table_face_up[first:first + HAND_SIZE]):
            return None
        return score(state.table[first:first + HAND_SIZE])
    if kind == "keep":
        first = move["hand"] * HAND_SIZE
        return score(hand[first:first + HAND_SIZE])
    if kind == "declare":
        return 100.0 if now >= DECLARE_AT else None
    if kind == "pass" and state.phase != "join":
        return now - 0.25
    if kind == "reveal":
        return now
    return None


def _best(cards: Sequence[Card], score: Callable[[Any], float]) -> float:
    if len(cards) == HAND_SIZE:
        return score(cards)
    return max(score(trio) for trio in combinations(cards, HAND_SIZE))


def _scorer(rules: Rules) -> Callable[[Any], float]:
    """What a hand is worth to the playout policy: its points, or under the brag ranking
    (where points say nothing) 31 times the share of hands it beats."""
    judge = evaluator(rules)
    if rules.ranking != "brag":
        score = judge.score
        return lambda cards: score(cards).points
    worth = _brag_worth(judge)
    score = judge.score
    return lambda cards: worth[score(cards).strength]


@functools.lru_cache(maxsize=16)
def _average_hand(rules: Rules) -> float:
    """What a hand dealt at random is worth to the playout policy, on average: estimated
    from a fixed sample of hands, as scoring tables are filled only as hands are asked for
    and a whole table would cost a request a third of a second."""
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


def _race_move(state: GameState, moves: Sequence[Move], policy: random.Random) -> Move:
    """Make 31 when possible, else avoid leaving a card that makes 31."""
    worth = state.rules.deck_cards.value
    total = sum(worth(card) for card in state.discard)
    left = [worth(card) for card in state.table]
    safe = []
    for move in moves:
        value = worth(parse_card(move["card"]))
        if total + value == GOAL:
            return move
        rest = list(left)
        rest.remove(value)
        if GOAL - total - value not in rest:
            safe.append(move)
    return policy.choice(safe or list(moves))


# Worlds consistent with a view

class WorldDealer:
    """Deals worlds consistent with one seat's view: call it with a :class:`random.Random`.

    Built once per view: it reads the rules, the cards the seat sees, and which cards the
    round's moves put in another seat's hand or in a recycled stock; each call deals the rest
    of the deck at random into the places the seat cannot see.
    """

    def __init__(self, seen: Mapping[str, Any]) -> None:
        rules = make_rules(seen["rules"]["variant"], seen["rules"]["options"])
        self.rules = rules
        self.seat: int = seen["seat"]
        self.seen = seen
        self.hands = [[None if code is None else parse_card(code) for code in hand]
                      for hand in seen["hands"]]
        self.discard = tuple(parse_card(code) for code in seen["discard"])
        self.table = [None if code is None else parse_card(code) for code in seen["table"]]
        known, stock, self.choice = _round_knowledge(seen, rules)
        self.knocker: int | None = seen["knocker"]
        self.worth = _scorer(rules)
        visible = {card for hand in self.hands for card in hand if card is not None}
        visible.update(self.discard)
        visible.update(card for card in self.table if card is not None)
        for index, cards in known.items():
            cards -= visible
            if len(cards) > self.hands[index].count(None):
                cards.clear()  # the seat sat out a carried deal: its cards went out of play
        stock = [card for card in stock if card not in visible] if stock is not None else None
        self.known = known
        self.stock = stock
        self.pool = self._pool(visible)
        if len(self.pool) != self._slots():
            # What the moves told did not fit the view (it cannot happen for a state the
            # engine played); deal every hidden card at random instead.
            self.known, self.stock = {}, None
            self.pool = self._pool(visible)
        self.seats = tuple(Seat(**standing) for standing in seen["seats"])
        # The flows read the round's moves (a full round of passes renews the table): the
        # worlds keep them, as the seat saw them, from the deal on.
        self.history = tuple(seen["history"][max(round_start(seen["history"]) - 1, 0):])

    def _pool(self, visible: set[Card]) -> list[Card]:
        placed = set(visible)
        for cards in self.known.values():
            placed |= cards
        if self.stock is not None:
            placed.update(self.stock)
        return [card for card in self.rules.deck_cards.cards if card not in placed]

    def _slots(self) -> int:
        hidden = sum(card is None for hand in self.hands for card in hand)
        hidden -= sum(len(cards) for cards in self.known.values())
        stock = 0 if self.stock is not None else self.seen["stock"]
        return hidden + stock + self.table.count(None) + len(self.seen["out"])

    def __call__(self, rng: random.Random) -> GameState:
        pool = list(self.pool)
        rng.shuffle(pool)
        hands = [self._hand(index, hand, pool, rng) for index, hand in enumerate(self.hands)]
        draw = iter(pool)
        table = tuple(card if card is not None else next(draw) for card in self.table)
        out = tuple(next(draw) for _ in self.seen["out"])
        stock = tuple(self.stock) if self.stock is not None else tuple(draw)
        seen = self.seen
        return GameState(
            rules=self.rules, seed=f"world:{rng.random()}", seats=self.seats,
            dealer=seen["dealer"], round=seen["round"], phase=seen["phase"], turn=seen["turn"],
            turns=seen["turns"], hands=tuple(hands), stock=stock, discard=self.discard,
            table=table, table_face_up=tuple(seen["table_face_up"]), out=out,
            knocker=seen["knocker"], final_turns=seen["final_turns"],
            pickup=None if seen["pickup"] is None else parse_card(seen["pickup"]),
            pot=seen["pot"], result=seen["result"], winners=tuple(seen["winners"]),
            history=self.history,
        )

    def _hand(self, index: int, hand: list[Card | None], pool: list[Card],
              rng: random.Random) -> tuple[Card, ...]:
        """Seat ``index``'s hand in a world: the cards seen, the cards known to be there, and
        cards of the ``pool`` for the rest, taken out of it.

        A seat keeps the best of the cards it saw: each card it took unseen this round gives
        it one more card to choose from, and the cards it did not keep go back into the pool;
        a knocker holds what the playout policy knocks with, when such a hand can be found.
        Random hands would make the other seats weaker than they are.
        """
        known = sorted(self.known.get(index, ()), key=lambda card: card.index)
        hidden = hand.count(None) - len(known)
        if not hidden:
            cards = iter(known)
            return tuple(card if card is not None else next(cards) for card in hand)
        fixed = [card for card in hand if card is not None] + known
        whole = len(fixed) + hidden == HAND_SIZE
        if index == self.knocker and whole:
            kept = self._knocker_cards(fixed, hidden, pool, rng)
        else:
            choice = min(self.choice.get(index, 0), MAX_CHOICE, len(pool) - hidden)
            drawn = [pool.pop() for _ in range(hidden + max(choice, 0))]
            kept = tuple(drawn)
            if choice > 0 and whole:
                kept = max(combinations(drawn, hidden),
                           key=lambda some: self.worth([*fixed, *some]))
                for card in drawn:
                    if card not in kept:
                        pool.insert(rng.randrange(len(pool) + 1), card)
        cards = iter((*known, *kept))
        return tuple(card if card is not None else next(cards) for card in hand)

    def _knocker_cards(self, fixed: list[Card], hidden: int, pool: list[Card],
                       rng: random.Random) -> tuple[Card, ...]:
        """The knocker's hidden cards, taken out of ``pool``: a hand the playout policy would
        knock with when one turns up in :data:`KNOCKER_TRIES` tries, else the best tried."""
        best: tuple[float, list[int]] = (-math.inf, [])
        for _ in range(KNOCKER_TRIES):
            places = rng.sample(range(len(pool)), hidden)
            worth = self.worth([*fixed, *(pool[place] for place in places)])
            if worth > best[0]:
                best = (worth, places)
            if worth >= KNOCK_AT:
                break
        kept = tuple(pool[place] for place in best[1])
        for place in sorted(best[1], reverse=True):
            del pool[place]
        return kept


def round_start(history: Sequence[Mapping[str, Any]]) -> int:
    """Where the moves of the round being played begin in ``history``: after the last
    ``next_round``."""
    return max((index + 1 for index, entry in enumerate(history)
                if entry.get("type") == "next_round"), default=0)


def _round_knowledge(seen: Mapping[str, Any], rules: Rules,
                     ) -> tuple[dict[int, set[Card]], list[Card] | None, dict[int, int]]:
    """Replay the round's moves as the seat saw them: the cards each other seat took from the
    discard pile or from face-up table places (and still holds), the stock when it is a
    turned-over discard pile (its order is then known), and how many cards each other seat
    took unseen (from the stock, face down, or a widow card dealt before the moves).

    The first turned-up card and the widow's first cards are not in the history: a place
    holding one of them is unknown (``None``) until a card given face up lies there.
    """
    seat = seen["seat"]
    history = seen["history"]
    start = round_start(history)
    known: dict[int, set[Card]] = {}
    unseen: dict[int, int] = {}
    if rules.family not in (Family.DRAW, Family.WIDOW):
        return known, None, unseen
    pile: list[Card | None] = [None] if rules.family == Family.DRAW else []
    table: list[Card | None] = [None] * len(seen["table"])
    players = sum(1 for hand in seen["hands"] if hand)
    unseen_stock = len(rules.deck_cards.cards) - HAND_SIZE * players - len(table) - len(pile)
    stock: list[Card | None] | None = None

    def took(who: int, card: Card | None) -> None:
        if who == seat:
            return
        # A card taken from the stock was a choice among more cards; one taken face up was
        # chosen because it went with the cards held.
        unseen[who] = unseen.get(who, 0) + 1
        if card is not None:
            known.setdefault(who, set()).add(card)

    def gave(who: int, card: Card) -> None:
        known.get(who, set()).discard(card)

    for entry in history[start:]:
        who, kind = entry.get("seat"), entry.get("type")
        if kind == "draw" and entry["source"] == "discard" and pile:
            took(who, pile.pop())
        elif kind == "draw":
            if unseen_stock > 0:
                unseen_stock -= 1
                took(who, None)
                continue
            if not stock:
                stock, pile = pile[:-1], pile[-1:]
            took(who, stock.pop(0))
        elif kind == "discard":
            card = parse_card(entry["card"])
            pile.append(card)
            gave(who, card)
        elif kind == "exchange" and len(entry["take"]) <= len(table):
            for code, position in zip(entry["give"], entry["take"], strict=True):
                took(who, table[position])
                given = None if code is None else parse_card(code)
                table[position] = given
                if given is not None:
                    gave(who, given)
    if rules.family == Family.DRAW and not _replayed(pile, stock, unseen_stock, seen):
        # The moves kept do not reach back to the deal (a history cut short): what they say
        # about the discard pile cannot be placed, so the worlds do without it.
        return {}, None, {}
    if stock is not None and None in stock:
        stock = None
    return known, None if stock is None else [card for card in stock if card is not None], unseen


def _replayed(pile: Sequence[Card | None], stock: Sequence[Card | None] | None,
              unseen_stock: int, seen: Mapping[str, Any]) -> bool:
    """Whether a replay of the round's moves ends with the discard pile and the stock the seat
    sees now."""
    discard = [parse_card(code) for code in seen["discard"]]
    stock_left = unseen_stock if stock is None else len(stock)
    return (len(pile) == len(discard) and stock_left == seen["stock"]
            and all(card is None or card is shown for card, shown in zip(pile, discard,
                                                                       strict=True)))
