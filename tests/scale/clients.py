"""Real clients of running servers: HTTP through `requests` shaped like Flask's test client (so
tests/server/http/court_client.py's steps work against any server), and python-socketio clients over
WebSocket that keep everything they are pushed."""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import requests
import socketio

from server.live.sockets import NAMESPACE

WAIT_SECONDS = 20.0  # how long a client waits for a push or an ack


class Answer:
    """A `requests` response with the parts of Flask's test response the steps read."""

    def __init__(self, response: requests.Response) -> None:
        self.status_code = response.status_code
        self.data = response.content
        self.mimetype = response.headers.get("Content-Type", "").split(";")[0]
        self._response = response

    def get_json(self) -> Any:
        return self._response.json()


class HttpClient:
    """`get` and `post` against a running server, as `app.test_client()` offers them."""

    def __init__(self, url: str, session: requests.Session | None = None) -> None:
        self.url = url
        self.session = session or requests.Session()

    def get(self, path: str, headers: dict[str, str] | None = None) -> Answer:
        return Answer(self.session.get(self.url + path, headers=headers, timeout=WAIT_SECONDS))

    def post(self, path: str, json: Any = None, headers: dict[str, str] | None = None) -> Answer:
        answer = self.session.post(
            self.url + path, json=json, headers=headers, timeout=WAIT_SECONDS
        )
        return Answer(answer)


def in_arrival_order(sio: socketio.Client) -> None:
    """Hands each message to its handler on the thread that read it, in arrival order. The
    Engine.IO client otherwise starts a thread per message, and under load two pushes can be
    kept in the other order than the server sent them (a browser's client never does that)."""
    eio = sio.eio
    trigger = eio._trigger_event

    def in_order(event: str, *args: Any, **kwargs: Any) -> Any:
        kwargs["run_async"] = False
        return trigger(event, *args, **kwargs)

    eio._trigger_event = in_order  # type: ignore[method-assign]


class LiveClient:
    """One Socket.IO connection to /court that records every `welcome`, `events`, `presence`
    and talk line it gets, in order; a record whose private part is the client's own comes in
    the push's `own` part after it, and takes its place (docs/protocol.md)."""

    def __init__(self, name: str, session: requests.Session | None = None) -> None:
        self.name = name
        self.sio = socketio.Client(reconnection=False, handle_sigint=False, http_session=session)
        in_arrival_order(self.sio)
        self.welcomes: list[dict[str, Any]] = []
        self.records: list[dict[str, Any]] = []  # every pushed record, in arrival order
        self.presences: list[dict[str, Any]] = []
        self.checkpoints: list[dict[str, Any]] = []  # the signed checkpoint of each push
        self.talk: list[dict[str, Any]] = []  # every talk line pushed, backlog included
        self._changed = threading.Condition()
        self.sio.on("welcome", self._keep(self.welcomes), namespace=NAMESPACE)
        self.sio.on("presence", self._keep(self.presences), namespace=NAMESPACE)
        self.sio.on("events", self._events, namespace=NAMESPACE)
        self.sio.on("own", self._own, namespace=NAMESPACE)
        self.sio.on("talk", self._talk, namespace=NAMESPACE)
        self.sio.on("disconnect", self._gone, namespace=NAMESPACE)
        self.disconnected = False

    def _keep(self, into: list[dict[str, Any]]) -> Callable[[dict[str, Any]], None]:
        def keep(payload: dict[str, Any]) -> None:
            with self._changed:
                into.append(payload)
                self._changed.notify_all()

        return keep

    def _gone(self, *reason: Any) -> None:
        with self._changed:
            self.disconnected = True
            self._changed.notify_all()

    def _events(self, payload: dict[str, Any]) -> None:
        with self._changed:
            self.records.extend(payload["records"])
            self.checkpoints.append(payload["checkpoint"])
            self._changed.notify_all()
        if payload.get("more"):  # a catch-up page: ask for the next (docs/protocol.md)
            after = {"last_version": payload["next_after"]}
            self.sio.emit("sync", after, namespace=NAMESPACE, callback=self._events)

    def _own(self, payload: dict[str, Any]) -> None:
        mine = {r["version"]: r for r in payload.get("records", ())}
        if not mine:
            return
        with self._changed:
            self.records = [mine.get(r["version"], r) for r in self.records]
            self._changed.notify_all()

    def _talk(self, payload: dict[str, Any]) -> None:
        with self._changed:
            self.talk.extend(payload["lines"])
            self._changed.notify_all()

    def heard(self, text: str) -> int:
        """How many times a line with this text was pushed to this client."""
        with self._changed:
            return sum(1 for line in self.talk if line["text"] == text)

    def connect(
        self,
        url: str,
        game_id: str,
        token: str | None = None,
        last_version: int | None = None,
        transports: tuple[str, ...] = ("websocket",),
    ) -> LiveClient:
        auth = {"game": game_id, "token": token, "last_version": last_version}
        self.sio.connect(
            url,
            auth=auth,
            transports=list(transports),
            namespaces=[NAMESPACE],
            wait_timeout=WAIT_SECONDS,
        )
        return self

    def reconnect(self, url: str, game_id: str, token: str | None) -> LiveClient:
        """A new connection that catches up from the last version this client saw."""
        self.close()
        fresh = LiveClient(self.name)
        fresh.records = list(self.records)
        fresh.welcomes = list(self.welcomes)
        return fresh.connect(url, game_id, token, last_version=self.version)

    def close(self) -> None:
        if self.sio.connected:
            self.sio.disconnect()

    def call(self, event: str, payload: dict[str, Any] | None = None) -> dict[str, Any]:
        """Send and wait for the ack; ConnectionError as soon as the connection is lost."""
        answers: list[dict[str, Any]] = []

        def acked(ack: dict[str, Any]) -> None:
            with self._changed:
                answers.append(ack)
                self._changed.notify_all()

        self.send(event, payload or {}, acked)
        self.wait_for(lambda c: bool(answers) or c.disconnected)
        if not answers:
            raise ConnectionError(f"{self.name}: the connection closed before the ack of {event}")
        return answers[0]

    def send(self, event: str, payload: dict[str, Any], acked: Callable[[Any], None]) -> None:
        """Emit without waiting; `acked(ack)` is called when the ack comes back."""
        self.sio.emit(event, payload, namespace=NAMESPACE, callback=acked)

    @property
    def version(self) -> int:
        """The highest version this client has seen, in a welcome or a push."""
        with self._changed:
            seen = [w["version"] for w in self.welcomes] + [r["version"] for r in self.records]
        return max(seen, default=0)

    def wait_for(self, ready: Callable[[LiveClient], bool], timeout: float = WAIT_SECONDS) -> None:
        deadline = time.monotonic() + timeout
        with self._changed:
            while not ready(self):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"{self.name}: gave up waiting after {timeout:.0f} s")
                self._changed.wait(left)

    def wait_version(self, version: int, timeout: float = WAIT_SECONDS) -> None:
        self.wait_for(lambda c: c.version >= version, timeout)

    def repeated(self) -> list[int]:
        """Versions pushed more than once."""
        return sorted(v for v, n in Counter(r["version"] for r in self.records).items() if n > 1)


def close_all(clients: list[LiveClient]) -> None:
    """Close every client at once: each close may wait up to 3 s for the server's closing
    frame (Werkzeug's development server never sends one back)."""
    threads = [threading.Thread(target=c.close) for c in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=WAIT_SECONDS)
