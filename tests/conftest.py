"""Fixtures shared by every test folder: real services the project starts itself.

- ``live_server(app)``: serve a WSGI app on a free loopback port from a thread; its base URL.
- ``redis_url``: a real ``redis-server`` (Debian's) on a free port in a temp dir, stopped
  after the session.
- ``postgres_url``: a real PostgreSQL (Debian's ``postgresql``) on a free port in a temp dir,
  stopped after the session: the URL of a new empty database for each test.
- ``chromium``: Debian's Chromium driven by Playwright through ``executable_path`` (the
  browser Playwright would download cannot be fetched here).
- ``artifacts``: the folder for screenshots and other test artifacts (``build/test-artifacts``).

- ``calibrated(seconds)``: a time limit set for an idle machine, scaled by how much slower
  this machine runs now (a CPU loop timed at the start of the session and again once a
  minute): a liveness test waits for its condition with this bound, so a busy machine makes it
  slower, never wrong. ``THIRTYONE_TEST_SLOWDOWN`` sets the factor instead.

A test that needs a missing component skips on a developer's machine and fails under
``CI=true`` (``make test`` installs the components; a skip there would hide a missing step).

Every test that needs a real server, browser, node or the built site is ``slow``, so that
``make test-fast`` (``-m "not slow"``) runs only the engine and web unit tests: a test using
``chromium`` or ``redis_url``, or a store parametrized on Redis, is marked here; one that
starts its own processes carries the mark itself (or lives in a folder test-fast skips).
"""

from __future__ import annotations

