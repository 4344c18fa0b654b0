"""The worker's keeper writes idle streams' keep-alives while they sleep: straight to the
client's socket, framed as the response is (chunked or not), only what the socket takes whole
at once (the rest, if it took part, goes first when the stream wakes), and a stream that has
something else to do, or whose socket takes nothing, is woken to send it itself."""

from __future__ import annotations

import contextlib
import socket
import time

import gevent
import gevent.event
import gevent.socket
import pytest
from tests.conftest import calibrated

from thirtyone.web import keepalives


class _Response:
    """What the writer uses of gunicorn's response."""

    def __init__(self, chunked: bool) -> None:
        self.chunked = chunked
        self.sent = 0


@pytest.fixture
def pair():
    sending, receiving = gevent.socket.socketpair()
    yield sending, receiving
    sending.close()
    receiving.close()


@pytest.mark.parametrize(("chunked", "wire"), [
    (True, b"E\r\n: keep-alive\n\n\r\n"),
    (False, b": keep-alive\n\n"),
])
def test_a_keepalive_is_written_framed_as_the_response_is(pair, chunked, wire):
    sending, receiving = pair
    response = _Response(chunked)
    writer = keepalives.ClientWriter(response, sending)
    assert writer.send_now(keepalives.KEEPALIVE)
    assert receiving.recv(100) == wire
    # The access log counts the body's bytes, not the framing.
    assert response.sent == len(keepalives.KEEPALIVE)
    assert writer.unsent == b""


def test_a_full_socket_takes_nothing_and_the_writer_does_not_wait(pair):
    sending, receiving = pair
    writer = keepalives.ClientWriter(_Response(True), sending)
    # Fill the socket with what the stream wrote before, as a client that reads nothing.
    filled = 0
    while True:
        try:
            filled += sending.send(b"x" * 4096, socket.MSG_DONTWAIT, timeout=0.0)
        except BlockingIOError:
            break
    started = time.monotonic()
    assert writer.send_now(keepalives.KEEPALIVE) is False
    assert time.monotonic() - started < calibrated(1)
    assert writer.unsent == b""
    # Nothing of it was written: the stream, woken, sends its own keep-alive after the rest.
    reader = gevent.spawn(lambda: b"".join(iter(lambda: receiving.recv(65536), b"")))
    sending.shutdown(socket.SHUT_WR)
    assert reader.get(timeout=calibrated(10)) == b"x" * filled


def test_a_keepalive_taken_in_part_is_finished_before_anything_else(pair):
    sending, receiving = pair

    class TakesFive:
        """A socket whose kernel takes five bytes of the next write."""

        def send(self, data: bytes, flags: int, timeout: float) -> int:
            return sending.send(data[:5], flags, timeout=timeout)

        def sendall(self, data: bytes) -> None:
            sending.sendall(data)

    response = _Response(True)
    writer = keepalives.ClientWriter(response, TakesFive())
    assert writer.send_now(keepalives.KEEPALIVE)
    assert writer.unsent == b"keep-alive\n\n\r\n"  # "E\r\n: " went
    assert response.sent == len(keepalives.KEEPALIVE)
    writer.finish()
    assert writer.unsent == b""
    sending.sendall(b"next")
    sending.shutdown(socket.SHUT_WR)
    received = b"".join(iter(lambda: receiving.recv(65536), b""))
    assert received == b"E\r\n: keep-alive\n\n\r\nnext"


class _Stream:
    """A kept stream: asleep while ``idle``; ``woken`` set when the keeper wakes it."""

    def __init__(self, writer: keepalives.ClientWriter, period: float) -> None:
        self.idle = True
        self.asked: list[float] = []
        self.woken = gevent.event.Event()
        self.kept = keepalives.Kept(writer, self.asleep, self.woken.set, period)

    def asleep(self, following: float) -> bool:
        self.asked.append(following)
        return self.idle


