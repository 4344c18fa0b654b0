"""The start of a process that computes for another one (a server worker's compute pool).

It lives beside the engine, with the standard library alone, so that such a process imports
the engine and nothing of the server (whose import takes a second of CPU): it is ready as
soon as it starts.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import time
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

T = TypeVar("T")

NICENESS = 19
PR_SET_PDEATHSIG = 1  # prctl(2)


def start_pool_process(parent: int) -> None:
    """In each pool process, first: the lowest CPU priority, and (on Linux) an end as soon as
    ``parent`` ends, however it ends (a worker killed outright would otherwise leave its pool
    processes behind, idle for ever)."""
    os.nice(NICENESS)
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
        if os.getppid() != parent:
            # The parent ended before the request to be told of it was made.
            os._exit(0)



def timed(function: Callable[..., T], args: tuple[Any, ...],
          kwargs: Mapping[str, Any]) -> tuple[float, T]:
    """``function(*args, **kwargs)`` in a pool process, with when it started (Unix time): the
    worker measures how long the job waited for a process."""
    started = time.time()
    return started, function(*args, **kwargs)