import glob
import os
import pwd
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("THIRTYONE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


REAL_COMPONENTS = frozenset({"chromium", "redis_url", "postgres_url"})
"""Fixtures that start a real component: their tests are ``slow``."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        params = getattr(item, "callspec", None)
        # A store or archive parametrized on a real server (Redis, PostgreSQL) starts one,
        # whatever the parameter's name (``store_url``, ``archive_url``, ``where``...).
        on_redis = params is not None and any(
            value in ("redis", "postgres") for value in params.params.values()
            if isinstance(value, str))
        fixtures = set(getattr(item, "fixturenames", ()))
        if on_redis or REAL_COMPONENTS & fixtures:
            item.add_marker(pytest.mark.slow)
        if "chromium" in fixtures:
            # One browser at a time (``--dist loadgroup``): the play page paces its moves in
            # real time, and two Chromiums on two cores starved each other's timers.
            item.add_marker(pytest.mark.xdist_group("browser"))


CALIBRATION_LOOP = 500_000
"""Iterations of the calibration loop (:func:`slowdown`)."""
CALIBRATION_IDLE_SECONDS = 0.045
"""What the loop takes on one idle core of the machine the tests' limits were set on (the
fastest of 30 runs there: 0.044 s)."""
_measured: list[tuple[float, float]] = []  # (when, factor)


def _loop_seconds() -> float:
    start = time.perf_counter()
    total = 0
    for number in range(CALIBRATION_LOOP):
        total += number * number % 7
    return time.perf_counter() - start


def slowdown() -> float:
    """How many times slower than an idle core this process runs now (at least 1): the
    median of three timings of a CPU loop, taken at the start of the session and again when
    the last one is a minute old, as the load of a shared machine changes."""
    setting = os.environ.get("THIRTYONE_TEST_SLOWDOWN")
    if setting:
        return max(1.0, float(setting))
    now = time.monotonic()
    if not _measured or now - _measured[-1][0] > 60:
        runs = sorted(_loop_seconds() for _ in range(3))
        _measured.append((now, max(1.0, runs[1] / CALIBRATION_IDLE_SECONDS)))
    return _measured[-1][1]


def calibrated(seconds: float) -> float:
    """A time limit of ``seconds`` on an idle machine, scaled by :func:`slowdown`."""
    return seconds * slowdown()


def pytest_sessionstart(session: pytest.Session) -> None:
    slowdown()  # measured before the tests load the machine themselves


def pytest_report_header() -> str:
    return f"thirtyone: slowdown {slowdown():.1f}x (time limits of liveness tests scale by it)"


def sampled(values: Any, fast: int = 1) -> list[Any]:
    """Parameters of an exhaustive check: the first ``fast`` run in ``make test-fast``, the
    others are marked ``slow`` (``make test`` runs them all). A value may be a tuple of
    several parameters."""
    return [value if index < fast else pytest.param(
        *(value if isinstance(value, tuple) else (value,)), marks=pytest.mark.slow)
        for index, value in enumerate(values)]


def missing(what: str) -> None:
    """Skip for a developer, fail in CI, when a component the test needs is not there."""
    message = f"{what} is missing: `make test` installs it"
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


def free_port() -> int:
    with closing(socket.socket()) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_port(port: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + calibrated(timeout)
    while time.monotonic() < deadline:
        with closing(socket.socket()) as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.02)
    raise TimeoutError(f"nothing listens on port {port}")


@pytest.fixture
def live_server() -> Iterator[Callable[[Any], str]]:
    """``live_server(app)`` serves ``app`` (threaded werkzeug) and returns its base URL."""
    from werkzeug.serving import make_server

    servers = []

    def serve(app: Any) -> str:
        server = make_server("127.0.0.1", 0, app, threaded=True)
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_port}"

    yield serve
    for server in servers:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """A real Redis of our own, on a free port, with nothing saved to disk."""
    binary = shutil.which("redis-server")
    if binary is None:
        missing("redis-server (Debian package redis-server)")
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        process = subprocess.Popen(
            [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", folder],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        try:
            wait_for_port(port)
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            process.terminate()
            process.wait(timeout=10)


def postgres_bin(name: str) -> str | None:
    """A PostgreSQL server program: on the PATH, or where Debian keeps it (the newest)."""
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"),
                        key=lambda path: int(Path(path).parts[-3]))
    return candidates[-1] if candidates else None


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A PostgreSQL of our own on a free port (trust authentication, no fsync); the URL of
    its ``postgres`` database. initdb refuses to run as root: as root, the server runs as the
    ``postgres`` user (or ``nobody``), which owns its temp dir."""
    initdb, postgres = postgres_bin("initdb"), postgres_bin("postgres")
    if initdb is None or postgres is None:
        missing("PostgreSQL (Debian package postgresql)")
    user = None
    if os.geteuid() == 0:
        try:
            user = pwd.getpwnam("postgres")
        except KeyError:
            user = pwd.getpwnam("nobody")
    folder = tempfile.mkdtemp(prefix="thirtyone-pg-")
    if user is not None:
        os.chown(folder, user.pw_uid, user.pw_gid)
    as_user: dict[str, Any] = {} if user is None else {"user": user.pw_uid,
                                                       "group": user.pw_gid}
    data = os.path.join(folder, "data")
    port = free_port()
    process = None
    try:
        subprocess.run([initdb, "-D", data, "-A", "trust", "-U", "thirtyone", "-E", "UTF8",
                        "--no-sync", "--no-instructions"], check=True, cwd=folder,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **as_user)
        process = subprocess.Popen(
            [postgres, "-D", data, "-p", str(port), "-c", "listen_addresses=127.0.0.1",
             "-c", f"unix_socket_directories={folder}", "-c", "fsync=off",
             "-c", "synchronous_commit=off", "-c", "full_page_writes=off"],
            cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **as_user)
        url = f"postgresql://thirtyone@127.0.0.1:{port}/postgres"
        _wait_for_postgres(url, process)
        yield url
    finally:
        if process is not None:
            process.send_signal(signal.SIGINT)  # a fast shutdown
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        shutil.rmtree(folder, ignore_errors=True)


def _wait_for_postgres(url: str, process: subprocess.Popen[bytes]) -> None:
    import psycopg

    deadline = time.monotonic() + 60
    while True:
        try:
            psycopg.connect(url, connect_timeout=2).close()
            return
        except psycopg.OperationalError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise
            time.sleep(0.1)


@pytest.fixture
def postgres_url(postgres_server: str) -> Iterator[str]:
    """A new empty database on the session's PostgreSQL, dropped after the test."""
    import psycopg

    name = f"test_{secrets.token_hex(6)}"
    with psycopg.connect(postgres_server, autocommit=True) as connection:
        connection.execute(f"CREATE DATABASE {name}")
    yield postgres_server.rsplit("/", 1)[0] + f"/{name}"
    with psycopg.connect(postgres_server, autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    """A headless Chromium browser (Playwright's ``Browser``) for the whole session."""
    if not Path(CHROMIUM).is_file():
        missing(f"Chromium ({CHROMIUM}, Debian package chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("Playwright for Python")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """Where tests save screenshots: ``build/test-artifacts`` (ignored by git)."""
    folder = ROOT / "build" / "test-artifacts"
    folder.mkdir(parents=True, exist_ok=True)
    return folder
