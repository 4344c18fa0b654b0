"""The public game API: start a match, list, check and apply moves.

Every function is pure: a :class:`~thirtyone.game.state.GameState` is never changed, and a
refused move raises :class:`~thirtyone.errors.MoveError` with a stable code.

>>> state = new_game("scat", 3, seed="doc", dealer=0)
>>> state.to_move, str(state.phase), [len(hand) for hand in state.to_dict()["hands"]]
(1, 'draw', [3, 3, 3])
>>> legal_moves(state)
[{'type': 'draw', 'source': 'stock'}, {'type': 'draw', 'source': 'discard'}, {'type': 'knock'}]
>>> state, events = apply_move(state, {"type": "knock"})
>>> events
[{'type': 'knocked', 'seat': 1}]
>>> validate_move(state, {"type": "knock"})
Traceback (most recent call last):
...
thirtyone.errors.MoveError: seat 1 has already knocked
"""

from __future__ import annotations

import reprlib
from collections.abc import Mapping
from typing import Any

from thirtyone.errors import N_, OptionError
from thirtyone.events import Event
from thirtyone.game.dealing import first_dealer, most_players, next_dealer
from thirtyone.game.families import flow_for, flow_of
from thirtyone.game.family import Events, FamilyFlow
from thirtyone.game.moves import Move, move_seat, move_type, refuse
from thirtyone.game.operations import NextRound, Operation
from thirtyone.game.public import track
from thirtyone.game.settlers import settler_for
from thirtyone.game.shuffle import fresh_seed, is_seed
from thirtyone.game.state import HISTORY_LIMIT, MAX_ROUND, GameState, Phase
from thirtyone.rules import Rules, make_rules


def new_game(
    variant: str | Rules,
    players: int,
    seed: int | str | None = None,
    options: Mapping[str, Any] | None = None,
    dealer: int | None = None,
) -> GameState:
    """A new match of ``variant`` (a preset name or a :class:`~thirtyone.rules.Rules`) for
    ``players`` seats, dealt and ready for the first move.

    Without a ``seed`` a fresh one is drawn from :mod:`secrets` and kept in the state; without
    a ``dealer`` the rules' ``first_dealer`` draws one from the seed.
    """
    rules = make_rules(variant, options)
    low, high = rules.preset.players
    if isinstance(players, bool) or not isinstance(players, int) or not low <= players <= high:
        raise OptionError(
            "bad_players", N_("{variant!r} is played by {minimum} to {maximum} players"),
            field="players", variant=rules.variant, minimum=low, maximum=high, players=players,
        )
    most = most_players(rules)
    if players > most:
        # The deck's size bounds the seats (RULES.md §4.15): three cards each and three more
        # (the turned-up card and the stock, or the widow).
        raise OptionError(
            "bad_players", N_("{variant!r} with the deck {deck} is played by at most "
                              "{maximum} players"), field="players", variant=rules.variant,
            deck=rules.deck, maximum=most, players=players)
    flow = flow_for(rules)
    settler = settler_for(rules)
    if seed is None:
        seed = fresh_seed()
    elif not is_seed(seed):
        raise OptionError("bad_seed", N_("a seed is a number or a text of up to 200 characters"),
                          field="seed", seed=reprlib.repr(seed))
    if dealer is None:
        dealer = first_dealer(rules, seed, players)
    elif isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
        raise OptionError("bad_dealer", N_("the dealer must be a seat from 0 to {last}"),
                          field="dealer", last=players - 1, dealer=dealer)
    state = GameState(
        rules=rules, seed=seed, seats=tuple(settler.seat(rules) for _ in range(players)),
        dealer=dealer, round=1, phase=Phase.ROUND_OVER, turn=None, turns=0,
        hands=((),) * players, stock=(), discard=(), table=(), table_face_up=(), out=(),
        knocker=None, final_turns=0, pickup=None, pot=0, result=None, winners=(), history=(),
    )
    state, _ = settler.before_deal(state)
    state, _ = flow.start_round(state)
    return state


def legal_moves(state: GameState) -> list[Move]:
    """Every move the seat to act may make now; ``[{"type": "next_round"}]`` between rounds
    (when ``to_move`` is ``None`` and any seat may deal the next round), nothing once the match
    is over."""
    if state.phase == Phase.GAME_OVER:
        return []
    if state.phase == Phase.ROUND_OVER:
        return NEXT_ROUND.legal(flow_of(state), state)
    return flow_of(state).legal_moves(state)


