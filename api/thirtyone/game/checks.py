"""Reading a state from data: every fault refused with a code that names it.

Shared checks: the layout and types, the rules (``unknown_variant`` and the other option
codes), the seat count, every card parsed and in the deck exactly once (``duplicate_card``,
``missing_card``, ``card_not_in_deck``), phase, turn, dealer, knock, the seed, the round and
its bounds, the history (at most :data:`~thirtyone.game.state.HISTORY_LIMIT` moves, each of
the shape the engine records), the last round's result field by field, and the standing the
settlement allows: lives, points, chips and the pot, who may have won. Then the family checks
its own card counts (:meth:`FamilyFlow.check_state`).

A state comes from outside in open mode, so every size is bounded before anything is read in
full, and nothing is walked deeper than the layout goes: a request costs little whatever it
holds.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from typing import Any

from thirtyone.cards import ALL_CARDS, SUITS, Card, parse_card
from thirtyone.errors import N_, CardError, OptionError, StateError
from thirtyone.game.families import flow_for
from thirtyone.game.moves import MOVE_FIELDS, MoveField
from thirtyone.game.operations import MOVE_TYPES
from thirtyone.game.public import NOTHING_KNOWN, read_public, read_sealed_public
from thirtyone.game.settlement import PointsSettler, rounds_in_match
from thirtyone.game.settlers import settler_for
from thirtyone.game.shuffle import is_seed
from thirtyone.game.state import (
    HISTORY_LIMIT,
    MAX_ROUND,
    STATE_VERSION,
    GameState,
    Phase,
    Seat,
    thaw,
)
from thirtyone.hands import CATEGORY_NAMES
from thirtyone.rules import Rules, Settlement, read_rules

_CARD_PLACES = ("stock", "discard", "table", "out")
_MOST_CARDS = 54
"""No card place holds more cards than the largest deck."""
_COUNT_BITS = 63
"""Chips, points and stakes fit in 63 bits: an integer beyond is no count the rules reach."""


def bad(code: str, message: str, field: str | None = None, **params: Any) -> StateError:
    return StateError(code, message, field=field, **params)


def malformed(field: str) -> StateError:
    return bad("bad_state", N_("the state's {part} is missing or of the wrong type"),
               field=field, part=field)


def _get(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...],
         *, optional: bool = False) -> Any:
    value = data.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, kind):
        raise malformed(key)
    return value


def _int(data: Mapping[str, Any], key: str, *, optional: bool = False) -> Any:
    value = data.get(key)
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value.bit_length() > _COUNT_BITS:
        raise malformed(key)
    return value


def _cards(codes: Any, field: str) -> tuple[Card, ...]:
    if not isinstance(codes, list) or len(codes) > _MOST_CARDS:
        raise malformed(field)
    try:
        return tuple(parse_card(code) for code in codes)
    except CardError as error:
        raise bad(error.code, error.message, field=field, **error.params) from None


def _rules(data: Any) -> Rules:
    if not isinstance(data, Mapping):
        raise malformed("rules")
    try:
        return read_rules(data)
    except OptionError as error:
        raise bad(error.code, error.message, field=f"rules.{error.field or 'variant'}",
                  **error.params) from None


def _seat(data: Any, index: int) -> Seat:
    field = f"seats.{index}"
    if not isinstance(data, Mapping):
        raise malformed(field)
    try:
        return Seat(
            lives=_int(data, "lives"), chips=_int(data, "chips"), points=_int(data, "points"),
            free_ride=_get(data, "free_ride", bool), eliminated=_get(data, "eliminated", bool),
        )
    except StateError as error:
        raise malformed(f"{field}.{error.field}") from None


def read_state(data: Any) -> GameState:
    """The :class:`GameState` that ``data`` describes (see :meth:`GameState.from_dict`)."""
    if not isinstance(data, Mapping):
        raise bad("bad_state", N_("a game state must be an object"))
    if data.get("version") != STATE_VERSION:
        raise bad("bad_version", N_("unknown state version {version!r}"), field="version",
                  version=data.get("version"))
    rules = _rules(data.get("rules"))
    seats_data = _get(data, "seats", list)
    _check_players(rules, len(seats_data))
    seats = tuple(_seat(seat, i) for i, seat in enumerate(seats_data))
    hands_data = _get(data, "hands", list)
    if len(hands_data) != len(seats):
        raise bad("bad_state", N_("there must be one hand per seat"), field="hands")
    hands = tuple(_cards(hand, f"hands.{i}") for i, hand in enumerate(hands_data))
    places = {place: _cards(data.get(place), place) for place in _CARD_PLACES}
    face_up = _get(data, "table_face_up", list)
    if len(face_up) != len(places["table"]) or not all(isinstance(up, bool) for up in face_up):
        raise bad("bad_table", N_("every table card needs its face-up flag"),
                  field="table_face_up")
    pickup = data.get("pickup")
    seed = data.get("seed")
    if not is_seed(seed):
        raise bad("bad_seed", N_("a seed is a number or a text of up to 200 characters"),
                  field="seed")
    result = data.get("result")
    check_result(result, len(seats))
    history = data.get("history")
    check_history(history, len(seats))
    winners = _get(data, "winners", list)
    if len(winners) > len(seats):
        raise bad("bad_winners", N_("the winners do not fit the phase"), field="winners")
    state = GameState(
        rules=rules, seed=seed, seats=seats, dealer=_int(data, "dealer"),
        round=_int(data, "round"), phase=_get(data, "phase", str), turn=_int(
            data, "turn", optional=True), turns=_int(data, "turns"), hands=hands,
        stock=places["stock"], discard=places["discard"], table=places["table"],
        table_face_up=tuple(face_up), out=places["out"],
        knocker=_int(data, "knocker", optional=True), final_turns=_int(data, "final_turns"),
        pickup=None if pickup is None else _cards([pickup], "pickup")[0],
        pot=_int(data, "pot"), result=thaw(result),
        winners=tuple(winners), history=tuple(thaw(history)),
    )
    check_state(state)
    if data.get("public") is not None:
        try:
            known = read_public(data["public"], state)
        except ValueError:
            raise bad("bad_public", N_("what the round made public does not fit the cards"),
                      field="public") from None
        state = state.evolve(public=known)
    return state


_BY_CODE: dict[str, Card] = {card.code: card for card in ALL_CARDS}


def read_sealed_state(data: Mapping[str, Any]) -> GameState:
    """The state that :meth:`GameState.to_dict` wrote and the server sealed itself, read back
    without :func:`read_state`'s checks: it passed them when it was made, and nobody else can
    write a sealed token. For authenticated data only; anything else goes through
    :func:`read_state`.

    This is the path of every move in a sealed game: reading a whole state field by field,
    card by card, cost more than the move itself.

    >>> from thirtyone.game import new_game
    >>> state = new_game("scat", 3, seed="sealed", dealer=0)
    >>> read_sealed_state(state.to_dict()) == read_state(state.to_dict())
    True
    """
    card = _BY_CODE.__getitem__
    rules = data["rules"]
    pickup = data["pickup"]
    public = data.get("public")
    # Cards looked up with map() rather than a generator per hand (a third of the time), and
    # what the round made public read at once, trusted as the rest is, rather than checked
    # against the state (read_public) and set by a second copy of it.
    return GameState(
        rules=_sealed_rules(rules["variant"], tuple(rules["options"].items())),
        seed=data["seed"],
        seats=tuple([Seat(seat["lives"], seat["chips"], seat["points"], seat["free_ride"],
                          seat["eliminated"]) for seat in data["seats"]]),
        dealer=data["dealer"], round=data["round"], phase=data["phase"], turn=data["turn"],
        turns=data["turns"],
        hands=tuple([tuple(map(card, hand)) for hand in data["hands"]]),
        stock=tuple(map(card, data["stock"])),
        discard=tuple(map(card, data["discard"])),
        table=tuple(map(card, data["table"])),
        table_face_up=tuple(data["table_face_up"]),
        out=tuple(map(card, data["out"])),
        knocker=data["knocker"], final_turns=data["final_turns"],
        pickup=None if pickup is None else card(pickup), pot=data["pot"],
        result=data["result"], winners=tuple(data["winners"]), history=tuple(data["history"]),
        public=NOTHING_KNOWN if public is None else read_sealed_public(public, card),
    )


@functools.lru_cache(maxsize=256)
def _sealed_rules(variant: str, options: tuple[tuple[str, Any], ...]) -> Rules:
    return read_rules({"variant": variant, "options": dict(options)})


def check_state(state: GameState) -> None:
    """Raise :class:`StateError` if ``state`` is not a position the rules can reach."""
    rules = state.rules
    n = state.players
    _check_players(rules, n)
    _check_cards(state)
    try:
        flow = flow_for(rules)
    except OptionError as error:
        raise bad(error.code, error.message, field="rules", **error.params) from None
    playing = state.phase in flow.phases
    if not playing and state.phase not in (Phase.ROUND_OVER, Phase.GAME_OVER):
        raise bad("bad_phase", N_("{phase!r} is not a phase of {variant!r}"), field="phase",
                  phase=state.phase, variant=rules.variant)
    if not state.active_seats:
        raise bad("bad_seats", N_("every seat is eliminated"), field="seats")
    _check_counts(state)
    _check_turn(state, playing)
    check_history(state.history, n)
    check_result(state.result, n)
    _check_seats(state)
    _check_settlement(state)
    flow.check_state(state)


def _check_counts(state: GameState) -> None:
    """The dealer, the round and turn counts, the seed."""
    rules = state.rules
    if not 0 <= state.dealer < state.players:
        raise bad("bad_dealer", N_("the dealer must be a seat"), field="dealer")
    if not 1 <= state.round <= MAX_ROUND or not 0 <= state.turns <= rules.max_turns:
        raise bad("bad_round", N_("the round or turn count is out of range"), field="round")
    if not is_seed(state.seed):
        raise bad("bad_seed", N_("a seed is a number or a text of up to 200 characters"),
                  field="seed")


def _check_turn(state: GameState, playing: bool) -> None:
    """The seat to move, the knock and its final turns, the card just taken: a phase of
    play has a seat to move (and the card taken is in its hand), the round's end none."""
    n = state.players
    active = state.active_seats
    if playing != (state.turn is not None) or (
        state.turn is not None and state.turn not in active
    ):
        raise bad("bad_turn", N_("the seat to move does not fit the phase"), field="turn",
                  turn=state.turn)
    knocker, final = state.knocker, state.final_turns
    if knocker is not None and knocker not in (active if playing else range(n)):
        raise bad("bad_knock", N_("the knocker must be a seat in the match"), field="knocker")
    if not 0 <= final < (len(active) if playing else n) or (
        playing and (final > 0) != (knocker is not None)
    ):
        raise bad("bad_knock", N_("the final turns left do not fit the knock"),
                  field="final_turns")
    if state.pickup is not None and (
        state.phase != Phase.DISCARD or state.pickup not in state.hands[state.turn or 0]
    ):
        raise bad("bad_pickup", N_("the card taken from the discard pile must be in the hand "
                                   "of the seat to discard"), field="pickup")


