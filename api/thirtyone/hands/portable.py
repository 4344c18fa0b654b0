"""Portable hand tables: every three-card hand of a rule set, its value and its rank, as a
compact binary (and as JSON) that another language reads in a few dozen lines.

A game in JavaScript, C# or Swift then scores a hand with one array lookup, offline, and
agrees with this engine by construction (``conformance/`` proves it). The format, version 1:

====================  =====================================================================
bytes                 what
====================  =====================================================================
4                     the magic ``T31H``
1                     the format version (1)
1                     the width of a hand's class id in bytes (1 or 2)
4                     ``n``, the length of the header, unsigned little-endian
``n``                 the header, UTF-8 JSON (see below)
hands x width         each hand's class id, little-endian, hands in colex order (below)
4                     CRC-32 (ISO-HDLC, zlib's) of every byte before it, little-endian
====================  =====================================================================

The header holds ``format`` (1), ``variant``, ``options`` (as given), ``hand_rules`` (the value
of every option that decides a hand's worth, :data:`~thirtyone.hands.SCORING_OPTIONS`),
``deck`` (the card codes, their position is a card's index ``0..d-1``), ``hands``
(``C(d, 3)``) and ``classes``: ``[points, category, rank]`` per class id. ``rank`` orders the
hands: 0 is the lowest, a higher rank beats a lower one, equal ranks tie (tie-break
included). ``points`` is the hand's count (30.5 for three of a kind worth 30½) and
``category`` a key of :data:`~thirtyone.hands.CATEGORY_NAMES`.

The hand of the cards at deck indices ``a < b < c`` is at position
``c*(c-1)*(c-2)/6 + b*(b-1)/2 + a`` (colex order: C(c,3) + C(b,2) + C(a,1)).

>>> table = build_table("schnautz")
>>> table.score(["AS", "KS", "QS"])
(31, 'blitz', 1668)
>>> table.score(["7H", "7D", "7C"])[:2]
(30.5, 'three-of-a-kind')
>>> read_binary(to_binary(table)).classes == table.classes
True
"""

from __future__ import annotations

import hashlib
import json
import math
import struct
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from thirtyone.cards import parse_card
from thirtyone.errors import N_, HandError
from thirtyone.hands.basis import HAND_SIZE, SCORING_OPTIONS
from thirtyone.hands.scoring import evaluator
from thirtyone.rules import OPTIONS, make_rules

MAGIC = b"T31H"
FORMAT = 1
"""The format version: a reader refuses any other (a new one is a new number)."""
_PREAMBLE = struct.Struct("<4sBBI")


@dataclass(frozen=True, slots=True)
class HandTable:
    """Every hand of one rule set: ``classes[hands[i]]`` is ``(points, category, rank)`` of
    the hand at colex position ``i`` over ``deck``."""

    variant: str
    options: Mapping[str, Any]
    hand_rules: Mapping[str, Any]
    deck: tuple[str, ...]
    classes: tuple[tuple[int | float, str, int], ...]
    hands: tuple[int, ...]

    def header(self) -> dict[str, Any]:
        """The header as the binary and the JSON carry it."""
        return {
            "format": FORMAT,
            "variant": self.variant,
            "options": dict(self.options),
            "hand_rules": dict(self.hand_rules),
            "deck": list(self.deck),
            "hands": len(self.hands),
            "classes": [list(entry) for entry in self.classes],
        }

    def position(self, cards: Sequence[str]) -> int:
        """The colex position of a hand of three distinct cards of the deck."""
        where = {code: index for index, code in enumerate(self.deck)}
        indices = sorted(where[parse_card(card).code] for card in cards)
        if len(indices) != HAND_SIZE or len(set(indices)) != HAND_SIZE:
            raise HandError("bad_hand", N_("a hand is three distinct cards of the deck"))
        a, b, c = indices
        return math.comb(c, 3) + math.comb(b, 2) + a

    def score(self, cards: Sequence[str]) -> tuple[int | float, str, int]:
        """``(points, category, rank)`` of a hand given by card codes."""
        return self.classes[self.hands[self.position(cards)]]

    def etag(self) -> str:
        """A strong validator of the table's content."""
        return hashlib.sha256(to_binary(self)).hexdigest()[:32]


