"""Playouts: a round played to its end by the judging policy (:mod:`thirtyone.policy`) for
every seat, as the advice values a move (:mod:`thirtyone.advice`).

In the draw family (Scat and its kin) a playout has no horizon: it plays on until the round
ends by itself (a knock and its final turns, a blitz, the stock running out, ``max_turns``),
so that going on is valued as what it is; a horizon that settles the round after a few turns
makes an early knock look as good as going on, where the real round goes on to a 31 (in
two-player Scat the fitted policy knocks only with 31 and a round lasts forty turns). An
engine move costs tens of microseconds, so the draw family's plain turns are played by
:func:`_plain_turns` on the cards alone: draw from the stock or the discard pile, then
discard, with the policy's very values and tie-breaks (the same moves as
:func:`~thirtyone.policy.playout_move`, the same draws from ``policy``), six times faster. Any
turn that is not plain (the policy knocks, the hand would show a blitz, the stock runs short,
the turn limit nears, a knock was made) is left to the engine, which settles the round by its
rules.

The other families' turns judge up to 25 exchanges each; there the policy knocks early (at 21
to 25 points), and past :data:`HORIZON` turns each the next seat that may knock does, which
bounds the rare long round (Trentuno, with no plain knock, plays to its end). The widow
family's plain exchanges (a face-up table, no knock yet, nothing but exchanges and the pass)
are played on the cards alone as well (:func:`_exchange_turns`), each exchange judged by its
hand's mask, in the engine's order of moves so that ties are drawn alike; the knock, its final
turns, a renewed table and the showdown are the engine's. A test compares both kinds of
shortcut with the engine's own rounds, move for move.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from itertools import combinations
from typing import Any

from thirtyone.cards import Card
from thirtyone.game import GameState, Phase, apply_move, legal_moves
from thirtyone.game.exchange import exchange_sizes
from thirtyone.game.racing import GOAL
from thirtyone.game.state import HISTORY_LIMIT
from thirtyone.game.widow import (
    WIDOW_SIZE,
    WidowPhase,
    next_player,
    passes_in_a_row,
)
from thirtyone.hands import HAND_SIZE, HandScore, evaluator
from thirtyone.policy import SURE, discard_values, knock_threshold, mask_scorer, playout_move
from thirtyone.rules import Family, Rules

_ROUND_ENDED = frozenset({Phase.ROUND_OVER, Phase.GAME_OVER})
MaskScorer = Callable[[int], float]
"""A hand's worth to the policy, the hand given as the OR of its cards' masks
(:func:`~thirtyone.policy.mask_scorer`)."""
HORIZON = 3
"""Turns each a playout outside the draw family plays by the policy before it knocks at the
first chance (see the module docstring)."""


def play_out(state: GameState, policy: random.Random) -> GameState:
    """Play the round of ``state`` to its end with the policy for every seat."""
    rules = state.rules
    plain = rules.family == Family.DRAW
    exchanges = plain_exchanges(rules)
    horizon = math.inf if plain else \
        state.turns + HORIZON * max(1, sum(1 for held in state.hands if held))
    while state.phase not in _ROUND_ENDED:
        if plain and state.phase == Phase.DRAW and state.knocker is None and not state.table:
            state = _plain_turns(state, policy)
            if state.phase in _ROUND_ENDED:
                break
        elif (exchanges and state.phase == WidowPhase.EXCHANGE and state.knocker is None
              and all(state.table_face_up) and len(state.table) == WIDOW_SIZE):
            state = _exchange_turns(state, policy, horizon)
        state, _ = apply_move(state, playout_move(state, legal_moves(state), policy,
                                                  hurry=state.turns >= horizon))
    return state


def _plain_turns(state: GameState, policy: random.Random) -> GameState:
    """Play the plain turns of the draw family from ``state`` (a seat to draw, no knock yet),
    and give back the state at the first turn that is not plain, for the engine to play."""
    rules = state.rules
    worth = mask_scorer(rules)
    table = evaluator(rules).table
    last_turn = rules.max_turns - 1
    players = sum(1 for held in state.hands if held) or state.players
    lives = [standing.lives for standing in state.seats]
    hands = list(state.hands)
    stock, discard = state.stock, list(state.discard)
    drawn = 0
    seat = state.seat_to_act
    turns = state.turns
    while len(stock) - drawn >= 2 and discard and turns < last_turn:
        hand = hands[seat]
        first, second, third = hand
        mask = first.mask | second.mask | third.mask
        now = worth(mask)
        if now >= knock_threshold(rules, players, turns, lives[seat], len(stock) - drawn):
            break  # the policy knocks, if the rules let it: the engine knows
        pickup = _plain_draw(rules, worth, hand, mask, now, discard[-1])
        card = stock[drawn] if pickup is None else pickup
        held = (*hand, card)
        chosen = _plain_discards(rules, worth, table, held, mask | card.mask, pickup)
        if chosen is None:
            break  # a blitz ends the round: the engine settles it
        if pickup is None:
            drawn += 1
        else:
            discard.pop()
        out = chosen[0] if len(chosen) == 1 else policy.choice(chosen)
        hands[seat] = tuple(other for other in held if other is not out)
        discard.append(out)
        turns += 1
        seat = state.next_active(seat)
    if turns == state.turns:
        return state
    return state.evolve(hands=tuple(hands), stock=stock[drawn:], discard=tuple(discard),
                        turn=seat, turns=turns, pickup=None)


def _plain_draw(rules: Rules, worth: MaskScorer, hand: Sequence[Card], mask: int, now: float,
                top: Card) -> Card | None:
    """The policy's draw (``Judge._judge``) by a seat holding ``hand`` (``mask``, worth
    ``now``): the discard pile's ``top`` when it makes a better hand (of the best three of
    four), else ``None`` for the stock; never a tie between the two."""
    best = max(worth(mask ^ card.mask | top.mask) for card in hand)
    return top if (rules.ranking != "brag" and best >= GOAL) or best > now else None


def _plain_discards(rules: Rules, worth: MaskScorer, table: Mapping[int, HandScore],
                    held: Sequence[Card], whole: int, pickup: Card | None) -> list[Card] | None:
    """The policy's discards (:func:`~thirtyone.policy.discard_values`) from the four cards
    ``held`` (``whole``, the OR of their masks) after drawing ``pickup`` (``None`` from the
    stock), out of the hand scores ``table``: every card of the best
    value, in hand order, among which ``Judge.choose`` draws; ``None`` when the discard ends
    the round (a sure 31 or a blitz), which is the engine's to settle."""
    options = [card for card in held if rules.may_discard_pickup or card is not pickup]
    values = discard_values(worth, whole, options)
    top_value = max(values)
    chosen = [card for card, value in zip(options, values, strict=True) if value == top_value]
    if (rules.ranking != "brag" and top_value >= GOAL) or any(
            table[whole ^ card.mask].is_blitz for card in chosen):
        return None
    return chosen


