"""Sealed games: what a token and a seat key allow, across servers, and in open mode."""

from __future__ import annotations

import base64
import json
import random
import zlib

import pytest
from cryptography.fernet import Fernet
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from tests.conftest import sampled

from thirtyone.events import EVENT_MESSAGES
from thirtyone.game import GameState, apply_move, legal_moves, new_game
from thirtyone.rules import PRESETS
from thirtyone.web import create_app
from thirtyone.web.games import MoveSchema
from thirtyone.web.problems import Problem
from thirtyone.web.sealing import Sealer, secrets_of

from .conftest import SECRET


def _seat_request(game, seat, **extra):
    return {"token": game["token"], "seat": seat, "seat_key": game["seat_keys"][seat], **extra}


def test_new_game_gives_a_token_one_key_per_seat_and_a_spectator_view(start_game):
    game = start_game(players=4)
    assert len(game["seat_keys"]) == len(set(game["seat_keys"])) == 4
    assert game["seat"] is None
    assert game["view"]["hands"] == [[None] * 3] * 4
    assert game["legal_moves"] == []
    assert len(game["token"]) < 1500


def test_token_hides_the_cards(start_game):
    token = start_game()["token"]
    sealed = base64.urlsafe_b64decode(token)
    assert b"stock" not in sealed and b"hands" not in sealed
    with pytest.raises(Problem):
        Sealer("another secret").unseal(token)
    _, state = Sealer(SECRET).unseal(token)
    assert state == new_game("scat", 3, seed="web tests", dealer=0).to_dict()


def test_a_seat_sees_its_own_hand_and_its_moves(client, start_game):
    game = start_game()
    seat = game["to_move"]
    answer = client.post("/v1/games/view", json=_seat_request(game, seat)).json
    assert all(answer["view"]["hands"][seat])
    assert all(card is None for other in (0, 1, 2) if other != seat
               for card in answer["view"]["hands"][other])
    assert {"type": "knock", "description": "Knock"} in answer["legal_moves"]
    assert "token" not in answer


def test_a_seat_not_to_move_has_no_moves(client, start_game):
    game = start_game()
    other = (game["to_move"] + 1) % 3
    assert client.post("/v1/games/view", json=_seat_request(game, other)).json[
        "legal_moves"] == []


@pytest.mark.parametrize("endpoint", ["/v1/games/view", "/v1/games/validate", "/v1/games/moves"])
def test_a_wrong_seat_key_is_forbidden(client, start_game, endpoint):
    game = start_game()
    seat = game["to_move"]
    other_game = start_game(seed="another deal")
    for wrong in (game["seat_keys"][(seat + 1) % 3], other_game["seat_keys"][seat], "guess"):
        body = {**_seat_request(game, seat, seat_key=wrong), "move": {"type": "knock"}}
        if endpoint == "/v1/games/view":
            del body["move"]
        response = client.post(endpoint, json=body)
        assert response.status_code == 403
        assert response.json["code"] == "wrong_seat_key"


def test_moving_needs_a_seat_and_its_key(client, start_game):
    game = start_game()
    response = client.post("/v1/games/moves", json={"token": game["token"],
                                                     "move": {"type": "knock"}})
    assert response.status_code == 403
    assert response.json["code"] == "seat_key_required"


@pytest.mark.parametrize(
    "damage",
    [
        lambda token: token[:-8],
        lambda token: token[:40] + ("A" if token[40] != "A" else "B") + token[41:],
        lambda token: "not a token",
        lambda token: "gAAAAA" + token[6:][::-1],
    ],
    ids=["cut", "altered", "garbled", "forged"],
)
def test_damaged_tokens_are_refused(client, start_game, damage):
    game = start_game()
    body = _seat_request(game, game["to_move"], move={"type": "knock"})
    body["token"] = damage(game["token"])
    response = client.post("/v1/games/moves", json=body)
    assert response.status_code == 422
    assert response.json["code"] == "bad_token"
    assert response.json["errors"][0]["field"] == "token"


def test_a_token_sealed_with_another_secret_is_refused(start_game):
    game = start_game()
    other = create_app({"TESTING": True, "THIRTYONE_SECRET_KEY": "another secret"})
    response = other.test_client().post(
        "/v1/games/view", json=_seat_request(game, game["to_move"])
    )
    assert response.json["code"] == "bad_token"


def _fernet_of(setting):
    """The Fernet key that sealing.Sealer seals with under ``setting``, spelled out: the
    tokens' format, which tokens already handed out depend on."""
    key = HKDF(algorithm=hashes.SHA256(), length=32, salt=None,
               info=b"thirtyone token").derive(secrets_of(setting)[0])
    return Fernet(base64.urlsafe_b64encode(key))


