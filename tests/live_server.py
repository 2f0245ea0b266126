"""The real server on 127.0.0.1 and a free port, in threads as `make run` serves it, with
python-socketio clients over WebSocket: for the browser tests and the others that need a real
network (several processes are `devtools.servers`' part)."""

from __future__ import annotations

import contextlib
import logging
import socket
import threading
import time
from pathlib import Path
from typing import Any

import requests
import socketio
from werkzeug.serving import WSGIRequestHandler, make_server

from app import create_app, start_deadlines, start_notices
from server.live.sockets import NAMESPACE
from tests.databases import migrated


class NoDelayHandler(WSGIRequestHandler):
    # As app.py does for `make run`: a push followed by an ack would wait for Nagle otherwise.
    disable_nagle_algorithm = True


class LiveServer:
    """`with LiveServer(db) as server:` serves until the block ends; `deadlines` runs the
    deadline watcher as `make run` does; `port` serves on the port a server stopped before
    used, so that pages of its origin find what they kept (0: a free one)."""

    def __init__(
        self,
        db: Path,
        *,
        deadlines: bool = True,
        settings: dict[str, Any] | None = None,
        port: int = 0,
    ) -> None:
        logging.getLogger("werkzeug").setLevel(logging.WARNING)  # a line per request otherwise
        # A new database starts as a copy of one migrated once; an existing one is reopened.
        url = f"sqlite:///{db}" if db.exists() else migrated(db)
        # Presence settled from the start (PRESENCE_TTL 0) unless a test says otherwise: pages
        # vote as soon as a test closes another one.
        given = {"DATABASE_URL": url, "DEADLINES": deadlines, "PRESENCE_TTL": 0}
        self.app = create_app({**given, **(settings or {})})
        if deadlines:
            start_deadlines(self.app)
        if self.app.config["NOTICES"]:
            start_notices(self.app)
        self.http = make_server(
            "127.0.0.1", port, self.app, threaded=True, request_handler=NoDelayHandler
        )
        self.url = f"http://127.0.0.1:{self.http.server_port}"
        self._accepted: set[socket.socket] = set()
        self._accept = self.http.get_request
        self.http.get_request = self._get_request  # type: ignore[method-assign]
        self.thread = threading.Thread(target=self.http.serve_forever, daemon=True)

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 30
        while True:
            try:
                # A loaded machine may take longer than a probe's timeout to answer the first
                # request; that is a slow start, not a failed one, until the deadline.
                if requests.get(f"{self.url}/healthz", timeout=2).ok:
                    return self
            except requests.RequestException:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"the server at {self.url} did not answer within 30 s")
            time.sleep(0.05)

    def _get_request(self) -> tuple[socket.socket, Any]:
        connection, address = self._accept()
        self._accepted = {kept for kept in self._accepted if kept.fileno() != -1}
        self._accepted.add(connection)
        return connection, address

    def __exit__(self, *exc: object) -> None:
        self.http.shutdown()
        self.thread.join(timeout=10)
        # A stopped process's sockets close with it. The handler threads of a threaded server
        # would otherwise keep serving a page's open WebSocket from the stopped app, and a page
        # kept open across a restart would still talk to the server that is gone.
        for connection in self._accepted:
            with contextlib.suppress(OSError):  # already closed by its handler
                connection.shutdown(socket.SHUT_RDWR)
        self.app.extensions["deadlines"].stop()
        self.app.extensions["bots"].stop()
        for outbox in ("notices", "reminders"):
            sender = self.app.extensions[outbox].sender
            if sender is not None:
                sender.stop()
        self.app.extensions["court_store"].close()

    def client(self, game_id: str, token: str | None) -> socketio.Client:
        """A connected python-socketio client of the game, over WebSocket only."""
        client = socketio.Client(reconnection=False)
        client.connect(
            self.url,
            namespaces=[NAMESPACE],
            transports=["websocket"],
            auth={"game": game_id, "token": token},
            wait_timeout=10,
        )
        return client

    def head(self, game_id: str) -> tuple[int, str]:
        verified: dict[str, Any] = requests.get(
            f"{self.url}/api/games/{game_id}/verify", timeout=10
        ).json()
        assert verified["ok"] is True, verified
        return verified["records"], verified["head"]


def close_all(clients: list[socketio.Client]) -> None:
    """Disconnect every client at once: each waits up to seconds for the dev server to
    close its WebSocket, so one after another would add up."""
    threads = [threading.Thread(target=client.disconnect) for client in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=15)
