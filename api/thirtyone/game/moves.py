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
  at position ``take[i]`` (widow family, bank, Switch; see :mod:`thirtyone.game.widow`); with
  ``"knock": true`` the seat knocks ("closes") at the end of the exchange
  (``close_after_exchange``);
- ``{"type": "declare"}`` and ``{"type": "pass"}``: declare a strong hand or pass (schnautz),
  ``{"type": "join"}`` or ``pass``: join a carried deal or sit it out, ``{"type": "reveal"}``:
  turn the table face up (no-trips's dealer);
- ``{"type": "keep", "hand": 0}``, ``{"type": "swap_hand", "hand": 1}``,
  ``{"type": "renew", "hand": 0, "face_up": true}``: Switch (see :mod:`thirtyone.game.switch`);
- ``{"type": "next_round"}``: deal the next round once a round is settled; any seat may.

Cards are read with :func:`~thirtyone.cards.parse_card`, so ``"10h"`` and ``"T♥"`` are fine;
the move kept in the history is canonical.

Each move type's fields are a :class:`~typing.TypedDict` below (the contract documents them),
what each field may hold is in :data:`MOVE_FIELDS`, and what a move type does is its operation
(:mod:`thirtyone.game.operations`, whose :data:`~thirtyone.game.operations.OPERATIONS` is the
one registry of move types).
"""


from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, NotRequired, TypedDict

from thirtyone.cards import Card, CardCode, parse_card
from thirtyone.errors import N_, CardError, MoveError


class Seated(TypedDict, total=False):
    """What every move may carry: the seat making it (the history always names it, ``None``
    for ``next_round``, which is nobody's)."""

    seat: int | None


class DrawMove(Seated):
    """Take the top card of the stock or of the discard pile (draw family)."""

    type: Literal["draw"]
    source: Literal["stock", "discard"]


class DiscardMove(Seated):
    """Discard a card after drawing (draw family)."""

    type: Literal["discard"]
    card: CardCode


class KnockMove(Seated):
    """End the round after one more turn for everyone else."""

    type: Literal["knock"]


class StandMove(Seated):
    """Keep your hand in your final turn after a knock."""

    type: Literal["stand"]


class NextRoundMove(Seated):
    """Deal the next round once a round is settled. ``to_move`` is ``None`` between rounds:
    any seat may send it (a spectator too, in open mode)."""

    type: Literal["next_round"]


class TakeMove(Seated):
    """The race to 31: take a card, named or by ``value`` (the first such card in deck
    order)."""

    type: Literal["take"]
    card: NotRequired[CardCode]
    value: NotRequired[int]


class ExchangeMove(Seated):
    """Give ``give[i]`` for the table card at position ``take[i]`` (widow family, bank,
    Switch)."""

    type: Literal["exchange"]
    give: list[CardCode]
    take: list[int]
    knock: NotRequired[bool]
    """Knock at the end of the exchange, in the same turn (``close_after_exchange``)."""


class DeclareMove(Seated):
    """Declare a strong hand (schnautz)."""

    type: Literal["declare"]


class PassMove(Seated):
    """Pass on declaring (schnautz), or sit a carried deal out."""

    type: Literal["pass"]


class JoinMove(Seated):
    """Join a carried deal."""

    type: Literal["join"]


class RevealMove(Seated):
    """Turn the table face up (no-trips's dealer)."""

    type: Literal["reveal"]


class KeepMove(Seated):
    """Switch: the dealer keeps hand 0 or 1 and lays the other face up."""

    type: Literal["keep"]
    hand: int


class SwapHandMove(Seated):
    """Switch: swap the whole hand with table hand 0 or 1."""

    type: Literal["swap_hand"]
    hand: int


class RenewMove(Seated):
    """Switch: put a table hand out of play and deal a fresh one, face up or down."""

    type: Literal["renew"]
    hand: int
    face_up: bool


Move = (DrawMove | DiscardMove | KnockMove | StandMove | NextRoundMove | TakeMove
        | ExchangeMove | DeclareMove | PassMove | JoinMove | RevealMove | KeepMove
        | SwapHandMove | RenewMove)
"""Any move of any family: a dict whose ``type`` says which."""

@dataclass(frozen=True, slots=True)
class MoveField:
    """What one field of a move may hold, declared once for every move type that has it: the
    history's check (:mod:`thirtyone.game.checks`) and the API's request schema
    (``MoveSchema`` in :mod:`thirtyone.web.games`) are read from it.

    ``kind`` is ``seat`` (a seat or ``None``), ``type`` (a registered move type), ``choice``
    (one of ``choices``), ``card`` (a card code), ``cards`` (at most ``most`` codes), ``int``
    (``low`` to ``high``), ``positions`` (at most ``most`` integers ``low`` to ``high``),
    ``bool``, or ``flag`` (a boolean the engine records only when true).
    """

    kind: Literal["seat", "type", "choice", "card", "cards", "int", "positions", "bool", "flag"]
    description: str = ""
    choices: tuple[str, ...] = ()
    low: int = 0
    high: int = 0
    most: int = 0


MOVE_FIELDS: dict[str, MoveField] = {
    "seat": MoveField("seat", "Ignored: the move is the asking seat's."),
    "type": MoveField("type"),
    "source": MoveField("choice", choices=("stock", "discard")),
    "card": MoveField("card"),
    "value": MoveField("int", "Race: take a card by its value.", low=1, high=11),
    "give": MoveField("cards", "Exchanges: the cards given to the table.", most=3),
    "take": MoveField("positions", "Exchanges: the positions of the table cards taken.",
                      low=0, high=8, most=3),
    "hand": MoveField("int", "Switch: the hand kept or named.", low=0, high=1),
    "face_up": MoveField("bool", "Switch: whether a renewed table hand lies face up."),
    "knock": MoveField("flag", "Exchanges with `close_after_exchange`: knock at the end of "
                       "the exchange, in the same turn."),
}
"""Every field of every move type (the keys of the :data:`Move` TypedDicts), and what it may
hold."""


class PlayedExchange(Seated):
    """An exchange as the history shows it: cards given face down are ``None``."""

    type: Literal["exchange"]
    give: list[CardCode | None]
    take: list[int]
    knock: NotRequired[bool]


PlayedMove = (DrawMove | DiscardMove | KnockMove | StandMove | NextRoundMove | TakeMove
              | PlayedExchange | DeclareMove | PassMove | JoinMove | RevealMove | KeepMove
              | SwapHandMove | RenewMove)
"""A move of the history as a seat sees it: :data:`Move`, with hidden gifts."""


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
