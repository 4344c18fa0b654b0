"""Operations: one class per move type (pokerkit's model), the one place that knows it.

An operation knows its move's fields (a :class:`~typing.TypedDict` of
:mod:`thirtyone.game.moves`, which the contract documents), how the fields are read, and its
words (a :class:`Phrase` that :func:`thirtyone.words.describe_move` says in a language). A
family subclasses the operations it plays with which of them are legal now, how one is
verified and what it does, and lists them by phase
(:meth:`thirtyone.game.family.FamilyFlow.operations`): the flow has no chain of ``if`` on a
move's ``type``.
"""

from __future__ import annotations

import builtins
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Literal, TypeVar

from thirtyone.cards import CardCode
from thirtyone.errors import N_
from thirtyone.events import Event
from thirtyone.game.moves import (
    DeclareMove,
    DiscardMove,
    DrawMove,
    ExchangeMove,
    JoinMove,
    KeepMove,
    KnockMove,
    Move,
    NextRoundMove,
    PassMove,
    PlayedExchange,
    PlayedMove,
    RenewMove,
    RevealMove,
    StandMove,
    SwapHandMove,
    TakeMove,
    refuse,
)
from thirtyone.game.state import GameState, thaw

Events = list[Event]
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


R = TypeVar("R")
"""What a :class:`MoveReader` makes of a move."""


class MoveReader(Generic[R]):
    """A reading of moves with one method per move type, which the move's operation finds
    (:func:`read_move`; :meth:`Operation.reading` for many moves of a type): a bot asks the
    operation what a move is rather than compare its ``type`` with names. A method not
    overridden reads the move with :meth:`other`."""

    __slots__ = ()

    def other(self, move: Mapping[str, Any]) -> R:
        """A move this reading has no method of its own for."""
        raise NotImplementedError(f"no reading of {move!r}")

    def draw(self, move: Mapping[str, Any]) -> R:
        return self.other(move)

    def discard(self, move: Mapping[str, Any]) -> R:
        return self.other(move)

    def knock(self, move: Mapping[str, Any]) -> R:
        return self.other(move)

    def stand(self, move: Mapping[str, Any]) -> R:
        return self.other(move)

    def next_round(self, move: Mapping[str, Any]) -> R:
        return self.other(move)

    def take(self, move: Mapping[str, Any]) -> R:
        return self.other(move)

    def exchange(self, move: Mapping[str, Any]) -> R:
        return self.other(move)

    def declare(self, move: Mapping[str, Any]) -> R:
        return self.other(move)

    def pass_(self, move: Mapping[str, Any]) -> R:
        return self.other(move)

    def join(self, move: Mapping[str, Any]) -> R:
        return self.other(move)

    def reveal(self, move: Mapping[str, Any]) -> R:
        return self.other(move)

    def keep(self, move: Mapping[str, Any]) -> R:
        return self.other(move)

    def swap_hand(self, move: Mapping[str, Any]) -> R:
        return self.other(move)

    def renew(self, move: Mapping[str, Any]) -> R:
        return self.other(move)


class Operation(ABC, Generic[F]):
    """One move type: its ``type``, its ``fields`` (a TypedDict of :data:`Move`), its words,
    and, in the subclass a family plays, which of these moves are legal now, how one is
    verified (refused with a :class:`~thirtyone.errors.MoveError`, or returned canonical: card
    codes, no ``seat``) and what it does."""

    type: ClassVar[str]
    fields: ClassVar[builtins.type]
    words_of_move_alone: ClassVar[bool] = False
    """Whether :meth:`words` read the move alone, never the view: then the same move says the
    same words in every game, and :func:`thirtyone.words.describe_move` keeps them."""

    @classmethod
    @abstractmethod
    def words(cls, move: Mapping[str, Any], seen: Mapping[str, Any]) -> Phrase:
        """The move in words, with the cards named that ``seen`` (the mover's view) shows."""

    @staticmethod
    @abstractmethod
    def reading(reader: MoveReader[R]) -> Callable[[Mapping[str, Any]], R]:
        """The ``reader``'s method for this move type."""

    @classmethod
    def face_down(cls, entry: Mapping[str, Any]) -> PlayedMove:
        """A history entry of this type as everyone sees it when the cards given lie face
        down (only an exchange gives any)."""
        shown: PlayedMove = thaw(entry)
        return shown

    @abstractmethod
    def legal(self, flow: F, state: GameState) -> list[Move]:
        """The moves of this type the seat to act may make now."""

    @abstractmethod
    def verify(self, flow: F, state: GameState, move: Mapping[str, Any]) -> Move:
        """Refuse the move if it cannot be played now; else return it canonical."""

    @abstractmethod
    def apply(self, flow: F, state: GameState,
              move: Mapping[str, Any]) -> tuple[GameState, Events]:
        """Play a move :meth:`verify` returned: the new state and the events."""