def plain_exchanges(rules: Rules) -> bool:
    """Whether the widow family's turns under ``rules`` may be played by
    :func:`_exchange_turns`: exchanges with a face-up table, a plain knock and nothing else
    (no declaration, no close after an exchange)."""
    return (rules.family == Family.WIDOW and rules.knock == "plain"
            and not rules.declarations and not rules.close_after_exchange
            and rules.widow_discards == "face-up")


def _exchange_turns(state: GameState, policy: random.Random, horizon: float) -> GameState:
    """Play the plain exchange turns of the widow family from ``state`` (a seat to exchange,
    no knock yet, the table face up), and give back the state at the first turn that is not
    plain, for the engine to play.

    A plain turn is the policy's exchange or pass (:meth:`~thirtyone.policy.Judge.values`:
    an exchange is worth the hand it makes, a pass the hand kept), ties drawn from ``policy``
    among the legal moves in the engine's order. Left to the engine: a turn in which the
    policy knocks (or, past ``horizon``, hurries to), a move that would end the round (a 31,
    a blitz) or complete a round of passes (the table renewed), and the last turns before
    ``max_turns``; it checks nothing else, so the seats' public knowledge is left as it was
    (a playout's end is read for its settlement only).
    """
    rules = state.rules
    worth = mask_scorer(rules)
    table_of = evaluator(rules).table
    players = sum(1 for held in state.hands if held) or state.players
    lives = [standing.lives for standing in state.seats]
    stock = len(state.stock)
    last_turn = min(rules.max_turns - 1, horizon)
    hands = list(state.hands)
    table = list(state.table)
    history = list(state.history)
    passes = passes_in_a_row(state)
    seat = state.seat_to_act
    turns = state.turns
    while turns < last_turn:
        hand = hands[seat]
        if len(hand) != HAND_SIZE:
            break
        mask = 0
        for card in hand:
            mask |= card.mask
        now = worth(mask)
        if now >= knock_threshold(rules, players, turns, lives[seat], stock):
            break  # the policy knocks, if the rules let it: the engine knows
        options, values = plain_moves(rules, hand, mask, table)
        top = max(values)
        chosen = [option for option, value in zip(options, values, strict=True)
                  if value == top]
        if any(_ends_round(option, mask, table, table_of, passes, players)
               for option in chosen):
            break  # a 31, a blitz or a renewed table: the engine settles it
        option = chosen[0] if len(chosen) == 1 else policy.choice(chosen)
        hands[seat] = _exchanged(seat, hand, option, table, history)
        passes = passes + 1 if option is None else 0
        turns += 1
        seat = next_player(state, seat)
    if turns == state.turns:
        return state
    return state.evolve(hands=tuple(hands), table=tuple(table), turn=seat, turns=turns,
                        history=tuple(history[-HISTORY_LIMIT:]))


