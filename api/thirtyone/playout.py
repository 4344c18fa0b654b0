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

The other families' turns judge up to 25 exchanges each and have no such shortcut; there the
policy knocks early (at 21 to 25 points), and past :data:`HORIZON` turns each the next seat
that may knock does, which bounds the rare long round (Trentuno, with no plain knock, plays
to its end).
"""

from __future__ import annotations

import math
import random

from thirtyone.game import GameState, Phase, apply_move, legal_moves
from thirtyone.game.racing import GOAL
from thirtyone.hands import evaluator
from thirtyone.policy import knock_threshold, mask_scorer, playout_move
from thirtyone.rules import Family

_ROUND_ENDED = frozenset({Phase.ROUND_OVER, Phase.GAME_OVER})
HORIZON = 3
"""Turns each a playout outside the draw family plays by the policy before it knocks at the
first chance (see the module docstring)."""


def play_out(state: GameState, policy: random.Random) -> GameState:
    """Play the round of ``state`` to its end with the policy for every seat."""
    plain = state.rules.family == Family.DRAW
    horizon = math.inf if plain else \
        state.turns + HORIZON * max(1, sum(1 for held in state.hands if held))
    while state.phase not in _ROUND_ENDED:
        if plain and state.phase == Phase.DRAW and state.knocker is None and not state.table:
            state = _plain_turns(state, policy)
            if state.phase in _ROUND_ENDED:
                break
        state, _ = apply_move(state, playout_move(state, legal_moves(state), policy,
                                                  hurry=state.turns >= horizon))
    return state


def _plain_turns(state: GameState, policy: random.Random) -> GameState:
    """Play the plain turns of the draw family from ``state`` (a seat to draw, no knock yet),
    and give back the state at the first turn that is not plain, for the engine to play."""
    rules = state.rules
    worth = mask_scorer(rules)
    table = evaluator(rules).table
    sure = rules.ranking != "brag"
    keep_pickup = rules.may_discard_pickup
    last_turn = rules.max_turns - 1
    players = sum(1 for held in state.hands if held) or state.players
    hands = list(state.hands)
    stock, discard = state.stock, list(state.discard)
    drawn = 0
    seat: int = state.turn  # type: ignore[assignment]
    turns = state.turns
    while len(stock) - drawn >= 2 and discard and turns < last_turn:
        hand = hands[seat]
        first, second, third = hand
        mask = first.mask | second.mask | third.mask
        now = worth(mask)
        if now >= knock_threshold(rules, players, turns):
            break  # the policy knocks, if the rules let it: the engine knows
        top = discard[-1]
        # The policy's draw (Judge._judge): the discard pile's top when it makes a better
        # hand (of the best three of four), else the stock; never a tie between the two.
        best = max(worth(mask ^ card.mask | top.mask) for card in hand)
        if (sure and best >= GOAL) or best > now:
            card, pickup = top, top
        else:
            card, pickup = stock[drawn], None
        held = (*hand, card)
        whole = mask | card.mask
        # The policy's discard: the card whose loss leaves the best hand, ties drawn as
        # Judge.choose draws them (from the legal discards, in hand order).
        options = [other for other in held if keep_pickup or other is not pickup]
        values = [worth(whole ^ other.mask) for other in options]
        top_value = max(values)
        chosen = [other for other, value in zip(options, values, strict=True)
                  if value == top_value]
        if (sure and top_value >= GOAL) or any(
                table[whole ^ other.mask].is_blitz for other in chosen):
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