def _check_players(rules: Rules, players: int) -> None:
    low, high = rules.preset.players
    if not low <= players <= high:
        raise bad("bad_players", N_("{variant!r} is played by {minimum} to {maximum} players"),
                  field="seats", variant=rules.variant, minimum=low, maximum=high)


def _check_cards(state: GameState) -> None:
    deck = state.rules.deck_cards
    seen = 0
    for place, cards in (("hands", [c for hand in state.hands for c in hand]),
                         ("stock", state.stock), ("discard", state.discard),
                         ("table", state.table), ("out", state.out)):
        for card in cards:
            if card not in deck:
                raise bad("card_not_in_deck", N_("{card} is not in the deck {deck}"),
                          field=place, card=card.code, deck=deck.id)
            if seen & card.mask:
                raise bad("duplicate_card", N_("{card} is in the state twice"), field=place,
                          card=card.code)
            seen |= card.mask
    missing = [card.code for card in deck if not seen & card.mask]
    if missing:
        raise bad("missing_card", N_("{card} is missing from the state"), field="stock",
                  card=missing[0], cards=missing)


def _check_seats(state: GameState) -> None:
    rules = state.rules
    for index, seat in enumerate(state.seats):
        if seat.lives < 0 or seat.lives > rules.lives or (seat.free_ride and seat.lives) or (
            rules.settlement is not Settlement.LIVES and (seat.lives or seat.free_ride)
        ):
            raise bad("bad_lives", N_("seat {seat} has an impossible number of lives"),
                      field=f"seats.{index}.lives", seat=index)
        if seat.points < 0:
            raise bad("bad_points", N_("seat {seat} has negative points"),
                      field=f"seats.{index}.points", seat=index)
    if state.pot < 0 or sum(seat.chips for seat in state.seats) + state.pot != 0:
        raise bad("chips_not_conserved",
                  N_("the seats' chips and the pot must add up to nothing"), field="pot")
    winners = state.winners
    if (state.phase == Phase.GAME_OVER) != bool(winners) or any(
        isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.players
        or state.seats[seat].eliminated for seat in winners
    ):
        raise bad("bad_winners", N_("the winners do not fit the phase"), field="winners")