Exchange = tuple[tuple[Card, ...], tuple[int, ...]]
"""A plain move of :func:`plain_moves`: the cards given and the table positions taken."""


def _exchanged(seat: int, hand: tuple[Card, ...], option: Exchange | None, table: list[Card],
               history: list[Mapping[str, Any]]) -> tuple[Card, ...]:
    """The hand of ``seat`` after its plain move ``option`` (``None``: the pass) from
    ``hand``, the ``table`` changed and the move added to ``history`` in place."""
    if option is None:
        history.append({"seat": seat, "type": "pass"})
        return hand
    give, take = option
    taken = [table[position] for position in take]
    for card, position in zip(give, take, strict=True):
        table[position] = card
    history.append({"seat": seat, "type": "exchange",
                    "give": [card.code for card in give], "take": list(take)})
    return (*(card for card in hand if card not in give), *taken)


def plain_moves(rules: Rules, hand: Sequence[Card], mask: int,
                table: Sequence[Card]) -> tuple[list[Exchange | None], list[float]]:
    """The plain moves of a seat holding ``hand`` (``mask``, the OR of its cards) at the
    face-up ``table`` before any knock, in the engine's order (every exchange by size, the
    cards given and the positions taken, then the pass where the rules allow it; ``None``),
    and the policy's value of each (:meth:`~thirtyone.policy.Judge.values`: the hand an
    exchange makes, a sure 31 above all, the hand kept by a pass). The knock is left out: a
    seat below the threshold does not knock."""
    worth = mask_scorer(rules)
    sure = rules.ranking != "brag"
    options: list[Exchange | None] = []
    values: list[float] = []
    for size in exchange_sizes(rules):
        for give in combinations(hand, size):
            given = 0
            for card in give:
                given |= card.mask
            for take in combinations(range(WIDOW_SIZE), size):
                after = mask ^ given
                for position in take:
                    after |= table[position].mask
                options.append((give, take))
                value = worth(after)
                values.append(SURE if sure and value >= GOAL else value)
    if rules.may_pass:
        options.append(None)
        values.append(worth(mask))
    return options, values


def _ends_round(option: Exchange | None, mask: int, table: list[Card],
                table_of: Mapping[int, HandScore], passes: int, players: int) -> bool:
    """Whether the exchange ``option`` (``None``: the pass) may end the round or renew the
    table, so that the engine must play it."""
    if option is None:
        return (passes + 1) % players == 0
    give, take = option
    for card in give:
        mask ^= card.mask
    for position in take:
        mask |= table[position].mask
    score = table_of[mask]
    return score.is_blitz or score.points >= GOAL
