"""The gevent worker's client sockets write what the kernel takes at once in one ``send(2)``,
and the rest as gevent does, waiting for the socket: nothing lost, nothing reordered."""

from __future__ import annotations

import gevent
import gevent.socket

from thirtyone.web import serving


def _pair() -> tuple[gevent.socket.socket, gevent.socket.socket]:
    sending, receiving = gevent.socket.socketpair()
    sending.__class__ = serving._Sending  # as GeventWorker.handle makes it
    return sending, receiving


def test_a_small_write_is_one_send_and_a_large_one_arrives_whole():
    sending, receiving = _pair()
    calls: list[str] = []
    real = sending._sock

    class Counted:
        def send(self, data: bytes, flags: int = 0) -> int:
            calls.append("send")
            return real.send(data, flags)

        def getsockopt(self, *args: int) -> int:
            calls.append("getsockopt")
            return real.getsockopt(*args)

        def __getattr__(self, name: str) -> object:
            return getattr(real, name)

    sending._sock = Counted()
    try:
        sending.sendall(b"1B\r\n: keep-alive\n\n\r\n")
        assert calls == ["send"]
        assert receiving.recv(100) == b"1B\r\n: keep-alive\n\n\r\n"
        # More than the socket's buffers hold: the rest waits for the reader.
        big = bytes(range(256)) * 40_000
        reader = gevent.spawn(lambda: b"".join(iter(lambda: receiving.recv(65536), b"")))
        sending.sendall(memoryview(big))
        sending._sock = real
        sending.close()
        assert reader.get(timeout=30) == big
    finally:
        sending._sock = real
        sending.close()
        receiving.close()
