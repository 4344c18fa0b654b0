"""Every problem ``code`` the API answers with, with what it means and what to do.

The codes are read from the code that raises them (:func:`scan`): each
``Problem(status, "code", N_("detail"))`` of the web layer, each engine error
(``MoveError("code", N_(...))`` and the helpers that make them), each field message
(``Message(N_(...), "code")``, the codes of marshmallow's own messages) and the answers of the
HTTP layer (:data:`STATUS_CODES`, the requests gunicorn cannot read). Reading the sources takes
seconds, so the list is kept in ``problem_codes.json`` beside this module, which
``python -m thirtyone.web.codes`` writes and a test compares with a fresh scan: it cannot fall
behind the code. The contract lists the codes as the enums of ``Problem.code`` and
``FieldError.code``; the site's error page shows each with its meaning (the detail's English
template, translated) and what a client does about it (:data:`ADVICE`).

>>> codes = problem_codes()
>>> codes["stale_version"].statuses, codes["must_discard"].kind
((409,), 'move')
"""

from __future__ import annotations

import ast
import dataclasses
import json
import re
import sys
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path

from apispec import APISpec

import thirtyone
from thirtyone.errors import N_
from thirtyone.web.problems import STATUS_CODES
from thirtyone.web.validation import FIELD_MESSAGES, MESSAGE_CODES

STORED = Path(__file__).with_name("problem_codes.json")

# Who raises a code, by the name called: its kind (the engine's error classes and the
# helpers that make them; None for a web problem, whose status is its first argument).
RAISERS: dict[str, str | None] = {
    "Problem": None,
    "CardError": "card",
    "HandError": "hand",
    "OptionError": "rules",
    "StateError": "state",
    "bad": "state",
    "MoveError": "move",
    "refuse": "move",
    "ThirtyOneError": "input",
}

# The status an engine error answers with: a move refused is a conflict with the game as it
# is; any other is a request the engine cannot take.
KIND_STATUS = {"move": 409, "field": 422}

ADVICE: dict[str | int, str] = {
    "card": N_("Send each card as a code (AS, 10H, QD) or a name in the request's language, "
               "from the variant's deck; errors[].field names the card at fault."),
    "hand": N_("Send a hand as the variant deals it: three different cards of its deck."),
    "rules": N_("Choose the variant and its options among those GET /v1/variants lists; "
                "errors[].field names the option."),
    "state": N_("Send the state or token exactly as the API gave it; errors[].field names "
                "the part that does not add up."),
    "input": N_("Correct the value errors[].field names and send the request again."),
    "move": N_("Read the game or the table again and send one of its legal_moves."),
    "field": N_("Correct the value errors[].field names and send the request again."),
    400: N_("Send a well-formed request: JSON text, as the contract describes it."),
    401: N_("Show the seat's key: Authorization: Bearer followed by the key."),
    403: N_("Use the key of a seat at this table (or of this game), or play without "
            "what this table's rules turn off."),
    404: N_("Check the address: the table or variant does not exist, or the table expired."),
    405: N_("Use one of the methods the contract lists for this address."),
    406: N_("Accept application/json (or application/problem+json)."),
    408: N_("Send the whole request body at once."),
    409: N_("Read the table or game again, then choose anew at its current version."),
    410: N_("Open a new table: the store lost this one."),
    413: N_("Send a smaller request body."),
    414: N_("Send a shorter address."),
    415: N_("Send the body as application/json."),
    422: N_("Correct the fields errors names and send the request again."),
    429: N_("Wait the seconds Retry-After gives, then send the request again."),
    431: N_("Send smaller headers."),
    500: N_("Send the request again later; nothing was changed."),
    501: N_("Use an operation the contract lists."),
    503: N_("Wait the seconds Retry-After gives and send the same request again, with the same "
            "Idempotency-Key where it has one."),
}


