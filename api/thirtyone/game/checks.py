"""Reading a state from data: every fault refused with a code that names it.

Shared checks: the layout and types, the rules (``unknown_variant`` and the other option
codes), the seat count, every card parsed and in the deck exactly once (``duplicate_card``,
``missing_card``, ``card_not_in_deck``), phase, turn, dealer, knock, lives, chips conserved,
winners. Then the family checks its own card counts (:meth:`FamilyFlow.check_state`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from thirtyone.cards import Card, parse_card
from thirtyone.errors import N_, CardError, OptionError, StateError
from thirtyone.game.state import STATE_VERSION, GameState, Phase, Seat, thaw
from thirtyone.rules import Rules, Settlement, make_rules

_CARD_PLACES = ("stock", "discard", "table", "out")


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
    if isinstance(value, bool) or not isinstance(value, int):
        raise malformed(key)
    return value


def _cards(codes: Any, field: str) -> tuple[Card, ...]:
    if not isinstance(codes, list):
        raise malformed(field)
    try:
        return tuple(parse_card(code) for code in codes)
    except CardError as error:
        raise bad(error.code, error.message, field=field, **error.params) from None


def _rules(data: Any) -> Rules:
    if not isinstance(data, Mapping):
        raise malformed("rules")
    try:
        return make_rules(data.get("variant"), data.get("options") or None)
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
    seats = tuple(_seat(seat, i) for i, seat in enumerate(_get(data, "seats", list)))
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
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise malformed("seed")
    result = data.get("result")
    if result is not None and not isinstance(result, Mapping):
        raise malformed("result")
    history = _get(data, "history", list)
    if not all(isinstance(entry, Mapping) for entry in history):
        raise malformed("history")
    state = GameState(
        rules=rules, seed=seed, seats=seats, dealer=_int(data, "dealer"),
        round=_int(data, "round"), phase=_get(data, "phase", str), turn=_int(
            data, "turn", optional=True), turns=_int(data, "turns"), hands=hands,
        stock=places["stock"], discard=places["discard"], table=places["table"],
        table_face_up=tuple(face_up), out=places["out"],
        knocker=_int(data, "knocker", optional=True), final_turns=_int(data, "final_turns"),
        pickup=None if pickup is None else _cards([pickup], "pickup")[0],
        pot=_int(data, "pot"), result=thaw(result),
        winners=tuple(_get(data, "winners", list)), history=tuple(thaw(history)),
    )
    check_state(state)
    return state


def check_state(state: GameState) -> None:
    """Raise :class:`StateError` if ``state`` is not a position the rules can reach."""
    from thirtyone.game.family import flow_for

    rules = state.rules
    low, high = rules.preset.players
    n = state.players
    if not low <= n <= high:
        raise bad("bad_players", N_("{variant!r} is played by {minimum} to {maximum} players"),
                  field="seats", variant=rules.variant, minimum=low, maximum=high)
    _check_cards(state)
    try:
        flow = flow_for(rules)
    except OptionError as error:
        raise bad(error.code, error.message, field="rules", **error.params) from None
    playing = state.phase in flow.phases
    if not playing and state.phase not in (Phase.ROUND_OVER, Phase.GAME_OVER):
        raise bad("bad_phase", N_("{phase!r} is not a phase of {variant!r}"), field="phase",
                  phase=state.phase, variant=rules.variant)
    active = state.active_seats
    if not active:
        raise bad("bad_seats", N_("every seat is eliminated"), field="seats")
    if not 0 <= state.dealer < n:
        raise bad("bad_dealer", N_("the dealer must be a seat"), field="dealer")
    if state.round < 1 or not 0 <= state.turns <= rules.max_turns:
        raise bad("bad_round", N_("the round or turn count is out of range"), field="round")
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
    _check_seats(state)
    flow.check_state(state)


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