def build_table(variant: str, options: Mapping[str, Any] | None = None) -> HandTable:
    """The table of ``variant`` (a preset by any name) with ``options`` overriding it."""
    rules = make_rules(variant, options)
    judge = evaluator(rules)
    deck = judge.deck.cards
    scores = [judge.score(hand) for hand in _colex(deck)]
    strengths = sorted({score.strength for score in scores})
    rank_of = {strength: rank for rank, strength in enumerate(strengths)}
    kinds = sorted({(rank_of[s.strength], s.category, s.points) for s in scores})
    class_of = {kind: index for index, kind in enumerate(kinds)}
    return HandTable(
        variant=rules.variant,
        options=dict(options or {}),
        hand_rules={name: getattr(rules, name) for name in SCORING_OPTIONS},
        deck=tuple(card.code for card in deck),
        classes=tuple((points, category, rank) for rank, category, points in kinds),
        hands=tuple(class_of[(rank_of[s.strength], s.category, s.points)] for s in scores),
    )


def _colex(deck: Sequence[Any]) -> list[tuple[Any, ...]]:
    """Every three cards of ``deck`` in colex order of their indices (``a < b < c``)."""
    return [(deck[a], deck[b], deck[c])
            for c in range(len(deck)) for b in range(c) for a in range(b)]


def to_binary(table: HandTable) -> bytes:
    """The table in the binary format of this module's docstring."""
    header = json.dumps(table.header(), separators=(",", ":"), ensure_ascii=False).encode()
    width = 1 if len(table.classes) <= 256 else 2
    body = b"".join(hand.to_bytes(width, "little") for hand in table.hands)
    data = _PREAMBLE.pack(MAGIC, FORMAT, width, len(header)) + header + body
    return data + struct.pack("<I", zlib.crc32(data))


def to_json(table: HandTable) -> dict[str, Any]:
    """The table as JSON: the header's fields and ``hand_classes`` in colex order."""
    return {**table.header(), "hand_classes": list(table.hands)}


def export(variant: str, options: Mapping[str, Any] | None = None,
           kind: str = "binary") -> bytes:
    """The bytes of a variant's table: the binary, or (``kind="json"``) its JSON (what
    ``thirtyone tables export`` writes and ``GET /v1/hand-tables/{variant}`` serves)."""
    table = build_table(variant, options)
    if kind == "json":
        return json.dumps(to_json(table), ensure_ascii=False, separators=(",", ":")).encode()
    return to_binary(table)


def option_from_text(name: str, text: str) -> Any:
    """An option's value from text as a command line or a query string gives it, read by the
    option's kind: ``true``/``false``, a number, ``none`` for an empty number; anything else
    stays text, which :func:`~thirtyone.rules.make_rules` checks (and refuses in its words).

    >>> option_from_text("trips_equal", "true"), option_from_text("three_aces", "none")
    (True, None)
    >>> option_from_text("three_aces", "33"), option_from_text("tie_break", "ranks")
    (33, 'ranks')
    """
    kind = OPTIONS[name].kind if name in OPTIONS else "choice"
    value = text.strip()
    if kind == "bool" and value.lower() in ("true", "false"):
        return value.lower() == "true"
    if kind == "int-or-none" and value.lower() in ("none", ""):
        return None
    if kind in ("int", "int-or-none") and value.lstrip("-").isdigit():
        return int(value)
    return value


def read_binary(data: bytes) -> HandTable:
    """Read a table back from :func:`to_binary`, checking its magic, version and checksum."""
    if len(data) < _PREAMBLE.size + 4 or zlib.crc32(data[:-4]) != struct.unpack(
            "<I", data[-4:])[0]:
        raise ValueError("not a hand table, or a damaged one (the checksum differs)")
    magic, version, width, size = _PREAMBLE.unpack_from(data)
    if magic != MAGIC or version != FORMAT:
        raise ValueError(f"not a hand table of format {FORMAT}")
    start = _PREAMBLE.size
    header = json.loads(data[start:start + size])
    body = data[start + size:-4]
    hands = tuple(int.from_bytes(body[i:i + width], "little")
                  for i in range(0, len(body), width))
    return HandTable(
        variant=header["variant"], options=header["options"], hand_rules=header["hand_rules"],
        deck=tuple(header["deck"]), hands=hands,
        classes=tuple((points, category, rank) for points, category, rank in header["classes"]),
    )
