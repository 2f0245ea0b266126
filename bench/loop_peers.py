"""Socket.IO peers for bench/load.py that cost the bench little: every socket on one asyncio
loop in a thread of its own, speaking Engine.IO 4 / Socket.IO 5 over WebSocket through
wsproto (which python-socketio's server stack already brings), one TCP connection each.

A python-socketio `Client` runs a reader, a writer and a ping thread per socket; with 1,200
sockets in the bench's process those threads cost ~4 ms of CPU per command on the cores the
server runs on, so the bench measured its clients as much as the server. Here a push costs
one frame parse and one json.loads on the loop. Only what the bench needs is spoken: connect
to a namespace with auth (the court's by default; boardgame.io's `/warden` for
bench/bgio_loop.py), events with their arguments, acks, Engine.IO's ping and the close.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import socket
import threading
import time
from collections.abc import Coroutine, Iterable, Sequence
from typing import Any, TypeVar
from urllib.parse import urlsplit

from live_peers import ACK_SECONDS, NAMESPACE, PEER_BURST, PEER_RATE, PUSH_SECONDS, Room
from wsproto import ConnectionType, WSConnection
from wsproto.events import (
    AcceptConnection,
    CloseConnection,
    Event,
    Ping,
    RejectConnection,
    Request,
    TextMessage,
)

T = TypeVar("T")
CONNECT_SECONDS = 20.0
CONNECT_AT_ONCE = 64  # peers opening their connection at the same time
PATH = "/socket.io/?EIO=4&transport=websocket"


class Loop:
    """An asyncio loop in a daemon thread; `run` waits for a coroutine from another thread."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, name="peers", daemon=True)
        self._thread.start()

    def run(self, coro: Coroutine[Any, Any, T], timeout: float | None = None) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(timeout=5)


class LoopRoom(Room):
    """A Room whose peers live on the loop: `reach` waits there; `wait` (from a thread) too."""

    def __init__(self, size: int) -> None:
        super().__init__(size)
        self._waiters: list[tuple[int, asyncio.Future[None]]] = []

    def seen(self, index: int, version: int) -> None:
        super().seen(index, version)
        if self._waiters:
            low = min(self.versions)
            for wanted, future in self._waiters:
                if wanted <= low and not future.done():
                    future.set_result(None)
            self._waiters = [w for w in self._waiters if w[0] > low]

    async def reach(self, version: int) -> None:
        """Until every peer has `version` (on the loop)."""
        if min(self.versions) >= version:
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.append((version, future))
        try:
            await asyncio.wait_for(future, PUSH_SECONDS)
        except TimeoutError:
            behind = [i for i, v in enumerate(self.versions) if v < version]
            raise RuntimeError(f"peers {behind} never got version {version}") from None


