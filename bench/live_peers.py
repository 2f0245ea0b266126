"""Transport side of bench/live.py: server subprocesses, Socket.IO peers, and timed commands.

A `Room` follows the highest version each of its peers has been pushed, so a command
can be timed from its emit until every peer of the room has its push. Both the court
(app.py) and the floor (bench/floor_app.py) are driven through these same pieces.
"""

from __future__ import annotations

import os
import resource
import socket
import subprocess
import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import requests
import socketio

from devtools.servers import stop_process

NAMESPACE = "/court"
START_SECONDS = 30.0  # how long a server may take to answer /healthz
STOP_SECONDS = 10.0  # how long a server may take to exit after SIGTERM
ACK_SECONDS = 20.0  # how long a command may wait for its ack
PUSH_SECONDS = 20.0  # how long a command may wait for every peer's push
CONNECT_WORKERS = 8  # peers connecting at once
# The court refuses more than 20 messages a second per connection (bursts of 40);
# a peer keeps under that, sleeping before it emits, never inside a timed command.
PEER_RATE = 18.0
PEER_BURST = 30.0
# websocket-client checks each text frame's UTF-8 with a pure-Python DFA (~0.16 us a
# byte, 0.6 ms for a 3.7 KB push) unless wsaccel is installed, all in the bench's own
# process; its recv() decodes every text frame with bytes.decode("utf-8") anyway, so
# bad UTF-8 still fails. Skipping the DFA keeps the clients' cost out of the figures.
WEBSOCKET_OPTIONS = {"skip_utf8_validation": True}


def raise_open_files(wanted: int) -> None:
    """Raise the soft limit of open files towards `wanted` (never above the hard limit);
    servers started afterwards inherit it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


# -- servers -------------------------------------------------------------------


def _wait_healthy(process: subprocess.Popen[bytes], url: str, log: Path) -> None:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode}: {_tail(log)}")
        try:
            if requests.get(f"{url}/healthz", timeout=1.0).status_code == 200:
                return
        except requests.RequestException:
            pass
        time.sleep(0.05)
    raise RuntimeError(f"server did not answer /healthz in {START_SECONDS:.0f} s: {_tail(log)}")


def _tail(log: Path, chars: int = 2000) -> str:
    try:
        return log.read_text(encoding="utf-8", errors="replace")[-chars:]
    except OSError:
        return "(no log)"


@contextmanager
def server_process(
    argv: Sequence[str], env: dict[str, str], cwd: Path, log: Path
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """Run `argv` on 127.0.0.1 and a free port until the block ends; yields its base URL
    and its process.

    The server's output goes to `log`; it is stopped with SIGTERM, then SIGKILL."""
    port = free_port()
    full_env = {**os.environ, **env, "HOST": "127.0.0.1", "PORT": str(port)}
    with open(log, "wb") as out:
        process = subprocess.Popen(
            list(argv), cwd=cwd, env=full_env, stdout=out, stderr=subprocess.STDOUT
        )
        try:
            url = f"http://127.0.0.1:{port}"
            _wait_healthy(process, url, log)
            yield url, process
        finally:
            stop_process(process, STOP_SECONDS)


@contextmanager
def server(argv: Sequence[str], env: dict[str, str], cwd: Path, log: Path) -> Iterator[str]:
    """As server_process, yielding only the base URL."""
    with server_process(argv, env, cwd, log) as (url, _):
        yield url


# -- peers and rooms -------------------------------------------------------------


class Room:
    """The peers that must all see each push: the highest version each one got, and when."""

    def __init__(self, size: int) -> None:
        self.versions = [0] * size
        self.reached = [0.0] * size
        self._changed = threading.Condition()

    def seen(self, index: int, version: int) -> None:
        now = time.perf_counter()
        with self._changed:
            if version > self.versions[index]:
                self.versions[index] = version
                self.reached[index] = now
                self._changed.notify_all()

    def wait(self, version: int, timeout: float = PUSH_SECONDS) -> float:
        """Block until every peer has `version`; the perf_counter time the last one got it."""
        with self._changed:
            if not self._changed.wait_for(lambda: min(self.versions) >= version, timeout):
                behind = [i for i, v in enumerate(self.versions) if v < version]
                raise RuntimeError(f"peers {behind} never got version {version}")
            return max(self.reached)


