"""Match records: a whole match as one versioned JSON document that anyone can check with the
engine alone.

A record (format ``thirtyone-record``, version 1) holds the variant, its options and the
number of seats; each seat's name and whether a bot played it; the server's secret seed, its
SHA-256 (published before any player contributed), every seat's contribution and the deal's
seed derived from them; every move in order (each with its seat; ``next_round`` deals the
next round); every round's result and the match's winners.

The deal's seed (:func:`derive_seed`, version 1), in hexadecimal::

    SHA-256( UTF-8( "thirtyone-deal-1" ":" server_seed ":" h(c_0) ":" ... ":" h(c_n-1) ) )

where ``c_i`` is seat ``i``'s contribution (the empty text when it gave none) and ``h(x)`` is
the hexadecimal SHA-256 of ``UTF-8(x)``. The server seed may not contain ``:``, and every
contribution is hashed, so no two inputs give the same text. The server publishes
``SHA-256(UTF-8(server_seed))`` before taking contributions, so neither the server (bound to
its seed) nor any player (who did not know it) chose the deal alone. The match is then
``new_game(variant, players, seed=deal_seed, options=options)``.

:func:`verify` replays a record and checks all of it; :func:`replay` steps through it.

>>> server = "5" * 64
>>> record = make_record(variant="scat", players=2, options={}, names=["Ana", None],
...                      bots=[None, "greedy"], server_seed=server,
...                      contributions=["dice 4 2", None], moves=[])
>>> record["seed"]["deal"] == derive_seed(server, ["dice 4 2", None])
True
>>> [check.code for check in verify(loads(dumps(record)))][:3]
['format', 'commitment', 'derivation']
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NotRequired, TypedDict

from thirtyone.errors import N_, MoveError, ThirtyOneError
from thirtyone.events import Event
from thirtyone.game import GameState, apply_move, new_game
from thirtyone.game.state import RoundResult, thaw

FORMAT = "thirtyone-record"
FORMAT_VERSION = 1
SEED_LABEL = "thirtyone-deal-1"
MAX_CONTRIBUTION = 256
"""The longest contribution, in characters."""


class RecordError(ThirtyOneError):
    """A record that cannot be read, or that the replay contradicts."""


class SeatEntry(TypedDict):
    seat: int
    name: str | None
    bot: str | None


class SeedEntry(TypedDict):
    server: str
    sha256: str
    contributions: list[str | None]
    deal: str


class Record(TypedDict):
    """A match record as plain JSON data."""

    format: str
    format_version: int
    table: NotRequired[str | None]
    variant: str
    players: int
    options: dict[str, Any]
    seats: list[SeatEntry]
    seed: SeedEntry
    moves: list[dict[str, Any]]
    rounds: list[RoundResult]
    winners: list[int]
    is_over: bool


def seed_commitment(server_seed: str) -> str:
    """What the server publishes before any contribution: SHA-256 of its seed, in hex."""
    return hashlib.sha256(server_seed.encode()).hexdigest()


def derive_seed(server_seed: str, contributions: Sequence[str | None]) -> str:
    """The deal's seed from the server's seed and each seat's contribution (None: none).

    >>> derive_seed("abc", [None, "x"]) == derive_seed("abc", ["", "x"])
    True
    >>> derive_seed("abc", ["x", None]) == derive_seed("abc", [None, "x"])
    False
    """
    if ":" in server_seed:
        raise RecordError("bad_server_seed", N_("The server's seed may not contain ':'."),
                          field="seed.server")
    parts = [SEED_LABEL, server_seed,
             *(hashlib.sha256((text or "").encode()).hexdigest() for text in contributions)]
    return hashlib.sha256(":".join(parts).encode()).hexdigest()


def start_state(record: Mapping[str, Any]) -> GameState:
    """The match of ``record`` as dealt, from its derived seed."""
    return new_game(record["variant"], record["players"], seed=record["seed"]["deal"],
                    options=record["options"] or None)


@dataclass(frozen=True, slots=True)
class Step:
    """One move of a replay: its place (from 0), the move, and the state and events after."""

    index: int
    move: dict[str, Any]
    state: GameState
    events: list[Event] = field(default_factory=list)


def _results(state: GameState, rounds: list[RoundResult]) -> None:
    """Append the state's round result to ``rounds`` when it is a new one."""
    result = state.result
    if result is not None and (not rounds or rounds[-1]["round"] != result["round"]):
        rounds.append(thaw(result))