def test_tokens_sealed_with_zlibs_default_window_still_open(client, start_game):
    game = start_game()
    packed = _fernet_of(SECRET).decrypt(game["token"])
    assert packed[0] == 0x48  # zlib's header: deflate, a 4 KB window (2 ** (4 + 8))
    game_id, state = Sealer(SECRET).unseal(game["token"])
    # A token as sealed before: zlib's fastest level and default window over the same JSON.
    old = _fernet_of(SECRET).encrypt(zlib.compress(json.dumps(
        {"v": 1, "game": game_id, "state": state}).encode(), 1)).decode()
    assert Sealer(SECRET).unseal(old) == (game_id, state)
    seat = game["to_move"]
    answer = client.post("/v1/games/moves", json=_seat_request(
        {**game, "token": old}, seat, move={"type": "draw", "source": "stock"}))
    assert answer.status_code == 200, answer.json
    assert Sealer(SECRET).unseal(answer.json["token"])[0] == game_id
    # What the old format holds is authenticated as the new one is.
    forged = _fernet_of("another secret").encrypt(zlib.compress(b'{"v":1}')).decode()
    with pytest.raises(Problem):
        Sealer(SECRET).unseal(forged)


def test_two_servers_with_one_secret_serve_one_game(start_game):
    first = create_app({"TESTING": True, "THIRTYONE_SECRET_KEY": SECRET}).test_client()
    second = create_app({"TESTING": True, "THIRTYONE_SECRET_KEY": SECRET}).test_client()
    game = start_game()
    token = game["token"]
    for step in range(6):
        server = (first, second)[step % 2]
        seat = server.post("/v1/games/view", json={"token": token}).json["to_move"]
        view = server.post(
            "/v1/games/view", json={**_seat_request(game, seat), "token": token}
        ).json
        answer = server.post("/v1/games/moves", json={
            **_seat_request(game, seat), "token": token, "move": view["legal_moves"][0],
        })
        assert answer.status_code == 200, answer.json
        token = answer.json["token"]
    assert first.post("/v1/games/view", json={"token": token}).json["view"]["turns"] >= 3


def test_validate_says_why_and_changes_nothing(client, start_game):
    game = start_game()
    seat = game["to_move"]
    other = (seat + 1) % 3
    legal = client.post("/v1/games/validate",
                        json=_seat_request(game, seat, move={"type": "knock"})).json
    assert legal == {"valid": True, "code": None, "reason": None, "field": None}
    refused = client.post("/v1/games/validate?lang=ru",
                          json=_seat_request(game, other, move={"type": "knock"})).json
    assert refused["valid"] is False
    assert refused["code"] == "not_your_turn"
    assert refused["reason"] == f"сейчас ходит игрок {seat}, а не игрок {other}"


def test_an_illegal_move_is_a_conflict_with_the_engine_code(client, start_game):
    game = start_game()
    seat = game["to_move"]
    response = client.post("/v1/games/moves", json=_seat_request(
        game, seat, move={"type": "discard", "card": "AS"}))
    assert response.status_code == 409
    assert response.json["code"] == "must_draw"


def test_a_whole_game_through_the_api(client, start_game):
    game = start_game(players=2, seed=7, options={"lives": 1, "free_ride": False})
    token, events = game["token"], []
    for _ in range(2000):
        public = client.post("/v1/games/view", json={"token": token}).json
        if public["is_over"]:
            break
        seat = public["to_move"] if public["to_move"] is not None else 0
        moves = client.post("/v1/games/view",
                            json={**_seat_request(game, seat), "token": token}).json[
            "legal_moves"]
        # Draw from the stock and throw the drawn card back, knocking after a few turns.
        move = next((m for m in moves if m["type"] == "knock"), None) if public["view"][
            "turns"] > 4 else None
        move = move or moves[-1 if moves[0]["type"] == "discard" else 0]
        answer = client.post("/v1/games/moves?lang=it",
                             json={**_seat_request(game, seat), "token": token, "move": move})
        assert answer.status_code == 200, answer.json
        token = answer.json["token"]
        events += answer.json["events"]
    assert public["is_over"]
    assert public["view"]["winners"]
    assert events[-1]["type"] == "match_won"
    assert events[-1]["message"].startswith("Il giocatore")


def test_open_mode_round_trips_the_plain_state(client, start_game):
    game = start_game(sealed=False)
    assert "token" not in game and "seat_keys" not in game
    state = GameState.from_dict(game["state"])
    answer = client.post("/v1/games/moves", json={
        "state": game["state"], "seat": state.to_move, "move": {"type": "knock"}}).json
    assert answer["events"][0] == {"type": "knocked", "seat": state.to_move,
                                   "message": f"Seat {state.to_move} knocked."}
    assert GameState.from_dict(answer["state"]).knocker == state.to_move


