"""The threaded server the browser and network tests run: it stops as a process would, so that
a page kept open across a restart talks to the new server, never to the stopped one."""

from __future__ import annotations

import time
from pathlib import Path

import requests

from tests.browser.court_http import HttpCourt
from tests.live_server import LiveServer


def test_a_stopped_server_drops_its_sockets_as_a_stopped_process_would(tmp_path: Path) -> None:
    # Given a Socket.IO client connected over WebSocket to a running server
    with LiveServer(tmp_path / "court.db", deadlines=False) as server:
        game = HttpCourt(server.url)
        client = server.client(game.id, None)
        assert client.connected
    # When the server stops, Then the client is told at once that its connection is gone
    deadline = time.monotonic() + 5
    while client.connected and time.monotonic() < deadline:
        time.sleep(0.05)
    connected = client.connected
    client.disconnect()
    assert not connected


def test_a_restarted_server_answers_a_client_that_knew_the_stopped_one(tmp_path: Path) -> None:
    # Given a client that talked to a server which then stopped
    db, session = tmp_path / "court.db", requests.Session()
    with LiveServer(db, deadlines=False) as first:
        port = first.http.server_port
        before = session.get(f"{first.url}/healthz", timeout=10).json()["process"]
    # When a new server starts on the same port, Then the client's next request reaches it
    with LiveServer(db, deadlines=False, port=port) as second:
        after = session.get(f"{second.url}/healthz", timeout=10).json()["process"]
    assert after != before