def make_record(*, variant: str, players: int, options: Mapping[str, Any],
                names: Sequence[str | None], bots: Sequence[str | None], server_seed: str,
                contributions: Sequence[str | None], moves: Sequence[Mapping[str, Any]],
                table: str | None = None) -> Record:
    """The record of a match: the moves replayed from the derived seed give each round's
    result and the winners (a record of a match not over has the rounds played so far)."""
    record: Record = {
        "format": FORMAT, "format_version": FORMAT_VERSION, "table": table,
        "variant": variant, "players": players, "options": dict(options),
        "seats": [{"seat": seat, "name": names[seat], "bot": bots[seat]}
                  for seat in range(players)],
        "seed": {"server": server_seed, "sha256": seed_commitment(server_seed),
                 "contributions": list(contributions),
                 "deal": derive_seed(server_seed, contributions)},
        "moves": [dict(move) for move in moves],
        "rounds": [], "winners": [], "is_over": False,
    }
    state = start_state(record)
    rounds: list[RoundResult] = []
    _results(state, rounds)
    for move in moves:
        state, _ = apply_move(state, move)
        _results(state, rounds)
    record["rounds"] = rounds
    record["winners"] = list(state.winners)
    record["is_over"] = state.is_over
    return record


def dumps(record: Record) -> str:
    """The record as JSON text, one key order, readable by :func:`loads` anywhere."""
    return json.dumps(record, ensure_ascii=False, indent=1) + "\n"


def _bad(field_name: str) -> RecordError:
    return RecordError(
        "bad_record", N_("The record's {name} is missing or not of the right kind."),
        field=field_name or None, name=field_name)


def _expect(data: Mapping[str, Any], name: str, kind: type | tuple[type, ...],
            where: str = "") -> Any:
    value = data.get(name)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise _bad(where + name)
    return value


def loads(text: str | bytes) -> Record:
    """A record read from JSON text, its layout checked (:class:`RecordError` if not one)."""
    data: Record
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise RecordError("bad_record", N_("This is not JSON text."), field=None) from None
    if not isinstance(data, dict):
        raise RecordError("bad_record", N_("A record is a JSON object."), field=None)
    if data.get("format") != FORMAT:
        raise RecordError("unknown_format", N_("This is not a thirtyone match record."),
                          field="format")
    if data.get("format_version") != FORMAT_VERSION:
        raise RecordError(
            "unknown_format_version",
            N_("This record is of format version {found}; this engine reads version {known}."),
            field="format_version", found=data.get("format_version"), known=FORMAT_VERSION)
    _expect(data, "variant", str)
    players = _expect(data, "players", int)
    _expect(data, "options", dict)
    seats = _expect(data, "seats", list)
    if len(seats) != players or not all(isinstance(seat, dict) for seat in seats):
        raise _bad("seats")
    seed = _expect(data, "seed", dict)
    for name in ("server", "sha256", "deal"):
        _expect(seed, name, str, "seed.")
    contributions = _expect(seed, "contributions", list, "seed.")
    if len(contributions) != players or not all(
            text is None or isinstance(text, str) for text in contributions):
        raise _bad("seed.contributions")
    moves = _expect(data, "moves", list)
    if not all(isinstance(move, dict) for move in moves):
        raise _bad("moves")
    _expect(data, "rounds", list)
    _expect(data, "winners", list)
    _expect(data, "is_over", bool)
    return data