def test_the_keeper_keeps_a_sleeping_stream_on_the_grid_and_wakes_one_with_work(pair):
    sending, receiving = pair
    keeper = keepalives.Keeper()
    period = 0.5
    asleep = _Stream(keepalives.ClientWriter(_Response(False), sending), period)
    busy = _Stream(keepalives.ClientWriter(_Response(False), sending), period)
    busy.idle = False
    now = time.monotonic()
    keeper.keep(asleep.kept, keepalives.due(now, period))
    keeper.keep(busy.kept, keepalives.due(now, period))
    # The stream with work is woken at its first keep-alive, to send it itself, and is no
    # longer kept; the sleeping one is kept alive, every period, and never woken.
    assert busy.woken.wait(timeout=calibrated(5))
    assert busy.kept.due
    received = b""
    deadline = time.monotonic() + calibrated(10)
    while received.count(keepalives.KEEPALIVE) < 2 and time.monotonic() < deadline:
        gevent.sleep(0.05)
        with contextlib.suppress(BlockingIOError):
            received += receiving.recv(1000, socket.MSG_DONTWAIT)
    assert received.count(keepalives.KEEPALIVE) >= 2, received
    assert received == keepalives.KEEPALIVE * received.count(keepalives.KEEPALIVE)
    assert not asleep.woken.is_set() and not asleep.kept.due
    assert len(busy.asked) == 1
    # Each next keep-alive asked about is a step of the grid, a period on.
    for following in asleep.asked:
        assert following == pytest.approx(round(following / keepalives.GRID) * keepalives.GRID)
    # Dropped (its stream woke or ended), a stream is kept alive no more.
    keeper.drop(asleep.kept)
    count = len(asleep.asked)
    gevent.sleep(calibrated(3 * period))
    assert len(asleep.asked) == count


def test_a_stream_kept_for_sooner_than_the_keeper_waits_for_is_kept_in_time(pair):
    sending, _ = pair
    keeper = keepalives.Keeper()
    late = _Stream(keepalives.ClientWriter(_Response(False), sending), 60.0)
    soon = _Stream(keepalives.ClientWriter(_Response(False), sending), 60.0)
    late.idle = soon.idle = False
    now = time.monotonic()
    keeper.keep(late.kept, keepalives.due(now, 60.0))
    gevent.sleep(0)  # the keeper waits for the late one's step
    keeper.keep(soon.kept, keepalives.due(now, 0.5))
    assert soon.woken.wait(timeout=calibrated(5))
    assert not late.woken.is_set()


def test_a_client_that_reads_nothing_stalls_no_other_streams_keepalive(pair):
    stalled_end, _ = pair
    sending, receiving = gevent.socket.socketpair()
    try:
        # A hostile client: its socket full, it never reads.
        while True:
            try:
                stalled_end.send(b"x" * 4096, socket.MSG_DONTWAIT, timeout=0.0)
            except BlockingIOError:
                break
        keeper = keepalives.Keeper()
        stalled = _Stream(keepalives.ClientWriter(_Response(True), stalled_end), 0.5)
        other = _Stream(keepalives.ClientWriter(_Response(True), sending), 0.5)
        at = keepalives.due(time.monotonic(), 0.5)
        keeper.keep(stalled.kept, at)
        keeper.keep(other.kept, at)
        # The stalled stream is woken to send it itself (its own greenlet waits for its
        # socket), at once; the other's keep-alive went out in the same pass, and goes on.
        assert stalled.woken.wait(timeout=calibrated(5)) and stalled.kept.due
        assert receiving.recv(100) == b"E\r\n: keep-alive\n\n\r\n"
        assert not other.woken.is_set()
        wire = b"E\r\n: keep-alive\n\n\r\n"
        later = receiving.recv(100)  # the next ones (more than one, on a slow machine)
        assert later and later == wire * (len(later) // len(wire)), later
    finally:
        sending.close()
        receiving.close()
