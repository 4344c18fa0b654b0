"""Sealed game tokens and seat keys.

The server keeps no games: it hands the client the whole game state sealed in a token, a
Fernet token (AES-128-CBC and HMAC-SHA256) over the compressed JSON of the game id and the
state. The client can neither read the stock or other hands from it nor alter it. Each seat
also gets a key, an HMAC of the game id and the seat, that it must show to see its cards or to
move. Both keys derive from the server secret (``THIRTYONE_SECRET_KEY``), so any server
holding the same secret serves any game.

The secret may be rotated without ending a game: ``THIRTYONE_SECRET_KEY`` may list several
secrets, separated by commas or white space. The first seals new tokens and makes new seat
keys; every one of them opens tokens and checks seat keys (``MultiFernet``). Put the new secret
first, keep the old one listed as long as games sealed with it may come back, then drop it.

>>> sealer = Sealer("doctest secret")
>>> token = sealer.seal("g1", {"stock": ["AS", "KS"]})
>>> sealer.unseal(token)
('g1', {'stock': ['AS', 'KS']})
>>> sealer.seat_key("g1", 0) == Sealer("doctest secret").seat_key("g1", 0)
True
>>> sealer.seat_key("g1", 0) == sealer.seat_key("g1", 1)
False
>>> rotated = Sealer("new secret, doctest secret")
>>> rotated.unseal(token)
('g1', {'stock': ['AS', 'KS']})
>>> rotated.check_seat_key("g1", 0, sealer.seat_key("g1", 0))
>>> Sealer("doctest secret").unseal(rotated.seal("g1", {}))
Traceback (most recent call last):
...
thirtyone.web.problems.Problem: The game token is not valid: it was altered, cut short, or \
sealed by another server.
"""

from __future__ import annotations

import base64
import hmac
import secrets
import zlib
from collections.abc import Mapping
from typing import Any

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from thirtyone.errors import N_
from thirtyone.web.jsonio import deflate, dumps, loads
from thirtyone.web.problems import Problem

_VERSION = 1


def _derive(secret: bytes, purpose: bytes) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=purpose).derive(secret)


def bad_token() -> Problem:
    return Problem(
        422, "bad_token",
        N_("The game token is not valid: it was altered, cut short, or sealed by another server."),
        title=N_("Invalid game token"),
        errors=[{"field": "token", "code": "bad_token",
                 "detail": N_("Send the token exactly as the server returned it."), "params": {}}],
    )


def secrets_of(setting: str | bytes) -> list[bytes]:
    """The secrets a ``THIRTYONE_SECRET_KEY`` setting lists, the sealing one first.

    >>> secrets_of("new, old  older")
    [b'new', b'old', b'older']
    """
    text = setting.decode() if isinstance(setting, bytes) else setting
    found = [secret.encode() for secret in text.replace(",", " ").split()]
    if not found:
        raise ValueError("THIRTYONE_SECRET_KEY lists no secret")
    return found


class Sealer:
    """Seals and opens game tokens, and makes and checks seat keys, with the server secrets:
    the first seals, any opens (see the module docstring)."""

    def __init__(self, secret: str | bytes) -> None:
        masters = secrets_of(secret)
        self._fernet = MultiFernet([
            Fernet(base64.urlsafe_b64encode(_derive(master, b"thirtyone token")))
            for master in masters
        ])
        # An HMAC keyed once per secret, copied for each key: a third less work than the
        # one-shot hmac.digest (callgrind: 17k instructions against 24k), which sets the key
        # up again each time.
        self._seat_macs = [hmac.new(_derive(master, b"thirtyone seat key"), digestmod="sha256")
                           for master in masters]

    @staticmethod
    def new_game_id() -> str:
        return secrets.token_urlsafe(12)

    def seal(self, game_id: str, state: Mapping[str, Any]) -> str:
        # Fernet stays: AES-GCM was measured in its place (a mid-game scat state, 7
        # interleaved rounds): seal 25.7 us against Fernet's 22.6, open 43.6 against 26.6
        # (best rounds); the JSON and zlib around it are most of the cost either way.
        payload = dumps({"v": _VERSION, "game": game_id, "state": state})
        return self._fernet.encrypt(deflate(payload)).decode("ascii")

    def unseal(self, token: str) -> tuple[str, dict[str, Any]]:
        """The game id and state sealed in ``token``; a :class:`Problem` if it is not ours."""
        try:
            payload = loads(zlib.decompress(self._fernet.decrypt(token)))
        except (InvalidToken, zlib.error, ValueError, TypeError):
            raise bad_token() from None
        if not isinstance(payload, dict) or payload.get("v") != _VERSION:
            raise bad_token()
        return payload["game"], payload["state"]

    def seat_key(self, game_id: str, seat: int) -> str:
        """The key of ``seat`` in this game, made with the sealing secret."""
        return _seat_key(self._seat_macs[0], game_id, seat)

    def check_seat_key(self, game_id: str, seat: int, key: str) -> None:
        """Raise a 403 problem unless ``key`` is the key of ``seat`` in this game under one of
        the secrets."""
        given = key.encode("utf-8", "replace")
        if not any(hmac.compare_digest(_seat_key(mac, game_id, seat).encode(), given)
                   for mac in self._seat_macs):
            raise Problem(
                403, "wrong_seat_key", N_("This is not the key of seat {seat} in this game."),
                title=N_("Wrong seat key"), seat=seat,
                errors=[{"field": "seat_key", "code": "wrong_seat_key",
                         "detail": N_("Use the key the server gave for this seat."),
                         "params": {}}],
            )


def _seat_key(keyed: hmac.HMAC, game_id: str, seat: int) -> str:
    mac = keyed.copy()
    mac.update(f"{game_id}/{seat}".encode())
    return base64.urlsafe_b64encode(mac.digest()[:16]).rstrip(b"=").decode("ascii")
