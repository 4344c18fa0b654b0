"""Jobs the compute pool's tests send: in a module that imports nothing heavy, so that a pool
process (at the lowest CPU priority, slowest on a loaded machine) unpickles one at once rather
than importing the web app first, as a job defined in a test module would make it."""

from __future__ import annotations

import os
import time


def logged(path: str, seconds: float) -> int:
    """Note in ``path`` that the job started, sleep ``seconds``, answer the process's id."""
    with open(path, "a") as log:
        log.write("started\n")
    time.sleep(seconds)
    return os.getpid()
