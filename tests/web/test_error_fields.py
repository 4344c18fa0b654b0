"""Every `errors[].field` of a refusal is a path into the request that was refused.

The engine names its own arguments (`position`, `seat`, `card`, a state's `seats.2.lives`);
the web layer maps them to the request (`taken[1]`, `move.card`, `state.seats[2].lives`).
Bad requests are walked here: hand-written ones, hostile bodies, and open-mode states with
one field broken; each field at fault must be found in the body (or, for a field reported
missing, its parent must be).
"""

from __future__ import annotations

import copy
import random
import re
from typing import Any

import pytest

from thirtyone.game import new_game

from .test_contract import contract
from .test_hostile import _played, _settled
from .test_tables import open_table

_PART = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def _resolve(body: Any, path: str) -> tuple[bool, bool]:
    """Whether ``path`` names a value of ``body``, and whether all but its last part do."""
    node: Any = body
    parts = _PART.findall(path)
    for position, (key, index) in enumerate(parts):
        last = position == len(parts) - 1
        if index:
            if not isinstance(node, list) or int(index) >= len(node):
                return False, last
            node = node[int(index)]
        elif isinstance(node, dict) and key in node:
            node = node[key]
        else:
            return False, last
    return True, True


SPEC = contract()


def _documented(endpoint: str) -> set[str]:
    """The properties of an operation's request body, as the contract lists them."""
    spec = SPEC
    body = spec["paths"][endpoint]["post"]["requestBody"]["content"]["application/json"]
    name = body["schema"]["$ref"].rsplit("/", 1)[1]
    return set(spec["components"]["schemas"][name]["properties"])


def assert_fields_in_request(response: Any, body: Any, documented: set[str]) -> None:
    """Each field at fault is in ``body``; one that is missing (a required field, a key
    dropped from a state) must at least sit in a part of the body that is there, and at
    the top, be a property the contract documents."""
    assert response.status_code < 500, response.get_data(as_text=True)
    for error in (response.get_json() or {}).get("errors", []):
        field = error["field"]
        found, parent_found = _resolve(body, field)
        if not found:
            assert parent_found, (error, body)
            assert "." in field or "[" in field or field in documented, (error, body)


STATE = new_game("scat", 3, seed="fields", dealer=0).to_dict()

BAD_REQUESTS: list[tuple[str, Any]] = [
    ("/v1/race/solve", {"taken": ["5H", "zz"]}),
    ("/v1/race/solve", {"taken": ["5H", "KH"]}),
    ("/v1/race/solve", {"taken": ["5H", "6H", "5H"]}),
    ("/v1/race/solve", {"taken": [5]}),
    ("/v1/hands/score", {"hand": ["AS", "KS", "ZZ"]}),
    ("/v1/hands/score", {"hand": ["AS", "KS"], "variant": "nope"}),
    ("/v1/hands/compare", {"hands": [["AS", "KS", "QS"], ["AS", "2H", "2H"]]}),
    ("/v1/games", {"players": 20}),
    ("/v1/games", {"players": 2, "variant": "schnautz"}),
    ("/v1/games", {"players": 3, "options": {"lives": 99}}),
    ("/v1/games", {"players": 3, "dealer": 7}),
    ("/v1/games/view", {"state": STATE, "seat": 9}),
    ("/v1/games/view", {"state": STATE, "token": "x"}),
    ("/v1/games/view", {}),
    ("/v1/games/moves", {"state": STATE, "seat": 1, "move": {"type": "discard", "card": "2C"}}),
    ("/v1/games/moves", {"state": STATE, "seat": 0, "move": {"type": "draw", "source": "stock"}}),
    ("/v1/games/moves", {"state": STATE, "seat": 1, "move": {"type": "fly"}}),
    ("/v1/games/validate",
     {"state": STATE, "seat": 0, "move": {"type": "draw", "source": "stock"}}),
    ("/v1/review", {"variant": "race", "players": 2, "seed": 5, "dealer": 1,
                    "moves": [{"type": "take", "value": 5}, {"type": "take", "value": 50}]}),
]


@pytest.mark.parametrize(("path", "body"), BAD_REQUESTS)
def test_each_field_at_fault_is_in_the_request(client, path, body):
    response = client.post(path, json=body)
    if path == "/v1/games/validate":
        # A move refused by the engine is an answer here, with the field it names.
        answer = response.get_json()
        assert answer["valid"] is False
        assert _resolve(body, answer["field"])[0], answer
        return
    assert response.status_code in (403, 409, 422), response.get_json()
    assert_fields_in_request(response, body, _documented(path))




@pytest.mark.parametrize(("taken", "field"), [
    (["5H", "zz"], "taken[1]"), (["KH", "5H"], "taken[0]"), (["5H", "6H", "5H"], "taken[2]"),
])
def test_the_race_names_the_card_at_fault(client, taken, field):
    errors = client.post("/v1/race/solve", json={"taken": taken}).get_json()["errors"]
    assert [error["field"] for error in errors] == [field]


def test_a_table_move_names_no_seat_the_request_lacks(client):
    table = open_table(client)
    # The seat not to move: the engine refuses it, naming its `seat` argument.
    key = table["keys"][1 - table["to_move"]]
    body = {"version": table["version"], "move": {"type": "draw", "source": "stock"}}
    response = client.post(f"/v1/tables/{table['table']}/moves", json=body,
                           headers={"Authorization": f"Bearer {key}"})
    assert response.status_code == 409, response.get_json()
    assert response.get_json()["code"] == "not_your_turn"
    assert_fields_in_request(response, body, set(body))


def _broken_states() -> list[dict[str, Any]]:
    """Open-mode states with one value changed: a number, a list shortened, a key dropped."""
    chance = random.Random("fields")
    states = [_played("scat", 3, 5).to_dict(), _settled("scat", 3),
              _played("schwimmen", 4, 7).to_dict(), _played("race", 2, 3).to_dict()]
    broken = []
    for state in states:
        for key, value in state.items():
            changed = copy.deepcopy(state)
            if isinstance(value, int) and not isinstance(value, bool):
                changed[key] = value + chance.choice((-9, 7, 40))
            elif isinstance(value, list) and value:
                if isinstance(value[0], dict) and value[0]:
                    inner = chance.choice(list(value[0]))
                    changed[key][0][inner] = -3
                else:
                    changed[key] = value[:-1]
            else:
                del changed[key]
            broken.append(changed)
    return broken


@pytest.mark.parametrize("endpoint", ["/v1/games/view", "/v1/games/validate", "/v1/games/moves"])
def test_a_broken_state_is_named_inside_state(client, endpoint):
    refused = 0
    for state in _broken_states():
        body = {"state": state, "seat": 0, "move": {"type": "draw", "source": "stock"}}
        if endpoint == "/v1/games/view":
            del body["move"]
        response = client.post(endpoint, json=body)
        assert_fields_in_request(response, body, _documented(endpoint))
        if response.status_code == 422:
            refused += 1
            fields = [error["field"] for error in response.get_json().get("errors", [])]
            assert all(field.startswith("state") for field in fields), fields
    assert refused > 10
