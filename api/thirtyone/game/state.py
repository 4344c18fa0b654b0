"""The game state: one immutable record of everything a match is at one moment.

A :class:`GameState` is never changed: :func:`~thirtyone.game.apply_move` returns a new one.
``to_dict`` gives plain JSON data and ``from_dict`` reads it back, checking that it describes a
real position (each card of the deck exactly once, phase, turn and counts consistent); the
round trip is lossless.

Card places, all tuples of :class:`~thirtyone.cards.Card`:

- ``hands``: one tuple per seat (empty for an eliminated seat);
- ``stock``: the face-down stock, top card first;
- ``discard``: the face-up discard pile, bottom card first (its top is the last card); in the
  race to 31 it is the row of cards taken, in order;
- ``table``: cards on the table (a widow, table hands, the race's layout), with
  ``table_face_up`` telling, position by position, whether each card lies face up;
- ``out``: cards put out of play for the rest of the round (the cards of a seat sitting out a
  carried deal, the table cards Schwimmen renews), hidden in every view.
"""


from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any, ClassVar, NotRequired, TypedDict

from thirtyone.cards import Card, CardCode
from thirtyone.game.moves import Move
from thirtyone.game.public import NOTHING_KNOWN, Public, PublicData
from thirtyone.hands import ScoreData
from thirtyone.rules import Rules, RulesData

STATE_VERSION = 1
"""The layout version written by :meth:`GameState.to_dict`."""

HISTORY_LIMIT = 32
"""The most moves a state keeps: the last ones of the current deal. Enough for every seat of
the largest table to see each move made since its own last one, and a bound on the size of a
state (and of a sealed token) however long the match goes on."""

MAX_ROUND = 10_000
"""The last deal a match may reach: matches played out to the last seat (lives) could
otherwise go on through void deals without end."""


class Phase(StrEnum):
    """What the game waits for. Families add the phases of their own turns."""

    DRAW = "draw"
    """A draw-family turn begins: draw, knock, or stand after a knock."""
    DISCARD = "discard"
    """The player who drew must discard."""
    TAKE = "take"
    """The race to 31: the player to move takes a card."""
    ROUND_OVER = "round_over"
    """The round is settled; ``next_round`` deals the next one."""
    GAME_OVER = "game_over"
    """The match is finished; ``winners`` says who won."""


class SeatData(TypedDict):
    """A :class:`Seat` as plain data."""

    lives: int
    chips: int
    points: int
    free_ride: bool
    eliminated: bool


class ShownHand(TypedDict):
    """A hand shown when a round was settled: its cards and their score."""

    cards: list[CardCode]
    score: ScoreData | None


class RoundResult(TypedDict):
    """How the last round was settled (``GameState.result``). Every family writes ``round``,
    ``reason`` and ``winners`` (the match's winners, empty while it goes on); the others
    belong to some families or settlements only:

    - ``knocker``, ``blitz`` (the seats that showed one) and ``hands`` (one per seat, ``None``
      for a hand not shown): every family but the race;
    - lives: ``lives_lost`` (per seat), ``eliminated``, ``draw`` (the match ended tied);
    - points: ``points`` (gained, per seat) and ``ranks`` (``high``, ``middle``, ``low``... per
      seat, ``None`` for a seat not ranked);
    - pot: ``deal_winners``, ``carry`` (the tied seats of a carried deal), ``stake``;
    - escalating stakes: ``losers``, ``stake``, ``eliminated``;
    - the race: ``total``.
    """

    round: int
    reason: str
    winners: list[int]
    knocker: NotRequired[int | None]
    blitz: NotRequired[list[int]]
    hands: NotRequired[list[ShownHand | None]]
    lives_lost: NotRequired[list[int]]
    eliminated: NotRequired[list[int]]
    draw: NotRequired[bool]
    points: NotRequired[list[int]]
    ranks: NotRequired[list[str | None]]
    deal_winners: NotRequired[list[int]]
    carry: NotRequired[list[int]]
    stake: NotRequired[int]
    losers: NotRequired[list[int]]
    total: NotRequired[int]