class Draw(Operation[F]):
    type = "draw"
    fields = DrawMove

    @staticmethod
    def reading(reader: MoveReader[R]) -> Callable[[Mapping[str, Any]], R]:
        return reader.draw

    @classmethod
    def words(cls, move: Mapping[str, Any], seen: Mapping[str, Any]) -> Phrase:
        if move["source"] == "stock":
            return Phrase(N_("Draw from the stock"))
        return Phrase(N_("Take from the discard pile: {card}"), {"card": top_discard(seen)})

    @staticmethod
    def read(move: Mapping[str, Any]) -> Literal["stock", "discard"]:
        """The pile drawn from."""
        source = move.get("source")
        if source not in ("stock", "discard"):
            raise refuse("bad_move", N_("draw from the stock or the discard pile"),
                         field="source", source=source)
        return "stock" if source == "stock" else "discard"


class Discard(Operation[F]):
    type = "discard"
    fields = DiscardMove
    words_of_move_alone = True

    @staticmethod
    def reading(reader: MoveReader[R]) -> Callable[[Mapping[str, Any]], R]:
        return reader.discard

    @classmethod
    def words(cls, move: Mapping[str, Any], seen: Mapping[str, Any]) -> Phrase:
        return Phrase(N_("Discard: {card}"), {"card": CardNames((move["card"],))})


class Knock(Operation[F]):
    type = "knock"
    fields = KnockMove
    words_of_move_alone = True

    @staticmethod
    def reading(reader: MoveReader[R]) -> Callable[[Mapping[str, Any]], R]:
        return reader.knock

    @classmethod
    def words(cls, move: Mapping[str, Any], seen: Mapping[str, Any]) -> Phrase:
        return Phrase(N_("Knock"))


class Stand(Operation[F]):
    type = "stand"
    fields = StandMove
    words_of_move_alone = True

    @staticmethod
    def reading(reader: MoveReader[R]) -> Callable[[Mapping[str, Any]], R]:
        return reader.stand

    @classmethod
    def words(cls, move: Mapping[str, Any], seen: Mapping[str, Any]) -> Phrase:
        return Phrase(N_("Stand: keep your hand"))


class NextRound(Operation[F]):
    type = "next_round"
    fields = NextRoundMove
    words_of_move_alone = True

    @staticmethod
    def reading(reader: MoveReader[R]) -> Callable[[Mapping[str, Any]], R]:
        return reader.next_round

    @classmethod
    def words(cls, move: Mapping[str, Any], seen: Mapping[str, Any]) -> Phrase:
        return Phrase(N_("Next round"))


class Take(Operation[F]):
    type = "take"
    fields = TakeMove
    words_of_move_alone = True

    @staticmethod
    def reading(reader: MoveReader[R]) -> Callable[[Mapping[str, Any]], R]:
        return reader.take

    @classmethod
    def words(cls, move: Mapping[str, Any], seen: Mapping[str, Any]) -> Phrase:
        return Phrase(N_("Take: {card}"), {"card": CardNames((move["card"],))})


class Exchange(Operation[F]):
    type = "exchange"
    fields = ExchangeMove

    @staticmethod
    def reading(reader: MoveReader[R]) -> Callable[[Mapping[str, Any]], R]:
        return reader.exchange

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

    @classmethod
    def face_down(cls, entry: Mapping[str, Any]) -> PlayedMove:
        shown: PlayedExchange = thaw(entry)
        shown["give"] = [None] * len(shown["give"])
        return shown


class Declare(Operation[F]):
    type = "declare"
    fields = DeclareMove
    words_of_move_alone = True

    @staticmethod
    def reading(reader: MoveReader[R]) -> Callable[[Mapping[str, Any]], R]:
        return reader.declare

    @classmethod
    def words(cls, move: Mapping[str, Any], seen: Mapping[str, Any]) -> Phrase:
        return Phrase(N_("Declare your hand"))