@dataclass(frozen=True, slots=True)
class ProblemCode:
    """A code: the ``kind`` of what raised it first, the HTTP statuses it answers with (a
    move's error is a conflict at a table, a hint's is a request that cannot be answered), and
    the English template of its ``detail``."""

    code: str
    kind: str
    statuses: tuple[int, ...]
    detail: str

    @property
    def advice(self) -> str:
        """What a client does about it (an English message id)."""
        return ADVICE.get(self.kind) or ADVICE[self.statuses[0]]


_CODE = re.compile(r"[a-z][a-z0-9_]*\Z")


def _text(node: ast.expr) -> str | None:
    """The string of ``"text"`` or of ``N_("text")``."""
    if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "N_" and node.args:
        node = node.args[0]
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def _raised(node: ast.Call) -> ProblemCode | None:
    name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
    args = node.args
    if name == "Message" and len(args) == 2:
        code, detail = _text(args[1]), _text(args[0])
        if code and detail and _CODE.match(code):
            return ProblemCode(code, "field", (KIND_STATUS["field"],), detail)
        return None
    if name not in RAISERS:
        return None
    kind = RAISERS[name]
    if kind is None:
        if len(args) < 3 or not isinstance(args[0], ast.Constant):
            return None
        status, code, detail = args[0].value, _text(args[1]), _text(args[2])
        kind = "http"
    else:
        if len(args) < 2:
            return None
        code, detail = _text(args[0]), _text(args[1])
        status = KIND_STATUS.get(kind, 422)
    if not (code and detail and _CODE.match(code) and isinstance(status, int)):
        return None
    return ProblemCode(code, kind, (status,), detail)


def _add(found: dict[str, ProblemCode], raised: ProblemCode) -> None:
    known = found.get(raised.code)
    if known is None:
        found[raised.code] = raised
    elif raised.statuses[0] not in known.statuses:
        found[raised.code] = dataclasses.replace(
            known, statuses=tuple(sorted((*known.statuses, *raised.statuses))))


def scan() -> dict[str, ProblemCode]:
    """Every code raised in the package's sources, by name in alphabetical order (the first
    raise site of each)."""
    # Imported here: the requests gunicorn cannot read are answered by the serving module,
    # which the API's app itself never imports.
    from thirtyone.web.serving import PARSE_PROBLEMS

    found: dict[str, ProblemCode] = {}
    for status, (code, detail) in STATUS_CODES.items():
        _add(found, ProblemCode(code, "http", (status,), detail))
    for _, status, _, code, detail in PARSE_PROBLEMS:
        _add(found, ProblemCode(code, "http", (status,), detail))
    for key, code in MESSAGE_CODES.items():
        _add(found, ProblemCode(code, "field", (KIND_STATUS["field"],), FIELD_MESSAGES[key][0]))
    package = Path(thirtyone.__file__).resolve().parent
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and (raised := _raised(node)) is not None:
                _add(found, raised)
    return dict(sorted(found.items()))


@cache
def problem_codes() -> dict[str, ProblemCode]:
    """Every code, by name in alphabetical order, as ``problem_codes.json`` keeps them."""
    stored = json.loads(STORED.read_text(encoding="utf-8"))
    return {entry["code"]: ProblemCode(**{**entry, "statuses": tuple(entry["statuses"])})
            for entry in stored}


def document(spec: APISpec) -> None:
    """The codes as one shared enum of the contract, ``ProblemCode``."""
    spec.components.schema("ProblemCode", {
        "type": "string", "enum": list(problem_codes()),
        "description": "A stable, machine-readable error code. Each is listed with what it "
        "means and what to do on the rules site's API errors page; new codes may come within "
        "`/v1` (treat an unknown one by its HTTP status).",
    })
    # The problem schemas were documented when the API was made, before this component.
    for schema in ("Problem", "FieldError"):
        spec.components.schemas[schema]["properties"]["code"] = {
            "$ref": "#/components/schemas/ProblemCode"}


def write(path: Path = STORED) -> None:
    """Write a fresh :func:`scan` to ``path``."""
    entries = [asdict(code) for code in scan().values()]
    path.write_text(json.dumps(entries, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    write(Path(sys.argv[1]) if len(sys.argv) > 1 else STORED)
