"""An instance that is stopping: it says it is not ready, and its streams end with a last
event telling each client to reconnect (to another instance) after a jittered delay.

gunicorn's worker calls :func:`begin` on SIGTERM (see :mod:`thirtyone.web.serving`); the
streams and long polls check :func:`stopping` whenever they wake, and :func:`begin` wakes them
all through the callbacks registered with :func:`on_stop`.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable

RETRY_MS = (1000, 5000)
"""The range of the ``retry:`` a stream's last event sends: clients of a stopped instance
come back spread over a few seconds rather than all at once."""

_stopping = threading.Event()
_callbacks: list[Callable[[], None]] = []


def on_stop(callback: Callable[[], None]) -> None:
    """Call ``callback`` (which must not block) when the instance begins to stop."""
    _callbacks.append(callback)


def stopping() -> bool:
    return _stopping.is_set()


def begin() -> None:
    """The instance stops: not ready from now on, and every stream is woken to end."""
    _stopping.set()
    for callback in list(_callbacks):
        callback()


def retry_ms() -> int:
    """A reconnection delay for a stream's client, drawn in :data:`RETRY_MS`."""
    return random.randint(*RETRY_MS)
