"""Moves: small JSON objects, and the checks every family shares.

Every move is an object with a ``type``; it may name the ``seat`` making it, and a move
naming another seat than the one to act is refused with ``not_your_turn``.

- ``{"type": "draw", "source": "stock"}`` or ``"discard"``: take the top card of the stock
  or of the discard pile (draw family);
- ``{"type": "discard", "card": "QS"}``: discard a card after drawing (draw family);
- ``{"type": "knock"}``: end the round after one more turn for everyone else;
- ``{"type": "stand"}``: keep your hand in your final turn after a knock;
- ``{"type": "take", "card": "5H"}`` or ``{"type": "take", "value": 5}``: take a card in the
  race to 31 (by value, the first such card in deck order);
- ``{"type": "exchange", "give": ["7H"], "take": [0]}``: give ``give[i]`` for the table card
  at position ``take[i]`` (widow family, bank, Switch; see :mod:`thirtyone.game.widow`);
- ``{"type": "declare"}`` and ``{"type": "pass"}``: declare a strong hand or pass (schnautz),
  ``{"type": "join"}`` or ``pass``: join a carried deal or sit it out, ``{"type": "reveal"}``:
  turn the table face up (no-trips's dealer);
- ``{"type": "keep", "hand": 0}``, ``{"type": "swap_hand", "hand": 1}``,
  ``{"type": "renew", "hand": 0, "face_up": true}``: Switch (see :mod:`thirtyone.game.switch`);
- ``{"type": "next_round"}``: deal the next round once a round is settled; any seat may.

Cards are read with :func:`~thirtyone.cards.parse_card`, so ``"10h"`` and ``"T♥"`` are fine;
the move kept in the history is canonical.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from thirtyone.cards import Card, parse_card
from thirtyone.errors import N_, CardError, MoveError

MOVE_TYPES: tuple[str, ...] = (
    "draw", "discard", "knock", "stand", "next_round", "take", "exchange", "declare", "pass",
    "join", "reveal", "keep", "swap_hand", "renew",
)
"""Every move type of every family, as listed above."""


def refuse(code: str, message: str, *, field: str | None = None, **params: Any) -> MoveError:
    """The :class:`~thirtyone.errors.MoveError` for a move that cannot be played."""
    return MoveError(code, message, field=field, **params)


def move_type(move: Any) -> str:
    """The move's ``type``; refuse anything that is not a move object."""
    if not isinstance(move, Mapping):
        raise refuse("bad_move", N_("a move must be an object with a type"))
    kind = move.get("type")
    if not isinstance(kind, str):
        raise refuse("bad_move", N_("a move must be an object with a type"), field="type")
    return kind


def move_seat(move: Mapping[str, Any]) -> int | None:
    """The seat the move names, if any."""
    seat = move.get("seat")
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
        raise refuse("bad_move", N_("the seat must be a seat number, not {seat!r}"),
                     field="seat", seat=seat)
    return seat


def move_card(move: Mapping[str, Any], key: str = "card") -> Card:
    """The card the move names under ``key``."""
    code = move.get(key)
    if code is None:
        raise refuse("bad_move", N_("this move needs a {part}"), field=key, part=key)
    try:
        return parse_card(code)
    except CardError as error:
        raise refuse("bad_card", error.message, field=key, **error.params) from None


def unknown_move(kind: str, variant: str) -> MoveError:
    return refuse("unknown_move", N_("{variant!r} has no move {move!r}"),
                  field="type", move=kind, variant=variant)
