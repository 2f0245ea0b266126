"""A refused Socket.IO connection tells the client why, with the code docs/protocol.md
promises: a real python-socketio client against the real server on loopback."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import requests

from tests.live_server import LiveServer
from tests.server.live.live import refusal


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):
    db: Path = tmp_path_factory.mktemp("refusals") / "court.db"
    with LiveServer(db, deadlines=False) as live:
        yield live


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