class LoopPeer:
    """One WebSocket to a namespace (the court's by default), reporting the court's pushes to
    a Room; a subclass answers other servers' events in `_on`."""

    def __init__(
        self,
        loop: Loop,
        room: Room,
        index: int,
        *,
        keep_records: bool = False,
        namespace: str = NAMESPACE,
    ) -> None:
        self.loop = loop
        self.room = room
        self.index = index
        self.namespace = namespace
        # packets of the default namespace "/" name none; of any other, "<namespace>,"
        self._prefix = "" if namespace == "/" else f"{namespace},"
        self.records: dict[int, dict[str, Any]] = {}  # version -> record, when kept
        self._keep = keep_records
        self._tokens, self._last = PEER_BURST, time.monotonic()
        self._ws = WSConnection(ConnectionType.CLIENT)
        self._ids = itertools.count()
        self._acks: dict[int, asyncio.Future[Any]] = {}
        self._text: list[str] = []  # parts of a text message still arriving
        self._auth: dict[str, Any] = {}
        self._writer: asyncio.StreamWriter | None = None
        self._opened: asyncio.Future[None] | None = None
        self._task: asyncio.Task[None] | None = None

    # -- from the bench's threads --------------------------------------------------

    def connect(self, url: str, auth: dict[str, Any]) -> None:
        self.loop.run(self.open(url, auth), timeout=CONNECT_SECONDS + 5)

    def close(self) -> None:
        self.loop.run(self.shut(), timeout=10)

    # -- on the loop -------------------------------------------------------------

    async def open(self, url: str, auth: dict[str, Any]) -> None:
        parts = urlsplit(url)
        reader, self._writer = await asyncio.open_connection(parts.hostname, parts.port)
        self._writer.get_extra_info("socket").setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._auth = auth
        self._opened = asyncio.get_running_loop().create_future()
        self._send(Request(host=parts.netloc, target=PATH))
        self._task = asyncio.create_task(self._read(reader))
        await asyncio.wait_for(self._opened, CONNECT_SECONDS)

    async def shut(self) -> None:
        if self._writer is None:
            return
        try:
            self._send(CloseConnection(code=1000))
            await self._writer.drain()
        except (ConnectionError, RuntimeError, Exception):
            pass
        self._writer.close()
        if self._task is not None:
            self._task.cancel()
        self._writer = None

    async def pace(self) -> None:
        """Sleep until the server's rate limit would take one more message."""
        now = time.monotonic()
        self._tokens = min(PEER_BURST, self._tokens + (now - self._last) * PEER_RATE)
        self._last = now
        if self._tokens < 1:
            await asyncio.sleep((1 - self._tokens) / PEER_RATE)
            self._tokens, self._last = 1.0, time.monotonic()
        self._tokens -= 1

    def emit(self, event: str, *args: Any) -> None:
        """Send an event with its arguments, asking no ack."""
        self._message(f"42{self._prefix}{json.dumps([event, *args])}")

    async def call(self, event: str, payload: dict[str, Any]) -> dict[str, Any]:
        """Send an event and wait for its ack, which must be {"ok": true, ...}."""
        ack_id = next(self._ids)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._acks[ack_id] = future
        self._message(f"42{self._prefix}{ack_id}{json.dumps([event, payload])}")
        try:
            ack = await asyncio.wait_for(future, ACK_SECONDS)
        finally:
            self._acks.pop(ack_id, None)
        if not isinstance(ack, dict) or not ack.get("ok"):
            raise RuntimeError(f"{event} {payload} refused: {ack}")
        return ack

    # -- the wire ------------------------------------------------------------------

    def _send(self, event: Event) -> None:
        if self._writer is not None:
            self._writer.write(self._ws.send(event))

    def _message(self, text: str) -> None:
        self._send(TextMessage(data=text))

    async def _read(self, reader: asyncio.StreamReader) -> None:
        try:
            while data := await reader.read(65536):
                self._ws.receive_data(data)
                for event in self._ws.events():
                    self._frame(event)
        except (ConnectionError, OSError):
            pass
        finally:
            self._fail(RuntimeError("the connection closed"))

    def _fail(self, error: Exception) -> None:
        waiting = [*self._acks.values(), *([self._opened] if self._opened else [])]
        for future in waiting:
            if not future.done():
                future.set_exception(error)

    def _frame(self, event: Event) -> None:
        if isinstance(event, TextMessage):
            self._text.append(event.data)
            if event.message_finished:
                text, self._text = "".join(self._text), []
                self._packet(text)
        elif isinstance(event, Ping):
            self._send(event.response())
        elif isinstance(event, CloseConnection):
            self._fail(RuntimeError(f"closed by the server: {event.code} {event.reason}"))
        elif isinstance(event, RejectConnection):
            self._fail(RuntimeError(f"websocket refused: {event.status_code}"))
        elif not isinstance(event, AcceptConnection):
            pass  # binary frames and the like: the court sends none

    def _packet(self, text: str) -> None:
        """One Engine.IO packet: open (connect to the namespace), ping, or a Socket.IO one."""
        kind = text[:1]
        if kind == "0":
            self._message(f"40{self._prefix}{json.dumps(self._auth)}")
        elif kind == "2":
            self._message("3")
        elif kind == "4":
            body = text[2:].removeprefix(self._prefix)
            self._socketio(text[1:2], body)

    def _socketio(self, kind: str, body: str) -> None:
        opened = self._opened
        if kind == "0" and opened is not None and not opened.done():
            opened.set_result(None)
        elif kind == "4" and opened is not None and not opened.done():
            opened.set_exception(RuntimeError(f"connection refused: {body}"))
        elif kind == "2":
            name, *args = json.loads(body)
            self._on(name, args)
        elif kind == "3":
            digits = len(body) - len(body.lstrip("0123456789"))
            future = self._acks.get(int(body[:digits]))
            if future is not None and not future.done():
                future.set_result(json.loads(body[digits:])[0])

    def _on(self, name: str, args: list[Any]) -> None:
        """An event from the server with its arguments: the court's carry one payload."""
        payload: dict[str, Any] = args[0] if args else {}
        if name == "events" and self._keep:
            for record in payload.get("records", ()):
                self.records[record["version"]] = record
        if name in ("events", "welcome"):
            self.room.seen(self.index, int(payload["version"]))


async def open_all(opening: Iterable[Coroutine[Any, Any, None]]) -> None:
    """Await every connection's opening, CONNECT_AT_ONCE at a time."""
    gate = asyncio.Semaphore(CONNECT_AT_ONCE)

    async def one(opens: Coroutine[Any, Any, None]) -> None:
        async with gate:
            await opens

    await asyncio.gather(*(one(opens) for opens in opening))


def in_every_room(
    loop: Loop, plays: Sequence[tuple[str, Coroutine[Any, Any, None]]], errors: list[str]
) -> float:
    """Every room's play at once on the loop, a (name, coroutine) each; a play that fails
    puts "<name>: <error>" in `errors` and the others go on. The wall seconds it took."""

    async def guarded(name: str, play: Coroutine[Any, Any, None]) -> None:
        try:
            await play
        except Exception as exc:  # counted and printed: the run reports errors > 0
            errors.append(f"{name}: {exc!r}")

    async def everyone() -> float:
        start = time.perf_counter()
        await asyncio.gather(*(guarded(name, play) for name, play in plays))
        return time.perf_counter() - start

    return loop.run(everyone())


def close_peers(loop: Loop, peers: Sequence[LoopPeer]) -> None:
    """Close every peer at once."""

    async def shut_all() -> None:
        await asyncio.gather(*(peer.shut() for peer in peers), return_exceptions=True)

    if peers:
        loop.run(shut_all(), timeout=60)
