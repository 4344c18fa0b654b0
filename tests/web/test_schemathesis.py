"""The API against its own contract: schemathesis over every operation, all default checks.

JSON Schema cannot say everything the rules say: which cards are in a variant's deck, which
options a variant lets a table set and which values exclude each other, how many players a
variant takes, or which tokens this server sealed. Generated requests that schemathesis holds
valid ("positive") are therefore brought into that domain before they are sent, by the
smallest change: cards swapped for cards of the deck, options dropped, the player count
clamped, the token replaced by a real one, bots seated at real seats. Negative requests are
sent as generated and must be refused. The table event stream never ends by itself: it is left
out here and tested in tests/web/test_tables.py.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.generation.modes import GenerationMode

from thirtyone.errors import ThirtyOneError
from thirtyone.game import new_game
from thirtyone.hands.portable import option_from_text
from thirtyone.race import solve
from thirtyone.rules import OPTIONS, PRESETS, find_preset, make_rules
from thirtyone.web import create_app

app = create_app({"TESTING": True, "THIRTYONE_SECRET_KEY": "schemathesis", "SITE_DIR": None})
schema = schemathesis.openapi.from_wsgi("/openapi.json", app).exclude(
    path="/v1/tables/{table}/events"
)
sealer = app.extensions["thirtyone.sealer"]


def _rules_body(body: dict[str, Any]) -> Any:
    """Keep the options the variant accepts together; return its rules."""
    variant = body.get("variant", "scat")
    options = dict(body.get("options") or {})
    for name in list(options):
        try:
            make_rules(variant, options)
            break
        except ThirtyOneError:
            del options[name]
    body["options"] = options
    return make_rules(variant, options)


def _hand_in_deck(hand: list[str], deck: Any) -> list[str]:
    codes = [card.code for card in deck]
    kept = [code for code in hand if code in codes]
    spare = [code for code in codes if code not in kept]
    return kept + spare[: len(hand) - len(kept)]


def _repair_hands(body: dict[str, Any]) -> None:
    deck = _rules_body(body).deck_cards
    if "hand" in body:
        body["hand"] = _hand_in_deck(body["hand"], deck)
    if "hands" in body:
        body["hands"] = [_hand_in_deck(hand, deck) for hand in body["hands"]]


def _repair_new_game(body: dict[str, Any]) -> None:
    preset = find_preset(body.get("variant", "scat"))
    rules = _rules_body(body)
    try:
        new_game(rules, preset.players[0])
    except ThirtyOneError:
        # A family the engine cannot deal yet: play the default variant instead.
        body["variant"], body["options"] = "scat", {}
        preset = PRESETS["scat"]
    low, high = preset.players
    body["players"] = min(max(body["players"], low), high)
    if body.get("dealer") is not None:
        body["dealer"] %= body["players"]


def _repair_new_table(body: dict[str, Any]) -> None:
    _repair_new_game(body)
    body.pop("dealer", None)
    # One bot at most, in the last seat: a table of bots alone would play a whole match at
    # once, which tests/web/test_tables.py checks, at a cost of seconds per case here.
    levels = list((body.get("bots") or {}).values())[:1]
    body["bots"] = {str(body["players"] - 1): level for level in levels if body["players"] > 1}
    # The creator's own seat is one of the human seats (the first ones).
    if body.get("seat") is not None:
        humans = body["players"] - len(body["bots"])
        body["seat"] = body["seat"] % humans if humans else None


def _repair_game(body: dict[str, Any]) -> None:
    state = new_game("scat", 3, seed="schemathesis", dealer=0)
    if body.get("seat") is not None:
        body["seat"] %= 3
    if "token" in body or "state" not in body:
        game_id = sealer.new_game_id()
        body.pop("state", None)
        body["token"] = sealer.seal(game_id, state.to_dict())
        if body.get("seat") is not None and "seat_key" in body:
            body["seat_key"] = sealer.seat_key(game_id, body["seat"])
    else:
        body["state"] = state.to_dict()


def _repair_race(body: dict[str, Any]) -> None:
    taken = list(body["taken"])
    while taken:
        try:
            solve(taken)
            break
        except ThirtyOneError:
            taken.pop()
    body["taken"] = taken


def _repair_review(body: dict[str, Any]) -> None:
    # A record's moves are the moves of its match, which no schema can say: none at all.
    _repair_new_game(body)
    body["moves"] = []


REPAIRS = {
    "/v1/hands/score": _repair_hands,
    "/v1/hands/compare": _repair_hands,
    "/v1/hands/score-batch": _repair_hands,
    "/v1/games": _repair_new_game,
    "/v1/tables": _repair_new_table,
    "/v1/games/view": _repair_game,
    "/v1/games/validate": _repair_game,
    "/v1/games/moves": _repair_game,
    "/v1/games/advice": _repair_game,
    "/v1/race/solve": _repair_race,
    "/v1/review": _repair_review,
}


def _repair_hand_table(case: Any) -> None:
    """Keep the query's options that the variant accepts together (a 404 for an unknown
    variant is the right answer to a valid request)."""
    try:
        variant = find_preset(case.path_parameters["variant"]).id
    except ThirtyOneError:
        return
    query = dict(case.query or {})
    options = {name: option_from_text(name, str(value)) for name, value in query.items()
               if name in OPTIONS}
    kept = {"variant": variant, "options": options}
    _rules_body(kept)
    case.query = {name: value for name, value in query.items()
                  if name not in OPTIONS or name in kept["options"]}


def repair(case: Any) -> None:
    """Bring a case schemathesis holds valid into the rules' domain (see the docstring).

    Called by the test itself rather than as a `map_case` hook, which schemathesis skips for
    the cases of its coverage phase (boundary values built from the contract's examples).
    """
    if case.meta is None or case.meta.generation.mode != GenerationMode.POSITIVE:
        return
    if case.operation.path == "/v1/hand-tables/{variant}":
        _repair_hand_table(case)
    repair_body = REPAIRS.get(case.operation.path)
    if repair_body is not None and isinstance(case.body, dict):
        repair_body(case.body)
    if case.headers and "Idempotency-Key" in case.headers:
        # A key names one request: the same key with another body is refused, rightly.
        case.headers["Idempotency-Key"] = str(uuid.uuid4())


@pytest.mark.slow
@schema.parametrize()
@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
def test_api_keeps_its_contract(case):
    repair(case)
    case.call_and_validate()


class TableStates(schema.as_state_machine()):  # type: ignore[misc]
    """Stateful: tables opened, then read, played and polled through the contract's links
    from `openTable` (and the links schemathesis infers). No seat's key is sent: schemathesis
    checks that a request without a valid one is refused (ST401), which a real key would
    fail; play with keys is tested in tests/web/test_tables.py."""

    def before_call(self, case: Any) -> None:
        repair(case)


TestTableStates = pytest.mark.slow(TableStates.TestCase)
TestTableStates.settings = settings(max_examples=20, stateful_step_count=6, deadline=None,
                                    suppress_health_check=list(HealthCheck))
