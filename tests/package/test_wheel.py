"""The package as an integrator installs it: a wheel built from the work tree, installed into
a fresh virtual environment, speaks Russian and Italian in the terminal and over HTTP, and
serves the play page and the API docs (issue: the wheel carried no compiled catalogs, so what
it spoke depended on whether the checkout had compiled them)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from tests.conftest import ROOT, free_port, wait_for_port

pytestmark = pytest.mark.slow


def checked(command: list[str]) -> None:
    done = subprocess.run(command, capture_output=True, text=True)
    assert done.returncode == 0, f"{command[:4]} failed:\n{done.stdout}\n{done.stderr}"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bin folder of a fresh venv holding the wheel built from the work tree (with its
    ``server`` extra); the work tree's compiled catalogs are kept out of the build's reach."""
    work = tmp_path_factory.mktemp("wheel")
    source = work / "source"
    # A copy of the tracked files only: what a fresh clone holds, without any .mo.
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, check=True,
                           capture_output=True).stdout.decode().split("\0")
    for name in filter(None, files):
        target = source / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if (ROOT / name).is_file():
            target.write_bytes((ROOT / name).read_bytes())
    assert not list(source.glob("translations/**/*.mo"))
    dist = work / "dist"
    checked([sys.executable, "-m", "build", "--wheel", "--outdir", str(dist), str(source)])
    (wheel,) = dist.glob("thirtyone-*.whl")
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    checked([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", f"{wheel}[server]"])
    return venv / "bin"


def run(bin_dir: Path, *args: str) -> str:
    # Run from a folder with no checkout in reach, so only the installed package answers.
    return subprocess.run([str(bin_dir / "thirtyone"), *args], check=True, capture_output=True,
                          text=True, cwd=bin_dir.parent).stdout


def test_terminal_speaks_each_language(installed: Path) -> None:
    assert run(installed, "score", "AS", "KS", "10S", "--lang", "ru").startswith("Блиц: 31 очко")
    assert "31 punti" in run(installed, "score", "AS", "KS", "10S", "--lang", "it")
    assert run(installed, "score", "AS", "KS", "10S", "--lang", "en").startswith("Blitz: 31")


def test_server_speaks_each_language_and_serves_its_pages(installed: Path) -> None:
    port = free_port()
    env = {**os.environ, "THIRTYONE_SECRET_KEY": "wheel-test",
           "THIRTYONE_STORE": f"sqlite:///{installed.parent / 'tables.sqlite3'}"}
    server = subprocess.Popen(
        [str(installed / "thirtyone"), "serve", "--port", str(port), "--workers", "1"],
        cwd=installed.parent, env=env, start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    try:
        wait_for_port(port, timeout=30)
        base = f"http://127.0.0.1:{port}"
        body = json.dumps({"variant": "scat", "hand": ["AS", "KS", "10S"]}).encode()
        for lang, sentence in (("ru", "Блиц: 31 очко"), ("it", "Blitz: 31 punti")):
            request = urllib.request.Request(
                f"{base}/v1/hands/score?lang={lang}", data=body,
                headers={"Content-Type": "application/json"},
            )
            with urllib.request.urlopen(request, timeout=10) as answer:
                assert answer.headers["Content-Language"] == lang
                assert json.loads(answer.read())["description"].startswith(sentence)
        for page in ("/play", "/docs"):
            with urllib.request.urlopen(base + page, timeout=10) as answer:
                assert answer.status == 200
                assert answer.headers["Content-Type"].startswith("text/html")
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
