"""Errors as a contract: every code the package raises is listed (problem_codes.json is a
fresh scan of the sources), is the enum of the contract's ProblemCode, and says in each
language what it means and what to do."""

from __future__ import annotations

import pytest

from thirtyone.web.codes import ADVICE, problem_codes, scan
from thirtyone.words import load_catalogs


def test_the_stored_codes_are_those_the_sources_raise():
    fresh = scan()
    assert problem_codes() == fresh, "run `python -m thirtyone.web.codes`"
    # The scan finds each kind of raise site.
    kinds = {code.kind for code in fresh.values()}
    assert {"http", "move", "state", "rules", "card", "hand", "field"} <= kinds
    for code, status in (("stale_version", 409), ("rate_limited", 429), ("missing_field", 422),
                         ("headers_too_large", 431), ("not_your_turn", 409)):
        assert status in fresh[code].statuses, code


def test_the_contract_enumerates_them(client):
    spec = client.get("/openapi.json").json["components"]["schemas"]
    assert spec["KnownProblemCode"]["enum"] == list(problem_codes())
    assert {"type": "string"} in spec["ProblemCode"]["anyOf"]  # open: new codes may come
    for schema in ("Problem", "FieldError"):
        assert spec[schema]["properties"]["code"] == {"$ref": "#/components/schemas/ProblemCode"}


@pytest.mark.parametrize("language", ["ru", "it"])
def test_each_code_says_what_it_means_and_what_to_do_in_each_language(language):
    catalog = load_catalogs()[language]
    for code in problem_codes().values():
        assert code.advice in ADVICE.values()
        for text in (code.detail, code.advice):
            assert catalog.gettext(text) != text, (language, code.code, text)