def load(path: str) -> Record:
    """The record in the file at ``path``."""
    try:
        with open(path, encoding="utf-8") as file:
            return loads(file.read())
    except OSError as error:
        raise RecordError("unreadable_record", N_("Cannot read {path}: {reason}."),
                          field=None, path=path, reason=error.strerror or str(error)) from None


def replay(record: Record) -> Iterator[Step]:
    """The match step by step: first the deal (index -1, no move), then each move in order.
    A move the engine refuses raises :class:`RecordError` naming it."""
    try:
        state = start_state(record)
    except ThirtyOneError as error:
        raise RecordError("bad_record_rules", N_("The record's game cannot be dealt: {reason}"),
                          field="options", reason=str(error)) from None
    yield Step(-1, {}, state)
    for index, move in enumerate(record["moves"]):
        try:
            state, events = apply_move(state, move)
        except MoveError as error:
            raise RecordError(
                "illegal_move", N_("Move {number} ({move}) is not legal there: {reason}"),
                field=f"moves.{index}", number=index + 1,
                move=json.dumps(move, ensure_ascii=False), reason=str(error)) from None
        yield Step(index, dict(move), state, events)


@dataclass(frozen=True, slots=True)
class Check:
    """One thing :func:`verify` checked and found right: a stable code and a sentence."""

    code: str
    message: str
    params: dict[str, Any]


def verify(record: Record) -> list[Check]:
    """Every check of the record, in order: the commitment, the seed's derivation, each move
    by the engine's rules, each round's result and the winners. The first that fails raises
    :class:`RecordError` saying what differs."""
    checks = [Check("format", N_("Format {format} version {version}."),
                    {"format": FORMAT, "version": FORMAT_VERSION})]
    seed = record["seed"]
    if seed_commitment(seed["server"]) != seed["sha256"]:
        raise RecordError(
            "commitment_mismatch",
            N_("The server's seed does not match its published SHA-256 {sha256}."),
            field="seed.server", sha256=seed["sha256"])
    checks.append(Check("commitment", N_("The server's seed matches its SHA-256 {sha256}."),
                        {"sha256": seed["sha256"]}))
    contributions = seed["contributions"]
    if derive_seed(seed["server"], contributions) != seed["deal"]:
        raise RecordError(
            "derivation_mismatch",
            N_("The deal's seed is not the one derived from the server's seed and the "
               "contributions."), field="seed.deal")
    given = sum(1 for text in contributions if text)
    checks.append(Check("derivation", N_(
        "The deal's seed derives from the server's seed and the seats' contributions "
        "(given: {count})."),
        {"count": given}))
    rounds: list[RoundResult] = []
    state: GameState | None = None
    for step in replay(record):
        state = step.state
        _results(state, rounds)
    assert state is not None  # the replay always yields the deal
    checks.append(Check("moves", N_(
        "Every move is legal by the rules of {variant} (moves: {count})."),
        {"count": len(record["moves"]), "variant": state.rules.variant}))
    if len(rounds) != len(record["rounds"]):
        raise RecordError(
            "rounds_mismatch",
            N_("Rounds settled by the replay: {replayed}; listed in the record: {recorded}."),
            field="rounds", replayed=len(rounds), recorded=len(record["rounds"]))
    for index, (replayed, recorded) in enumerate(zip(rounds, record["rounds"], strict=True)):
        if replayed != recorded:
            raise RecordError(
                "round_mismatch",
                N_("Round {round}'s result differs from the replay's."),
                field=f"rounds.{index}", round=replayed["round"])
    checks.append(Check("rounds", N_("Every round's result matches the replay (rounds: {count})."),
                        {"count": len(rounds)}))
    if list(state.winners) != record["winners"] or state.is_over != record["is_over"]:
        raise RecordError("winners_mismatch",
                          N_("The winners or the match's end differ from the replay's."),
                          field="winners")
    if state.is_over:
        checks.append(Check("winners", N_("The match is over; the winners match: {winners}."),
                            {"winners": ", ".join(str(seat) for seat in state.winners)}))
    else:
        checks.append(Check("unfinished", N_("The match was not played to its end."), {}))
    return checks
