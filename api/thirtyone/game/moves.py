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

Each move type is one :class:`Operation` (pokerkit's model): its fields (the
:class:`~typing.TypedDict` below, which the contract documents), how the fields are read, and
its words (a :class:`Phrase` that :func:`thirtyone.words.describe_move` says in a language).
A family subclasses the operations it plays with how it verifies and applies them, and lists
them by phase (:meth:`thirtyone.game.family.FamilyFlow.operations`).
"""


from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import (
    Any,
    ClassVar,
    Generic,
    Literal,
    NotRequired,
    TypedDict,
    TypeVar,
)

from thirtyone.cards import Card, CardCode, parse_card
from thirtyone.errors import N_, CardError, MoveError
from thirtyone.game.state import GameState


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

Events = list[dict[str, Any]]
"""What a move caused, in order (:mod:`thirtyone.events`)."""

F = TypeVar("F")
"""The family flow an operation is played in."""


@dataclass(frozen=True)
class CardNames:
    """Cards a phrase names, by code: the words say their names, joined by commas."""

    cards: tuple[CardCode, ...]


@dataclass(frozen=True)
class Ordinal:
    """A table hand or a table position, counted from 0 in moves and events: the words count
    from 1 ("table hand 1" is ``hand: 0``), in :func:`thirtyone.words.ordinal` alone."""

    index: int


@dataclass(frozen=True)
class Phrase:
    """A move in words before they are said in a language: an English template (a catalog
    message id) and its parameters (numbers, :class:`CardNames`, :class:`Ordinal`, phrases)."""

    template: str
    params: Mapping[str, Any] = field(default_factory=dict)


def top_discard(seen: Mapping[str, Any]) -> CardNames:
    """The card on top of the discard pile in a view, as a phrase names it."""
    return CardNames(tuple(seen["discard"][-1:]))


class Operation(ABC, Generic[F]):
    """One move type: its ``type``, its ``fields`` (a TypedDict of :data:`Move`), its words,
    and, in the subclass a family plays, which of these moves are legal now, how one is
    verified (refused with a :class:`~thirtyone.errors.MoveError`, or returned canonical: card
    codes, no ``seat``) and what it does."""

    type: ClassVar[str]
    fields: ClassVar[type]

    @classmethod
    @abstractmethod
    def words(cls, move: Mapping[str, Any], seen: Mapping[str, Any]) -> Phrase:
        """The move in words, with the cards named that ``seen`` (the mover's view) shows."""

    @abstractmethod
    def legal(self, flow: F, state: GameState) -> list[dict[str, Any]]:
        """The moves of this type the seat to act may make now."""

    @abstractmethod
    def verify(self, flow: F, state: GameState, move: Mapping[str, Any]) -> dict[str, Any]:
        """Refuse the move if it cannot be played now; else return it canonical."""

    @abstractmethod
    def apply(self, flow: F, state: GameState,
              move: dict[str, Any]) -> tuple[GameState, Events]:
        """Play a move :meth:`verify` returned: the new state and the events."""


class Draw(Operation[F]):
    type = "draw"
    fields = DrawMove

    @classmethod
    def words(cls, move: Mapping[str, Any], seen: Mapping[str, Any]) -> Phrase:
        if move["source"] == "stock":
            return Phrase(N_("Draw from the stock"))
        return Phrase(N_("Take from the discard pile: {card}"), {"card": top_discard(seen)})

    @staticmethod
    def read(move: Mapping[str, Any]) -> str:
        """The pile drawn from."""
        source = move.get("source")
        if source not in ("stock", "discard"):
            raise refuse("bad_move", N_("draw from the stock or the discard pile"),
                         field="source", source=source)
        return str(source)


class Discard(Operation[F]):
    type = "discard"
    fields = DiscardMove

    @classmethod
    def words(cls, move: Mapping[str, Any], seen: Mapping[str, Any]) -> Phrase:
        return Phrase(N_("Discard: {card}"), {"card": CardNames((move["card"],))})


class Knock(Operation[F]):
    type = "knock"
    fields = KnockMove

    @classmethod
    def words(cls, move: Mapping[str, Any], seen: Mapping[str, Any]) -> Phrase:
        return Phrase(N_("Knock"))


class Stand(Operation[F]):
    type = "stand"
    fields = StandMove

    @classmethod
    def words(cls, move: Mapping[str, Any], seen: Mapping[str, Any]) -> Phrase:
        return Phrase(N_("Stand: keep your hand"))


class NextRound(Operation[F]):
    type = "next_round"
    fields = NextRoundMove

    @classmethod
    def words(cls, move: Mapping[str, Any], seen: Mapping[str, Any]) -> Phrase:
        return Phrase(N_("Next round"))


class Take(Operation[F]):
    type = "take"
    fields = TakeMove

    @classmethod
    def words(cls, move: Mapping[str, Any], seen: Mapping[str, Any]) -> Phrase:
        return Phrase(N_("Take: {card}"), {"card": CardNames((move["card"],))})


class Exchange(Operation[F]):
    type = "exchange"
    fields = ExchangeMove

    @classmethod
    def words(cls, move: Mapping[str, Any], seen: Mapping[str, Any]) -> Phrase:
        table = seen["table"]
        taken = [CardNames((table[place],)) if table[place] is not None
                 else Phrase(N_("the face-down card in place {place}"),
                             {"place": Ordinal(place)})
                 for place in move["take"]]
        text = (N_("Exchange with the table and knock: give {given}; take {taken}")
                if move.get("knock") else N_("Exchange with the table: give {given}; take {taken}"))
        return Phrase(text, {"given": CardNames(tuple(move["give"])), "taken": taken})


class Declare(Operation[F]):
    type = "declare"
    fields = DeclareMove

    @classmethod
    def words(cls, move: Mapping[str, Any], seen: Mapping[str, Any]) -> Phrase:
        return Phrase(N_("Declare your hand"))


class Pass(Operation[F]):
    type = "pass"
    fields = PassMove

    @classmethod
    def words(cls, move: Mapping[str, Any], seen: Mapping[str, Any]) -> Phrase:
        return Phrase(N_("Pass"))


class Join(Operation[F]):
    type = "join"
    fields = JoinMove

    @classmethod
    def words(cls, move: Mapping[str, Any], seen: Mapping[str, Any]) -> Phrase:
        return Phrase(N_("Join the deal"))


class Reveal(Operation[F]):
    type = "reveal"
    fields = RevealMove

    @classmethod
    def words(cls, move: Mapping[str, Any], seen: Mapping[str, Any]) -> Phrase:
        return Phrase(N_("Turn the table cards face up"))


def read_table_hand(move: Mapping[str, Any], hands: int) -> int:
    """The table hand a Switch move names (``hand``: 0 or 1)."""
    hand = move.get("hand")
    if isinstance(hand, bool) or hand not in range(hands):
        raise refuse("bad_hand", N_("name hand 0 or 1"), field="hand", hand=hand)
    return int(hand)


class Keep(Operation[F]):
    type = "keep"
    fields = KeepMove

    @classmethod
    def words(cls, move: Mapping[str, Any], seen: Mapping[str, Any]) -> Phrase:
        return Phrase(N_("Keep hand {hand}"), {"hand": Ordinal(move["hand"])})


class SwapHand(Operation[F]):
    type = "swap_hand"
    fields = SwapHandMove

    @classmethod
    def words(cls, move: Mapping[str, Any], seen: Mapping[str, Any]) -> Phrase:
        return Phrase(N_("Swap your hand for table hand {hand}"), {"hand": Ordinal(move["hand"])})


class Renew(Operation[F]):
    type = "renew"
    fields = RenewMove

    @classmethod
    def words(cls, move: Mapping[str, Any], seen: Mapping[str, Any]) -> Phrase:
        if move["face_up"]:
            return Phrase(N_("Renew table hand {hand} face up"), {"hand": Ordinal(move["hand"])})
        return Phrase(N_("Renew table hand {hand} face down"), {"hand": Ordinal(move["hand"])})


OPERATIONS: dict[str, type[Operation[Any]]] = {
    operation.type: operation
    for operation in (Draw, Discard, Knock, Stand, NextRound, Take, Exchange, Declare, Pass,
                      Join, Reveal, Keep, SwapHand, Renew)
}
"""Each move type's operation, by its ``type``: the one list of move types (a new move is
one more operation here and one more TypedDict in :data:`Move`)."""

MOVES: dict[str, type] = {kind: operation.fields for kind, operation in OPERATIONS.items()}
"""Each move type's :class:`~typing.TypedDict`, by its ``type``."""

MOVE_TYPES: tuple[str, ...] = tuple(OPERATIONS)
"""Every move type of every family, as listed above."""


def operation_of(move: Mapping[str, Any]) -> type[Operation[Any]]:
    """The operation of a move the engine made (a legal or a played one)."""
    return OPERATIONS[move["type"]]


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