def test_open_mode_state_is_checked_by_the_engine(client, start_game):
    state = start_game(sealed=False)["state"]
    state["hands"][0][0] = state["hands"][1][0]
    response = client.post("/v1/games/view", json={"state": state})
    assert response.status_code == 422
    assert response.json["title"] == "Invalid game state"


def test_a_game_comes_as_a_token_or_a_state(client, start_game):
    game = start_game(sealed=False)
    for body in ({}, {"token": "x", "state": game["state"]}):
        response = client.post("/v1/games/view", json=body)
        assert response.status_code == 422
        assert response.json["errors"][0]["code"] == "token_or_state"


def test_a_seat_outside_the_table(client, start_game):
    game = start_game()
    response = client.post("/v1/games/view", json={"token": game["token"], "seat": 5,
                                                   "seat_key": "x"})
    assert response.status_code == 422
    assert response.json["code"] == "bad_seat"


def test_bad_game_settings_name_their_field(client):
    for body, field in (({"players": 10}, "players"), ({"players": 3, "dealer": 5}, "dealer"),
                        ({"players": 3, "seed": [1]}, "seed")):
        response = client.post("/v1/games", json={"variant": "scat", **body})
        assert response.status_code == 422
        assert response.json["errors"][0]["field"] == field


def test_race_solver(client):
    answer = client.post("/v1/race/solve?lang=ru", json={"taken": []}).json
    assert answer["winning_values"] == [1, 2, 5]
    assert "пятёрка пик" in answer["winning_card_names"]
    response = client.post("/v1/race/solve", json={"taken": ["KS"]})
    assert response.json["code"] == "card_not_in_deck"


@pytest.mark.parametrize("seed", sampled(range(4)))
def test_every_legal_move_of_every_preset_fits_the_move_schema(seed):
    # Every preset in each run (each has its own move types); more deals in `make test`.
    schema, rng = MoveSchema(), random.Random(5 + seed)
    for variant, preset in PRESETS.items():
        players = max(preset.players[0], min(4, preset.players[1]))
        state = new_game(variant, players, seed=seed)
        for _ in range(200):
            moves = legal_moves(state)
            if not moves:
                break
            for move in moves:
                assert schema.validate(move) == {}, (variant, move)
            state, _ = apply_move(state, rng.choice(moves))


@pytest.mark.parametrize("variant", list(PRESETS))
def test_every_preset_plays_through_the_api_with_every_event_told(client, start_game, variant):
    preset, rng = PRESETS[variant], random.Random(variant)
    players = max(preset.players[0], min(3, preset.players[1]))
    game = start_game(lang="ru", variant=variant, players=players, seed=11)
    token = game["token"]
    for _ in range(150):
        public = client.post("/v1/games/view", json={"token": token}).json
        if public["is_over"]:
            break
        seat = public["to_move"] if public["to_move"] is not None else 0
        mine = client.post("/v1/games/view",
                           json={**_seat_request(game, seat), "token": token}).json
        answer = client.post("/v1/games/moves?lang=ru", json={
            **_seat_request(game, seat), "token": token,
            "move": rng.choice(mine["legal_moves"])})
        assert answer.status_code == 200, answer.json
        for event in answer.json["events"]:
            assert event["type"] in EVENT_MESSAGES, event
            assert "{" not in event["message"] and event["message"] != event["type"]
        token = answer.json["token"]


def test_the_secret_rotates_in_the_middle_of_a_game():
    def app_with(secret):
        return create_app({"TESTING": True, "THIRTYONE_SECRET_KEY": secret,
                           "SITE_DIR": None}).test_client()

    old, rotated, new_only = app_with("old"), app_with("new, old"), app_with("new")
    game = old.post("/v1/games", json={"players": 3, "seed": "rotate", "dealer": 0}).json
    seat = game["to_move"]
    draw = {"type": "draw", "source": "stock"}
    # The old secret still opens the old token and checks the old seat key...
    answer = rotated.post("/v1/games/moves", json=_seat_request(game, seat, move=draw))
    assert answer.status_code == 200, answer.json
    # ...and the next token is sealed with the new one, which alone now opens it.
    token = answer.json["token"]
    assert new_only.post("/v1/games/view", json={"token": token}).status_code == 200
    refused = old.post("/v1/games/view", json={"token": token})
    assert refused.status_code == 422 and refused.json["code"] == "bad_token"
    moved = rotated.post("/v1/games/moves", json=_seat_request(
        {**game, "token": token}, seat,
        move={"type": "discard", "card": answer.json["view"]["hands"][seat][0]}))
    assert moved.status_code == 200, moved.json
    # A key made under a secret no longer listed is refused.
    wrong = new_only.post("/v1/games/view", json=_seat_request({**game, "token": token}, seat))
    assert wrong.status_code == 403 and wrong.json["code"] == "wrong_seat_key"