class Pass(Operation[F]):
    type = "pass"
    fields = PassMove
    words_of_move_alone = True

    @staticmethod
    def reading(reader: MoveReader[R]) -> Callable[[Mapping[str, Any]], R]:
        return reader.pass_

    @classmethod
    def words(cls, move: Mapping[str, Any], seen: Mapping[str, Any]) -> Phrase:
        return Phrase(N_("Pass"))


class Join(Operation[F]):
    type = "join"
    fields = JoinMove
    words_of_move_alone = True

    @staticmethod
    def reading(reader: MoveReader[R]) -> Callable[[Mapping[str, Any]], R]:
        return reader.join

    @classmethod
    def words(cls, move: Mapping[str, Any], seen: Mapping[str, Any]) -> Phrase:
        return Phrase(N_("Join the deal"))


class Reveal(Operation[F]):
    type = "reveal"
    fields = RevealMove
    words_of_move_alone = True

    @staticmethod
    def reading(reader: MoveReader[R]) -> Callable[[Mapping[str, Any]], R]:
        return reader.reveal

    @classmethod
    def words(cls, move: Mapping[str, Any], seen: Mapping[str, Any]) -> Phrase:
        return Phrase(N_("Turn the table cards face up"))


def read_table_hand(move: Mapping[str, Any], hands: int) -> int:
    """The table hand a Switch move names (``hand``: 0 or 1)."""
    hand = move.get("hand")
    if not isinstance(hand, int) or isinstance(hand, bool) or hand not in range(hands):
        raise refuse("bad_hand", N_("name hand 0 or 1"), field="hand", hand=hand)
    return hand


class Keep(Operation[F]):
    type = "keep"
    fields = KeepMove
    words_of_move_alone = True

    @staticmethod
    def reading(reader: MoveReader[R]) -> Callable[[Mapping[str, Any]], R]:
        return reader.keep

    @classmethod
    def words(cls, move: Mapping[str, Any], seen: Mapping[str, Any]) -> Phrase:
        return Phrase(N_("Keep hand {hand}"), {"hand": Ordinal(move["hand"])})


class SwapHand(Operation[F]):
    type = "swap_hand"
    fields = SwapHandMove
    words_of_move_alone = True

    @staticmethod
    def reading(reader: MoveReader[R]) -> Callable[[Mapping[str, Any]], R]:
        return reader.swap_hand

    @classmethod
    def words(cls, move: Mapping[str, Any], seen: Mapping[str, Any]) -> Phrase:
        return Phrase(N_("Swap your hand for table hand {hand}"), {"hand": Ordinal(move["hand"])})


class Renew(Operation[F]):
    type = "renew"
    fields = RenewMove
    words_of_move_alone = True

    @staticmethod
    def reading(reader: MoveReader[R]) -> Callable[[Mapping[str, Any]], R]:
        return reader.renew

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
"""Each move type's operation, by its ``type``: the one registry of move types (a new move
is one more operation here, with its TypedDict in :data:`~thirtyone.game.moves.Move`)."""

MOVES: dict[str, type] = {kind: operation.fields for kind, operation in OPERATIONS.items()}
"""Each move type's :class:`~typing.TypedDict`, by its ``type``."""

MOVE_TYPES: tuple[str, ...] = tuple(OPERATIONS)
"""Every move type of every family."""


def operation_of(move: Mapping[str, Any]) -> type[Operation[Any]]:
    """The operation of a move the engine made (a legal or a played one)."""
    return OPERATIONS[move["type"]]


def read_move(reader: MoveReader[R], move: Mapping[str, Any]) -> R:
    """What ``reader`` makes of ``move`` (a legal or a played one): its operation calls the
    reader's method for its type."""
    return OPERATIONS[move["type"]].reading(reader)(move)


def is_move(move: Mapping[str, Any],
            operation: type[Operation[Any]] | tuple[type[Operation[Any]], ...]) -> bool:
    """Whether ``move`` (a legal or a played one) is of ``operation``'s type (or of one of
    them)."""
    return issubclass(OPERATIONS[move["type"]], operation)