# The history and the result: plain data, read field by field

def _fits(spec: MoveField) -> Callable[[Any, int], bool]:
    """Whether a value fits a move's field (:data:`~thirtyone.game.moves.MOVE_FIELDS`) in the
    history of a table of ``n`` seats."""
    low, high, most = spec.low, spec.high, spec.most
    fits: dict[str, Callable[[Any, int], bool]] = {
        "seat": lambda value, n: value is None or _is_seat(value, n),
        "type": lambda value, n: value in MOVE_TYPES,
        "choice": lambda value, n: value in spec.choices,
        "card": lambda value, n: _is_code(value),
        # Cards given face down are hidden (``None``) in a seat's view, never in the state.
        "cards": lambda value, n: _is_list(value, most) and all(_is_code(code) for code in value),
        "int": lambda value, n: _is_int(value) and low <= value <= high,
        "positions": lambda value, n: _is_list(value, most) and all(
            _is_int(position) and low <= position <= high for position in value),
        "bool": lambda value, n: isinstance(value, bool),
        "flag": lambda value, n: value is True,
    }
    return fits[spec.kind]


_MOVE_FIELDS = {name: _fits(spec) for name, spec in MOVE_FIELDS.items()}
"""Every field a move in the history may have, and whether a value fits it at a table of
``n`` seats."""