class StateData(TypedDict):
    """A :class:`GameState` as plain JSON data: what :meth:`GameState.to_dict` writes,
    :meth:`GameState.from_dict` reads (:mod:`thirtyone.game.checks` checks every key) and the
    contract documents as ``State``. Card places are lists of codes (see the module
    docstring); ``history`` holds the last moves of the deal, each with its ``seat``."""

    version: int
    rules: RulesData
    seed: int | str
    seats: list[SeatData]
    dealer: int
    round: int
    phase: str
    turn: int | None
    turns: int
    hands: list[list[CardCode]]
    stock: list[CardCode]
    discard: list[CardCode]
    table: list[CardCode]
    table_face_up: list[bool]
    out: list[CardCode]
    knocker: int | None
    final_turns: int
    pickup: CardCode | None
    pot: int
    result: RoundResult | None
    winners: list[int]
    history: list[Move]
    public: NotRequired[PublicData]
    """What every seat knows of the round beyond the cards face up; absent on a fresh deal."""


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat's standing in the match.

    ``free_ride`` is true for a seat that has lost its last life and plays on until its next
    loss; ``chips`` may go negative (antes and payments minus winnings).
    """

    lives: int = 0
    chips: int = 0
    points: int = 0
    free_ride: bool = False
    eliminated: bool = False

    def to_dict(self) -> SeatData:
        return {
            "lives": self.lives,
            "chips": self.chips,
            "points": self.points,
            "free_ride": self.free_ride,
            "eliminated": self.eliminated,
        }


@dataclass(frozen=True, slots=True)
class GameState:
    """A match at one moment. Build one with :func:`~thirtyone.game.new_game`.

    ``turn`` is the seat to act in a turn phase (``None`` between rounds and after the match);
    ``turns`` counts the turns completed this round; ``final_turns`` the turns left after a
    knock; ``pickup`` the card just taken from the discard pile (it may not be discarded in the
    same turn unless ``may_discard_pickup``); ``result`` the last round's settlement (plain
    data); ``winners`` the seats that won the match; ``history`` the last moves of the current
    deal (at most :data:`HISTORY_LIMIT`), each with the ``seat`` that made it; ``public``
    what every seat knows of the round (:mod:`thirtyone.game.public`), kept for the whole
    round.
    """

    rules: Rules
    seed: int | str
    seats: tuple[Seat, ...]
    dealer: int
    round: int
    phase: str
    turn: int | None
    turns: int
    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]
    discard: tuple[Card, ...]
    table: tuple[Card, ...]
    table_face_up: tuple[bool, ...]
    out: tuple[Card, ...]
    knocker: int | None
    final_turns: int
    pickup: Card | None
    pot: int
    result: Mapping[str, Any] | None
    winners: tuple[int, ...]
    history: tuple[Mapping[str, Any], ...]
    public: Public = NOTHING_KNOWN

    @property
    def players(self) -> int:
        """The number of seats, eliminated ones included."""
        return len(self.seats)

    @property
    def is_over(self) -> bool:
        """Whether the match is finished."""
        return self.phase == Phase.GAME_OVER

    @property
    def to_move(self) -> int | None:
        """The seat whose move it is, or ``None`` between rounds and after the match."""
        return self.turn

    @property
    def seat_to_act(self) -> int:
        """The seat whose turn is being played: for the code of a turn phase, where ``turn``
        is never ``None`` (between rounds and after the match there is no such seat)."""
        seat = self.turn
        if seat is None:
            raise AssertionError(f"no seat acts in the {self.phase} phase")
        return seat

    @property
    def active_seats(self) -> tuple[int, ...]:
        """The seats still in the match, in seat order."""
        return tuple(i for i, seat in enumerate(self.seats) if not seat.eliminated)

    def next_active(self, seat: int) -> int:
        """The first seat left of ``seat`` (clockwise) that is still in the match."""
        seats = self.seats
        n = len(seats)
        for step in range(1, n + 1):
            candidate = (seat + step) % n
            if not seats[candidate].eliminated:
                return candidate
        raise AssertionError("no seat left in the match")  # pragma: no cover - match over first

    def evolve(self, **changes: Any) -> "GameState":
        """A copy with ``changes``; no field is checked (the flows keep the state consistent)."""
        new: GameState = _evolve(self, changes)
        return new

    def to_dict(self, *, shared: bool = False) -> StateData:
        """The state as plain JSON data (see the module docstring for the card places).

        With ``shared``, the result and the history entries are the state's own rather than
        copies: for a caller that serializes the data at once and changes nothing (sealing).
        """
        copy = share if shared else thaw
        data: StateData = {
            "version": STATE_VERSION,
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "seats": [seat.to_dict() for seat in self.seats],
            "dealer": self.dealer,
            "round": self.round,
            "phase": str(self.phase),
            "turn": self.turn,
            "turns": self.turns,
            "hands": [_codes(hand) for hand in self.hands],
            "stock": _codes(self.stock),
            "discard": _codes(self.discard),
            "table": _codes(self.table),
            "table_face_up": list(self.table_face_up),
            "out": _codes(self.out),
            "knocker": self.knocker,
            "final_turns": self.final_turns,
            "pickup": None if self.pickup is None else self.pickup.code,
            "pot": self.pot,
            "result": copy(self.result),
            "winners": list(self.winners),
            "history": list(share(self.history)) if shared
            else [thaw(entry) for entry in self.history],
        }
        if not self.public.is_empty:
            # Absent when nothing is known beyond what lies face up (a fresh deal).
            data["public"] = self.public.to_dict(len(self.seats))
        return data

    reader: ClassVar[Callable[[Any], "GameState"]]
    """How :meth:`from_dict` reads and checks data: :func:`thirtyone.game.checks.read_state`,
    which reads every family's rules, so it is set where the engine is put together
    (:mod:`thirtyone.game`) rather than imported by this lowest module."""

    @classmethod
    def from_dict(cls, data: Any) -> "GameState":
        """Read a state written by :meth:`to_dict`; raise :class:`~thirtyone.errors.StateError`
        with a code naming the fault when it is malformed or inconsistent.
        """
        state: GameState = GameState.reader(data)
        return state


_FIELD_NAMES = tuple(f.name for f in fields(GameState))


def _compile_evolve() -> Any:
    """Build ``_evolve(state, changes)`` with one unrolled line per field.

    This is on the path of every move: the unrolled copy takes half the time of a loop over
    the fields and a third of :func:`dataclasses.replace`, which re-runs ``__init__``.
    """
    lines = ["def _evolve(self, changes):", "    new = _new(GameState)"]
    lines += [f"    _set(new, {name!r}, changes[{name!r}] if {name!r} in changes else self.{name})"
              for name in _FIELD_NAMES]
    lines.append("    return new")
    namespace = {"_new": object.__new__, "_set": object.__setattr__, "GameState": GameState}
    exec("\n".join(lines), namespace)
    return namespace["_evolve"]


_evolve = _compile_evolve()


def _codes(cards: tuple[Card, ...]) -> list[str]:
    return [card.code for card in cards]


def thaw(value: Any) -> Any:
    """A deep copy of plain data, so callers may change what they get without changing a state."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    # Scalars are kept inline rather than through a call each: history entries and results
    # are mostly scalars, and every answer copies a few dozen of them.
    if kind is dict or isinstance(value, Mapping):
        return {key: item if type(item) in _SCALARS else thaw(item)
                for key, item in value.items()}
    if kind is list or kind is tuple:
        return [item if type(item) in _SCALARS else thaw(item) for item in value]
    return value


_SCALARS = frozenset({str, int, float, bool, type(None)})


def share(value: Any) -> Any:
    """Plain data as it is, shared rather than copied: :func:`thaw`'s counterpart, for a
    caller that serializes it at once and changes nothing."""
    return value
