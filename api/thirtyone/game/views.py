"""What one seat, or a spectator, may see of a state.

A view has the layout of :meth:`GameState.to_dict` with the hidden cards as ``None``: the
other seats' hands (until they are shown at the end of the round), face-down table cards and
cards out of play; the stock is only a count. The seed, which would tell every deal, is shown
once the match is over, so anyone can then check the deals.

>>> from thirtyone.game import new_game
>>> state = new_game("scat", 3, seed="doc", dealer=0)
>>> seen = view(state, 1)
>>> seen["hands"][0], len(seen["hands"][1]), seen["stock"], seen["seed"]
([None, None, None], 3, 42, None)
"""

from __future__ import annotations

from typing import TypedDict

from thirtyone.cards import CardCode
from thirtyone.errors import N_, StateError
from thirtyone.game.families import flow_of
from thirtyone.game.family import FamilyFlow
from thirtyone.game.moves import PlayedMove
from thirtyone.game.public import PublicData
from thirtyone.game.state import GameState, Phase, RoundResult, SeatData, share, thaw
from thirtyone.rules import RulesData


class View(TypedDict):
    """What :func:`view` returns: the layout of :meth:`GameState.to_dict`, hidden cards
    ``None``, the stock a count, and ``is_over``.

    ``turn`` is the seat to act, ``None`` between rounds (any seat may then send
    ``next_round``) and once the match is over; ``seat`` is the seat this view is for
    (``None``: a spectator); ``seed`` is shown once the match is over; ``public`` is what
    every seat knows of the round (:mod:`thirtyone.game.public`).
    """

    rules: RulesData
    seat: int | None
    seats: list[SeatData]
    dealer: int
    round: int
    phase: str
    turn: int | None
    turns: int
    hands: list[list[CardCode | None]]
    stock: int
    discard: list[CardCode]
    table: list[CardCode | None]
    table_face_up: list[bool]
    out: list[CardCode | None]
    knocker: int | None
    final_turns: int
    pickup: CardCode | None
    pot: int
    result: RoundResult | None
    winners: list[int]
    history: list[PlayedMove]
    public: PublicData
    is_over: bool
    seed: int | str | None


def view(state: GameState, seat: int | None, *, shared: bool = False) -> View:
    """``state`` as ``seat`` sees it (``None``: a spectator, who sees no hand in play).

    With ``shared``, history entries that every seat sees as they are (a family that hides
    nothing in them: :meth:`FamilyFlow.public_move` not overridden) are the state's own rather
    than copies: for a caller that serializes the view at once and changes nothing (a sealed
    move's answer), as :meth:`GameState.to_dict` shares them for sealing.
    """
    if seat is not None and (
        isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.players
    ):
        raise StateError("bad_seat", N_("there is no seat {seat!r}"), field="seat", seat=seat)
    shown = _shown_seats(state)
    flow = flow_of(state)
    return {
        "rules": state.rules.to_dict(),
        "seat": seat,
        "seats": [standing.to_dict() for standing in state.seats],
        "dealer": state.dealer,
        "round": state.round,
        "phase": str(state.phase),
        "turn": state.turn,
        "turns": state.turns,
        "hands": [
            [card.code for card in hand] if index == seat or index in shown else [None] * len(hand)
            for index, hand in enumerate(state.hands)
        ],
        "stock": len(state.stock),
        "discard": [card.code for card in state.discard],
        "table": [card.code if up else None
                  for card, up in zip(state.table, state.table_face_up, strict=True)],
        "table_face_up": list(state.table_face_up),
        "out": [None] * len(state.out),
        "knocker": state.knocker,
        "final_turns": state.final_turns,
        "pickup": None if state.pickup is None else state.pickup.code,
        "pot": state.pot,
        "result": thaw(state.result),
        "winners": list(state.winners),
        # Entries the engine wrote when the moves were played: each a PlayedMove.
        "history": list(share(state.history))
        if shared and type(flow).public_move is FamilyFlow.public_move
        else [flow.public_move(entry, seat, state.rules) for entry in state.history],
        "public": state.public.to_dict(state.players),
        "is_over": state.is_over,
        "seed": state.seed if state.is_over else None,
    }


def _shown_seats(state: GameState) -> set[int]:
    """The seats whose hands were shown at the end of the round just settled."""
    if state.phase not in (Phase.ROUND_OVER, Phase.GAME_OVER) or not state.result:
        return set()
    hands = state.result.get("hands") or ()
    return {index for index, shown in enumerate(hands) if shown is not None}