def check_history(history: Any, players: int) -> None:
    """Refuse a history that is not a list of at most :data:`HISTORY_LIMIT` moves of the shape
    the engine records (``bad_history``)."""
    if not isinstance(history, list | tuple) or len(history) > HISTORY_LIMIT:
        raise bad("bad_history", N_("the history must list at most {limit} moves"),
                  field="history", limit=HISTORY_LIMIT)
    for index, entry in enumerate(history):
        if not isinstance(entry, Mapping) or "type" not in entry or "seat" not in entry or any(
            key not in _MOVE_FIELDS or not _MOVE_FIELDS[key](value, players)
            for key, value in entry.items()
        ):
            raise bad("bad_history", N_("move {index} of the history is not a move"),
                      field=f"history.{index}", index=index)


_REASON = re.compile(r"[a-z0-9_]{1,32}")


def _shown_hand(value: Any, n: int) -> bool:
    if value is None:
        return True
    if not isinstance(value, Mapping) or set(value) != {"cards", "score"}:
        return False
    cards, score = value["cards"], value["score"]
    return _is_list(cards, 3) and all(_is_code(code) for code in cards) and (
        score is None or _is_score(score))


def _is_score(score: Any) -> bool:
    if not isinstance(score, Mapping) or set(score) != {
            "points", "category", "suit", "counted", "cards", "wild"}:
        return False
    points, wild = score["points"], score["wild"]
    return (
        isinstance(points, int | float) and not isinstance(points, bool) and 0 <= points <= 64
        and isinstance(score["category"], str) and score["category"] in CATEGORY_NAMES
        and (score["suit"] is None or score["suit"] in SUITS)
        and all(_is_list(score[key], 3) and all(_is_code(code) for code in score[key])
                for key in ("counted", "cards"))
        and isinstance(wild, Mapping) and len(wild) <= 3
        and all(_is_code(key) and _is_code(code) for key, code in wild.items())
    )


