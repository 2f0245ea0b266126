"""A refused Socket.IO connection tells the client why, with the code docs/protocol.md
promises: a real python-socketio client against the real server on loopback."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
import requests
import socketio

from server.live.sockets import NAMESPACE
from tests.live_server import LiveServer


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):
    db: Path = tmp_path_factory.mktemp("refusals") / "court.db"
    with LiveServer(db, deadlines=False) as live:
        yield live


def refusal(server: LiveServer, auth: Any) -> Any:
    """What the client's `connect_error` handler receives for this `auth`."""
    client = socketio.Client(reconnection=False)
    received: list[Any] = []
    arrived = threading.Event()

    @client.on("connect_error", namespace=NAMESPACE)
    def _refused(data: Any) -> None:
        received.append(data)
        arrived.set()

    with pytest.raises(socketio.exceptions.ConnectionError):
        client.connect(
            server.url,
            namespaces=[NAMESPACE],
            transports=["websocket"],
            auth=auth,
            wait_timeout=10,
        )
    assert arrived.wait(10)
    client.disconnect()
    return received[0]


@pytest.mark.parametrize(
    ("auth", "code"),
    [
        ({"game": "nosuchgame", "token": None}, "unknown_game"),
        ({"game": "bad game id!", "token": None}, "bad_request"),
        ("not an object", "bad_request"),
        ({"game": "{game}", "token": "not-a-seat-token"}, "bad_token"),
    ],
    ids=["unknown-game", "bad-id", "bad-auth", "bad-token"],
)
def test_a_refused_connection_carries_its_code_and_sentence(
    server: LiveServer, auth: Any, code: str
) -> None:
    created = requests.post(
        f"{server.url}/api/games", json={"players": 3, "host_name": "Eddard"}, timeout=10
    ).json()
    if isinstance(auth, dict) and auth["game"] == "{game}":
        auth = {**auth, "game": created["game_id"]}

    data = refusal(server, auth)

    assert data["message"] and data["data"]["ok"] is False
    assert data["data"]["code"] == code
    assert data["data"]["message"] == data["message"]
