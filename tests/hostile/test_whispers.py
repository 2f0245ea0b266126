"""A whisper stays between its two parties on every path: a third seat, a spectator, the host who
holds no seat and the game master never see it, neither pushed, nor over HTTP, in the history, the
export, the checks of the chains, an error or the server's log."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from flask import Flask

from app import create_app
from tests.databases import migrated
from tests.server.http.court_client import bearer, create_game, join
from tests.server.live.live import NAMESPACE

SECRET = "The Red Wedding is at the Twins"


@pytest.fixture
def app(tmp_path) -> Flask:
    return create_app({"DATABASE_URL": migrated(tmp_path / "court.db")})


def received(client) -> str:
    """Everything pushed to a client, as one text."""
    return json.dumps(client.get_received(NAMESPACE))


def test_a_whisper_reaches_no_third_party_on_any_path(
    app: Flask, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    http = app.test_client()
    created = create_game(http, game_master_name="Maester Aemon")
    game_id = created["game_id"]
    tokens = {h: join(http, game_id, h)["token"] for h in ("stark", "lannister", "tyrell")}
    started = http.post(
        f"/api/games/{game_id}/commands/start", json={}, headers=bearer(created["host_token"])
    )
    assert started.status_code == 200
    others = {
        "tyrell": tokens["tyrell"],
        "host": created["host_token"],
        "master": created["game_master_token"],
        "spectator": None,
    }
    socketio = app.extensions["socketio"]
    clients = {
        name: socketio.test_client(app, namespace=NAMESPACE, auth={"game": game_id, "token": t})
        for name, t in {
            **others,
            "stark": tokens["stark"],
            "lannister": tokens["lannister"],
        }.items()
    }
    stark = clients["stark"]
    ack = stark.emit("whisper", {"to": 1, "text": SECRET}, namespace=NAMESPACE, callback=True)
    assert ack["ok"] is True
    # A refused whisper's error does not repeat it either.
    refused = stark.emit("whisper", {"to": 0, "text": SECRET}, namespace=NAMESPACE, callback=True)
    assert refused["ok"] is False and SECRET not in json.dumps(refused)
    assert SECRET in received(clients["lannister"])
    for name, token in others.items():
        assert SECRET not in received(clients[name]), name
        clients[name].disconnect(namespace=NAMESPACE)
        again = socketio.test_client(
            app, namespace=NAMESPACE, auth={"game": game_id, "token": token}
        )
        assert SECRET not in received(again), f"{name}: backlog"
        assert SECRET not in every_http_answer(http, game_id, token), name
    assert SECRET in every_http_answer(http, game_id, tokens["lannister"])
    assert SECRET not in caplog.text


def every_http_answer(http, game_id: str, token: str | None) -> str:
    """What every read of the game answers this caller, as one text."""
    headers = bearer(token) if token else {}
    paths = (
        f"/api/games/{game_id}",
        f"/api/games/{game_id}/talk",
        f"/api/games/{game_id}/talk/verify",
        f"/api/games/{game_id}/events?limit=200",
        f"/api/games/{game_id}/history?limit=200",
        f"/api/games/{game_id}/export",
        f"/api/games/{game_id}/verify",
    )
    answers: list[Any] = []
    for path in paths:
        response = http.get(path, headers=headers)
        answers.append(response.get_data(as_text=True))
    return "\n".join(answers)
