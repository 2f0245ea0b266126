"""Everything that passes through a Redis server while a test runs: every command any client
sends (MONITOR, which shows each PUBLISH with its message and each write with its value) and
every message of every channel (PSUBSCRIBE *), as raw bytes."""

from __future__ import annotations

import socket
import threading
import time
from types import TracebackType

from tests.services import HOST, RedisServer


class RedisCapture:
    """`with RedisCapture(server) as seen: ...`; then `seen.data` holds every byte Redis sent
    to the two watching connections."""

    def __init__(self, server: RedisServer) -> None:
        self.server = server
        self.data = b""
        self._chunks: list[bytes] = []
        self._stopped = threading.Event()
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()

    def __enter__(self) -> RedisCapture:
        for command in (b"*1\r\n$7\r\nMONITOR\r\n", b"*2\r\n$10\r\nPSUBSCRIBE\r\n$1\r\n*\r\n"):
            sock = socket.create_connection((HOST, self.server.port), timeout=5)
            sock.sendall(self.server.authenticate() + command)
            sock.settimeout(0.1)
            thread = threading.Thread(target=self._read, args=(sock,), daemon=True)
            thread.start()
            self._threads.append(thread)
        time.sleep(0.2)  # both subscriptions stand before the test goes on
        return self

    def _read(self, sock: socket.socket) -> None:
        with sock:
            while not self._stopped.is_set():
                try:
                    chunk = sock.recv(65536)
                except TimeoutError:
                    continue
                if not chunk:
                    return
                with self._lock:
                    self._chunks.append(chunk)

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        time.sleep(0.5)  # what the last commands sent has reached the watchers
        self._stopped.set()
        for thread in self._threads:
            thread.join(timeout=5)
        with self._lock:
            self.data = b"".join(self._chunks)