_RESULT_FIELDS: dict[str, Callable[[Any, int], bool]] = {
    "round": lambda value, n: _is_int(value) and 1 <= value <= MAX_ROUND,
    "reason": lambda value, n: isinstance(value, str) and _REASON.fullmatch(value) is not None,
    "knocker": lambda value, n: value is None or _is_seat(value, n),
    "blitz": lambda value, n: _is_seats(value, n),
    "hands": lambda value, n: _is_list(value, n, exactly=True) and all(
        _shown_hand(hand, n) for hand in value),
    "winners": lambda value, n: _is_seats(value, n),
    "lives_lost": lambda value, n: _is_list(value, n, exactly=True) and all(
        _is_int(lost) and 0 <= lost <= 3 for lost in value),
    "eliminated": lambda value, n: _is_seats(value, n),
    "draw": lambda value, n: isinstance(value, bool),
    "points": lambda value, n: _is_list(value, n, exactly=True) and all(
        _is_int(gain) and 0 <= gain <= PointsSettler.BLITZ for gain in value),
    "ranks": lambda value, n: _is_list(value, n, exactly=True) and all(
        rank in (None, "high", "middle", "low", "blitz") for rank in value),
    "deal_winners": lambda value, n: _is_seats(value, n),
    "carry": lambda value, n: _is_seats(value, n),
    "losers": lambda value, n: _is_seats(value, n),
    "stake": lambda value, n: _is_count(value),
    "total": lambda value, n: _is_count(value),
}
"""Every field a round's ``result`` may have, over all settlements and families, and whether a
value fits it at a table of ``n`` seats. A family or settlement that writes a new field
declares it here."""


def check_result(result: Any, players: int) -> None:
    """Refuse a ``result`` that is not ``None`` or an object of the fields above
    (``bad_result``)."""
    if result is None:
        return
    if not isinstance(result, Mapping):
        raise malformed("result")
    for key, value in result.items():
        if key not in _RESULT_FIELDS or not _RESULT_FIELDS[key](value, players):
            raise bad("bad_result", N_("the last round's result has a wrong {part}"),
                      field=f"result.{key}" if isinstance(key, str) else "result",
                      part=key if isinstance(key, str) else "field")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_count(value: Any) -> bool:
    return _is_int(value) and value >= 0 and value.bit_length() <= _COUNT_BITS


def _is_seat(value: Any, players: int) -> bool:
    return _is_int(value) and 0 <= value < players


def _is_list(value: Any, most: int, *, exactly: bool = False) -> bool:
    return isinstance(value, list | tuple) and (
        len(value) == most if exactly else len(value) <= most)


def _is_seats(value: Any, players: int) -> bool:
    return _is_list(value, players) and all(
        _is_seat(seat, players) for seat in value) and len(set(value)) == len(value)


def _is_code(value: Any) -> bool:
    if not isinstance(value, str) or len(value) > 3:
        return False
    try:
        return parse_card(value).code == value
    except CardError:
        return False


def _check_settlement(state: GameState) -> None:
    """The standing the settlement allows: who has lives, points or chips, how far the match
    may go, who may have won, and a result that belongs to this match."""
    rules, seats, phase = state.rules, state.seats, state.phase
    settlement = rules.settlement
    over = phase in (Phase.ROUND_OVER, Phase.GAME_OVER)
    settled = state.round if over else state.round - 1
    _check_last_result(state, over, settled)
    if settlement is not Settlement.POINTS and any(seat.points for seat in seats):
        raise bad("bad_points", N_("seat {seat} has points in a match not played for points"),
                  field="seats", seat=next(i for i, seat in enumerate(seats) if seat.points))
    limit = rounds_in_match(state) if settlement in (
        Settlement.LIVES, Settlement.POINTS, Settlement.POT) else None
    if limit is not None and (state.round > limit or (
            phase == Phase.ROUND_OVER and state.round >= limit)):
        raise bad("bad_round", N_("the round or turn count is out of range"), field="round")
    # What each settlement's own standing may be is checked beside its settler.
    settler_for(rules).check_standing(state, settled, limit)


def _check_last_result(state: GameState, over: bool, settled: int) -> None:
    """The last round's result: there once a round was settled (``settled`` rounds), of a
    round played, naming the match's winners at its end, and carrying a pot only for seats
    still in the match tied where the rules carry it."""
    result = state.result
    if result is not None and (result.get("round", 1) > state.round or settled < 1):
        raise bad("bad_result", N_("the last round's result has a wrong {part}"),
                  field="result.round", part="round")
    if over and result is None:
        raise malformed("result")
    if (state.phase == Phase.GAME_OVER and result is not None
            and list(result.get("winners", ())) != list(state.winners)):
        raise bad("bad_winners", N_("the winners do not fit the phase"), field="winners")
    carry = result.get("carry") if result else None
    if carry and (state.rules.tie != "carry" or len(carry) < 2
                  or any(state.seats[seat].eliminated for seat in carry)):
        raise bad("bad_result", N_("the last round's result has a wrong {part}"),
                  field="result.carry", part="carry")
