"""Input taken only as the contract spells it: the seat key's parameter, whole versions, and
the seats each variant allows."""

from __future__ import annotations

import pytest

from thirtyone.rules import PRESETS

from .test_tables import bearer, keys_of, open_table


@pytest.mark.parametrize("version", [0.9, 1.0, "1", True])
def test_a_version_that_is_not_an_integer_is_refused_and_nothing_is_played(client, version):
    created = open_table(client)
    table, keys = created["table"], keys_of(created)
    seat = created["to_move"]
    mine = client.get(f"/v1/tables/{table}", headers=bearer(keys[seat])).json
    refused = client.post(f"/v1/tables/{table}/moves", headers=bearer(keys[seat]),
                          json={"version": version, "move": mine["legal_moves"][0]})
    assert refused.status_code == 422, refused.json
    assert refused.json["errors"][0]["field"] == "version"
    assert client.get(f"/v1/tables/{table}").json["version"] == mine["version"]


@pytest.mark.parametrize("spelling", ["%6Bey", "%6bey", "k%65y", "%256Bey"])
def test_the_key_only_opens_a_seat_as_bearer_or_the_exact_key_parameter(client, spelling):
    created = open_table(client)
    table, key = created["table"], keys_of(created)[0]
    encoded = client.get(f"/v1/tables/{table}/updates?{spelling}={key}&wait=0")
    if spelling == "%256Bey":
        # Decodes to "%6Bey", which is no parameter of this operation: a spectator's view.
        assert encoded.status_code == 200 and encoded.json["seat"] is None
    else:
        assert (encoded.status_code, encoded.json["code"]) == (400, "key_parameter_encoded")
        assert encoded.mimetype == "application/problem+json"
    redirected = client.get(f"/v1/tables/{table}/events?{spelling}={key}&wait=0")
    if spelling != "%256Bey":
        # Refused before the redirect to the long poll would spell the name plainly.
        assert redirected.status_code == 400
    plain = client.get(f"/v1/tables/{table}/updates?key={key}&wait=0")
    assert plain.status_code == 200 and plain.json["seat"] == 0


def test_the_schema_bounds_of_players_are_the_variants(client, app):
    low = min(preset.players[0] for preset in PRESETS.values())
    high = max(preset.players[1] for preset in PRESETS.values())
    spec = client.get("/openapi.json").json["components"]["schemas"]
    for name in ("NewTable", "NewGame"):
        players = spec[name]["properties"]["players"]
        assert (players["minimum"], players["maximum"]) == (low, high), name
        for preset in PRESETS.values():
            assert f"`{preset.id}` {preset.players[0]}" in players["description"]
    for body, code in (({"players": low - 1}, "out_of_range"),
                       ({"players": high + 1}, "out_of_range"),
                       ({"players": 10}, "bad_players"), ({"players": 2.5}, "wrong_type")):
        refused = client.post("/v1/tables", json={"variant": "scat", **body})
        assert refused.status_code == 422
        assert {error["field"]: error["code"] for error in refused.json["errors"]} == {
            "players": code}
