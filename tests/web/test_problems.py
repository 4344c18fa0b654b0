"""Every error is RFC 9457 problem details, with a stable code, and never a 500."""

from __future__ import annotations

import pytest

from thirtyone.web import create_app

PROBLEM = "application/problem+json"


def assert_problem(response, status, code):
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == PROBLEM
    problem = response.json
    assert problem["status"] == status
    assert problem["code"] == code
    assert problem["type"] == f"urn:thirtyone:problem:{code}"
    assert problem["title"] and problem["detail"]
    return problem


def test_malformed_json_is_400(client):
    response = client.post("/v1/hands/score", data='{"hand": [', content_type="application/json")
    assert_problem(response, 400, "malformed_json")


def test_json_nested_beyond_recursion_is_400(client):
    response = client.post("/v1/hands/score", data="[" * 2_000, content_type="application/json")
    assert_problem(response, 400, "malformed_json")
    response = client.post("/v1/hands/score", data="[" * 100_000, content_type="application/json")
    assert_problem(response, 400, "too_many_values")


@pytest.mark.parametrize(
    "body",
    [b'{"players": 3, "seed": ' + b"1" * 5000 + b"}", b'{"players": NaN}',
     b'{"players": Infinity}', b'{"variant": "\xff"}'],
    ids=["huge integer", "NaN", "Infinity", "not UTF-8"],
)
def test_what_python_reads_but_json_is_not_is_400(client, body):
    response = client.post("/v1/games", data=body, content_type="application/json")
    assert_problem(response, 400, "malformed_json")


def test_body_that_is_not_json_is_415(client):
    response = client.post("/v1/hands/score", data="hand=AS", content_type="text/plain")
    assert_problem(response, 415, "unsupported_media_type")


def test_body_over_the_limit_is_413(client, app):
    body = b'{"hand": ["' + b"A" * app.config["MAX_CONTENT_LENGTH"] + b'"]}'
    response = client.post("/v1/hands/score", data=body, content_type="application/json")
    assert_problem(response, 413, "payload_too_large")


def test_unknown_field_names_the_field(client):
    response = client.post("/v1/hands/score", json={"hand": ["AS", "KS", "QS"], "colour": 1})
    problem = assert_problem(response, 422, "validation_failed")
    assert problem["errors"] == [
        {"field": "colour", "code": "unknown_field", "detail": "Unknown field."}
    ]


def test_wrong_type_in_a_list_names_the_item(client):
    response = client.post("/v1/hands/compare", json={"hands": [["AS", "KS", "QS"], [1, 2]]})
    problem = assert_problem(response, 422, "validation_failed")
    assert {error["field"] for error in problem["errors"]} == {"hands[1][0]", "hands[1][1]"}
    assert {error["code"] for error in problem["errors"]} == {"wrong_type"}


def test_missing_field(client):
    problem = assert_problem(client.post("/v1/hands/score", json={}), 422, "validation_failed")
    assert problem["errors"][0]["field"] == "hand"
    assert problem["errors"][0]["code"] == "missing_field"


def test_body_of_the_wrong_shape(client):
    problem = assert_problem(client.post("/v1/hands/score", json=[1]), 422, "validation_failed")
    assert problem["errors"][0]["code"] == "wrong_type"


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"hand": ["AS", "KS", "ZZ"]}, "bad_card", "hand[2]"),
        ({"hand": ["AS", "AS", "KS"]}, "duplicate_card", "hand"),
        ({"hand": ["AS", "KS"]}, "wrong_hand_size", "hand"),
        ({"hand": ["AS", "KS", "X1"]}, "card_not_in_deck", "hand"),
        ({"hand": ["AS", "KS", "QS"], "variant": "poker"}, "unknown_variant", "variant"),
        ({"hand": ["AS", "KS", "QS"], "options": {"colour": 1}}, "unknown_option",
         "options.colour"),
        ({"hand": ["AS", "KS", "QS"], "options": {"lives": 99}}, "option_out_of_range",
         "options.lives"),
        ({"hand": ["AS", "KS", "QS"], "options": {"wild": "jokers"}}, "option_conflict",
         "options.wild"),
    ],
)
def test_engine_errors_keep_their_code_and_field(client, body, code, field):
    problem = assert_problem(client.post("/v1/hands/score", json=body), 422, code)
    assert problem["errors"][0]["field"] == field
    assert problem["errors"][0]["code"] == code


def test_batch_over_its_limit(client, app):
    hands = [["AS", "KS", "QS"]] * (app.config["BATCH_LIMIT"] + 1)
    problem = assert_problem(
        client.post("/v1/hands/score-batch", json={"hands": hands}), 422, "batch_too_large"
    )
    assert problem["errors"][0]["field"] == "hands"
    assert "10000" in problem["detail"]


def test_batch_names_the_bad_hand(client):
    body = {"hands": [["AS", "KS", "QS"], ["AS", "KS", "1S"]]}
    problem = assert_problem(client.post("/v1/hands/score-batch", json=body), 422, "bad_card")
    assert problem["errors"][0]["field"] == "hands[1][2]"


def test_batch_refuses_a_hand_that_is_not_a_list(client):
    response = client.post("/v1/hands/score-batch", json={"hands": ["AS KS QS"]})
    assert_problem(response, 422, "validation_failed")


def test_unknown_variant_in_the_path_is_404(client):
    problem = assert_problem(client.get("/v1/variants/poker"), 404, "unknown_variant")
    assert "poker" in problem["detail"]


def test_unknown_path_is_404(client):
    assert_problem(client.get("/v1/nothing"), 404, "not_found")


def test_wrong_method_is_405_with_allow(client):
    response = client.get("/v1/hands/score")
    assert_problem(response, 405, "method_not_allowed")
    assert set(response.headers["Allow"].split(", ")) >= {"POST"}


def test_problem_in_russian(client):
    response = client.post("/v1/hands/score?lang=ru", json={"hand": ["AS", "KS", "ZZ"]})
    problem = assert_problem(response, 422, "bad_card")
    assert problem["title"] == "Неверная карта"
    assert problem["detail"] == "это не карта: 'ZZ'"


def test_validation_messages_in_italian(client):
    response = client.post("/v1/hands/score?lang=it", json={"hand": "AS", "x": None})
    problem = assert_problem(response, 422, "validation_failed")
    details = {error["field"]: error["detail"] for error in problem["errors"]}
    assert details == {"hand": "Non è una lista.", "x": "Campo sconosciuto."}
    assert problem["title"] == "Richiesta non valida"


def test_server_error_is_a_problem_too():
    broken = create_app({"THIRTYONE_SECRET_KEY": "x", "SITE_DIR": None})

    @broken.get("/boom")
    def boom():
        raise RuntimeError("boom")

    assert_problem(broken.test_client().get("/boom"), 500, "internal_error")