def validate_move(state: GameState, move: Mapping[str, Any]) -> None:
    """Return if ``move`` is legal now; raise :class:`~thirtyone.errors.MoveError` if not."""
    _check(state, move)


class Played(tuple[GameState, list[Event]]):
    """What one move did, as :func:`apply_move` returns it (pokerkit's record of an action):
    the ``state`` after it, the ``events`` it caused, the ``move`` as the engine played it
    (canonical: card codes, no ``seat``) and the ``seat`` that made it (``None`` for
    ``next_round``, which is nobody's).

    It unpacks as ``state, events``, the pair :func:`apply_move` has always returned, so that
    code written for the pair (and its types) reads the record unchanged.
    """

    move: Move
    seat: int | None

    def __new__(cls, state: GameState, events: list[Event], move: Move,
                seat: int | None) -> Played:
        played = super().__new__(cls, (state, events))
        played.move = move
        played.seat = seat
        return played

    @property
    def state(self) -> GameState:
        """The state after the move."""
        return self[0]

    @property
    def events(self) -> list[Event]:
        """What the move caused, in order, for everyone to see."""
        return self[1]

    @property
    def entry(self) -> dict[str, Any]:
        """The move as the history and a match record keep it: with its ``seat`` first, but
        for ``next_round`` (nobody's), which names none."""
        if self.seat is None:
            return dict(self.move)
        return {"seat": self.seat, **self.move}


def apply_move(state: GameState, move: Mapping[str, Any]) -> Played:
    """The state after ``move`` and the events it caused, for everyone to see, with the move
    as played and its seat (a :class:`Played`, which unpacks as ``state, events``).

    Events carry only public information (a card drawn from the stock is not named).
    """
    flow, operation, canonical, seat = _check(state, move)
    new, events = operation.apply(flow, state, canonical)
    if new is state:
        new = state.evolve()
    played = Played(new, events, canonical, seat)
    # ``new`` was made by this move and nobody else holds it yet: set its history in place
    # rather than copy the whole state once more. A new deal starts a new history, and only
    # the last moves are kept, so that a state stays small however long the match lasts.
    if operation is NEXT_ROUND:
        history: tuple[Mapping[str, Any], ...] = ()
    else:
        history = (*state.history[1 - HISTORY_LIMIT:], played.entry)
    object.__setattr__(new, "history", history)
    object.__setattr__(new, "public", track(state, new, events))
    return played


def _check(state: GameState,
           move: Any) -> tuple[FamilyFlow, Operation[Any], Move, int | None]:
    """The flow, the operation and the canonical move of a legal ``move``, and its seat."""
    kind = move_type(move)
    seat = move_seat(move)
    phase = state.phase
    if phase == Phase.GAME_OVER:
        raise refuse("game_over", N_("the match is over"))
    if seat is not None and not 0 <= seat < state.players:
        raise refuse("bad_seat", N_("there is no seat {seat!r}"), field="seat", seat=seat)
    flow = flow_of(state)
    if kind == NEXT_ROUND.type:
        return flow, NEXT_ROUND, NEXT_ROUND.verify(flow, state, move), None
    if phase == Phase.ROUND_OVER:
        raise refuse("round_over", N_("the round is over: deal the next one"))
    if seat is not None and seat != state.turn:
        raise refuse("not_your_turn", N_("it is seat {to_move}'s turn, not seat {seat}'s"),
                     field="seat", seat=seat, to_move=state.turn)
    operation = flow.operation(state, kind)
    return flow, operation, operation.verify(flow, state, move), state.turn


class DealNext(NextRound[FamilyFlow]):
    """Between rounds any seat deals the next one: the deal passes left, the antes are
    taken, the cards dealt."""

    def legal(self, flow: FamilyFlow, state: GameState) -> list[Move]:
        return [{"type": "next_round"}]

    def verify(self, flow: FamilyFlow, state: GameState,
               move: Mapping[str, Any]) -> Move:
        if state.phase != Phase.ROUND_OVER:
            raise refuse("round_not_over", N_("the round is still being played"))
        if state.round >= MAX_ROUND:
            raise refuse("match_too_long", N_("a match has at most {rounds} deals"),
                         rounds=MAX_ROUND)
        return {"type": "next_round"}

    def apply(self, flow: FamilyFlow, state: GameState,
              move: Mapping[str, Any]) -> tuple[GameState, Events]:
        state = state.evolve(dealer=next_dealer(state), round=state.round + 1)
        state, events = settler_for(state.rules).before_deal(state)
        state, dealt = flow.start_round(state)
        return state, events + dealt


NEXT_ROUND = DealNext()