class Peer:
    """One socketio.Client on the websocket transport, reporting its pushes to a Room."""

    def __init__(self, room: Room, index: int, *, keep_records: bool = False) -> None:
        self.room = room
        self.index = index
        self.records: dict[int, dict[str, Any]] = {}  # version -> record, when kept
        self._keep = keep_records
        self._tokens, self._last = PEER_BURST, time.monotonic()
        self.client = socketio.Client(
            reconnection=False, handle_sigint=False, websocket_extra_options=WEBSOCKET_OPTIONS
        )
        self.client.on("events", self._on_events, namespace=NAMESPACE)
        self.client.on("welcome", self._on_welcome, namespace=NAMESPACE)
        # A browser reads a socket's messages one after another, in the order they came; the
        # engine.io client would hand each to a new thread, and a push's own part could then
        # be read before the push. Each is read in the socket's reading thread instead.
        trigger = self.client.eio._trigger_event

        def in_order(event: str, *args: Any, **kwargs: Any) -> Any:
            return trigger(event, *args, **{**kwargs, "run_async": False})

        self.client.eio._trigger_event = in_order

    def _on_events(self, payload: dict[str, Any]) -> None:
        if self._keep:
            for record in payload.get("records", ()):
                self.records[record["version"]] = record
        self.room.seen(self.index, int(payload["version"]))

    def _on_welcome(self, payload: dict[str, Any]) -> None:
        self.room.seen(self.index, int(payload["version"]))

    def connect(self, url: str, auth: dict[str, Any]) -> None:
        self.client.connect(
            url, auth=auth, transports=["websocket"], namespaces=[NAMESPACE], wait_timeout=20
        )

    def close(self) -> None:
        self.client.disconnect()

    def pace(self) -> None:
        """Sleep until the server's rate limit would take one more message."""
        now = time.monotonic()
        self._tokens = min(PEER_BURST, self._tokens + (now - self._last) * PEER_RATE)
        self._last = now
        if self._tokens < 1:
            time.sleep((1 - self._tokens) / PEER_RATE)
            self._tokens, self._last = 1.0, time.monotonic()
        self._tokens -= 1

    def call(self, event: str, payload: dict[str, Any]) -> dict[str, Any]:
        ack = self.client.call(event, payload, namespace=NAMESPACE, timeout=ACK_SECONDS)
        if not isinstance(ack, dict) or not ack.get("ok"):
            raise RuntimeError(f"{event} {payload} refused: {ack}")
        return ack


def connect_all(url: str, peers: Sequence[tuple[Peer, dict[str, Any]]]) -> None:
    """Connect every (peer, auth), a few at a time."""
    with ThreadPoolExecutor(CONNECT_WORKERS) as pool:
        for done in [pool.submit(peer.connect, url, auth) for peer, auth in peers]:
            done.result()


def close_all(peers: Sequence[Peer]) -> None:
    """Disconnect every peer at once: each close waits up to 3 s for a close frame that
    the Werkzeug server never sends back (it reads that frame as a bad HTTP request)."""
    if peers:
        with ThreadPoolExecutor(len(peers)) as pool:
            list(pool.map(Peer.close, peers))


def timed_command(peer: Peer, event: str, payload: dict[str, Any]) -> tuple[dict[str, Any], float]:
    """(ack, seconds) of one command: from its emit until the ack is back and every peer
    of the sender's room has been pushed the version the ack names."""
    peer.pace()
    start = time.perf_counter()
    ack = peer.call(event, payload)
    acked = time.perf_counter()
    last_push = peer.room.wait(int(ack["version"]))
    return ack, max(acked, last_push) - start
