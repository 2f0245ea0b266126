"""Limits per client address over Socket.IO (server/clients/limits.py): messages are counted per
address across all its connections, open connections and connects per address are capped,
and a refusal carries `rate_limited`; an honest table behind one address never meets them."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import requests
import socketio
from flask import Flask

from app import create_app
from server.live.sockets import NAMESPACE
from tests.databases import migrated
from tests.live_server import LiveServer, close_all
from tests.server.http.court_client import Game, lobby_game, start
from tests.server.live.live import refusal


def court(tmp_path: Path, **settings: Any) -> Flask:
    return create_app({"DATABASE_URL": migrated(tmp_path / "t.db"), "DEADLINES": False, **settings})


def started(app: Flask) -> Game:
    client = app.test_client()
    game = lobby_game(client)
    return replace(game, started=start(client, game))


def connect(app: Flask, game: Game, token: str | None, address: str = "10.0.0.1") -> Any:
    """A test client whose connection comes from `address`."""
    http = app.test_client()
    http.environ_base["REMOTE_ADDR"] = address
    return app.extensions["socketio"].test_client(
        app, namespace=NAMESPACE, auth={"game": game.id, "token": token}, flask_test_client=http
    )


def codes(client: Any, count: int) -> list[str]:
    acks = [client.emit("pass", {}, namespace=NAMESPACE, callback=True) for _ in range(count)]
    return [ack.get("code", "ok") for ack in acks]


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    app = court(tmp_path, LIMIT_MESSAGES="0.01/10", LIMIT_CONNECTION_MESSAGES="1000/1000")
    yield app
    app.extensions["court_store"].close()


def test_messages_are_counted_per_address_across_its_connections(app: Flask) -> None:
    game = started(app)
    first = connect(app, game, game.tokens["lannister"])
    second = connect(app, game, game.tokens["tyrell"])

    sent = codes(first, 6) + codes(second, 6)

    assert sent.count("rate_limited") == 2 and sent[-2:] == ["rate_limited"] * 2, sent


def test_another_address_keeps_its_own_message_allowance(app: Flask) -> None:
    game = started(app)
    first = connect(app, game, game.tokens["lannister"], "10.0.0.1")
    other = connect(app, game, game.tokens["tyrell"], "10.0.0.2")
    codes(first, 10)

    assert codes(first, 1) == ["rate_limited"]
    assert "rate_limited" not in codes(other, 5)


def test_a_rate_limited_message_says_when_to_try_again(app: Flask) -> None:
    game = started(app)
    client = connect(app, game, game.tokens["lannister"])
    codes(client, 10)

    ack = client.emit("pass", {}, namespace=NAMESPACE, callback=True)

    assert ack["ok"] is False and ack["code"] == "rate_limited", ack
    assert isinstance(ack["retry_after"], int) and ack["retry_after"] >= 1


def test_open_connections_per_address_are_capped_and_freed_on_disconnect(tmp_path: Path) -> None:
    app = court(tmp_path, LIMIT_CONNECTIONS=3)
    game = started(app)
    clients = [connect(app, game, None) for _ in range(3)]

    refused = connect(app, game, None)
    elsewhere = connect(app, game, None, "10.0.0.2")
    clients[0].disconnect(namespace=NAMESPACE)
    again = connect(app, game, None)

    assert [c.is_connected(NAMESPACE) for c in clients[1:]] == [True, True]
    assert not refused.is_connected(NAMESPACE)
    assert elsewhere.is_connected(NAMESPACE) and again.is_connected(NAMESPACE)
    app.extensions["court_store"].close()


def test_connections_and_messages_of_one_ipv6_64_are_counted_together(tmp_path: Path) -> None:
    app = court(
        tmp_path, LIMIT_CONNECTIONS=2, LIMIT_MESSAGES="0.01/4", LIMIT_CONNECTION_MESSAGES="9/9"
    )
    game = started(app)
    first = connect(app, game, game.tokens["lannister"], "2001:db8:7:7::a")
    second = connect(app, game, game.tokens["tyrell"], "2001:db8:7:7:1:2:3:4")

    refused = connect(app, game, None, "2001:db8:7:7::ffff")
    elsewhere = connect(app, game, None, "2001:db8:7:8::a")
    sent = codes(first, 2) + codes(second, 3)

    assert first.is_connected(NAMESPACE) and second.is_connected(NAMESPACE)
    assert not refused.is_connected(NAMESPACE) and elsewhere.is_connected(NAMESPACE)
    assert sent.count("rate_limited") == 1 and sent[-1] == "rate_limited", sent
    assert "rate_limited" not in codes(elsewhere, 4)
    app.extensions["court_store"].close()


def test_a_refused_connection_is_not_counted_as_open(tmp_path: Path) -> None:
    app = court(tmp_path, LIMIT_CONNECTIONS=2)
    game = started(app)
    for _ in range(5):
        connect(app, game, "not-a-seat-token")

    assert app.extensions["limits"].open_count("10.0.0.1") == 0
    app.extensions["court_store"].close()


def test_too_many_connects_are_refused_with_rate_limited_in_the_error_data(
    tmp_path: Path,
) -> None:
    with LiveServer(
        tmp_path / "court.db", deadlines=False, settings={"LIMIT_CONNECTS": "0.01/2"}
    ) as server:
        game_id = requests.post(
            f"{server.url}/api/games", json={"players": 3, "host_name": "Ned"}, timeout=10
        ).json()["game_id"]
        clients = [server.client(game_id, None) for _ in range(2)]

        data = refusal(server, {"game": game_id, "token": None})

        close_all(clients)
    assert data["data"]["code"] == "rate_limited" and data["data"]["ok"] is False
    assert data["data"]["retry_after"] >= 1 and data["message"] == data["data"]["message"]


def test_an_honest_table_of_six_players_and_ten_spectators_never_meets_a_limit(
    tmp_path: Path,
) -> None:
    """Everyone behind one address, default limits: the game made, six seats claimed, sixteen
    connections, each sending a few messages at once, then everyone reloading the page."""
    with LiveServer(tmp_path / "court.db", deadlines=False) as server:
        http = requests.Session()
        made = http.post(f"{server.url}/api/games", json={"players": 6, "host_name": "Ned"})
        game_id, host = made.json()["game_id"], made.json()["host_token"]
        houses = ("stark", "lannister", "tyrell", "greyjoy", "martell", "baratheon")
        tokens = []
        for index, house in enumerate(houses):
            headers = {"Authorization": f"Bearer {host}"} if index == 0 else {}
            joined = http.post(
                f"{server.url}/api/games/{game_id}/commands/join",
                json={"house": house, "player_name": house, "invite": made.json()["invite"]},
                headers=headers,
            )
            assert joined.status_code == 201, joined.json()
            tokens.append(joined.json()["token"])
        for _ in range(2):  # the table, then everyone reloads
            table = [server.client(game_id, t) for t in tokens + [None] * 10]
            acks = [
                c.call("sync", {"last_version": 0}, namespace=NAMESPACE, timeout=10)
                for c in table
                for _ in range(5)
            ]
            close_all(table)
            assert all(ack["ok"] for ack in acks), [a for a in acks if not a["ok"]][:1]
        http.close()


def test_a_client_socket_is_refused_past_the_cap_over_the_network(tmp_path: Path) -> None:
    with LiveServer(
        tmp_path / "court.db", deadlines=False, settings={"LIMIT_CONNECTIONS": 1}
    ) as server:
        game_id = requests.post(
            f"{server.url}/api/games", json={"players": 3, "host_name": "Ned"}, timeout=10
        ).json()["game_id"]
        first = server.client(game_id, None)

        with pytest.raises(socketio.exceptions.ConnectionError):
            server.client(game_id, None)
        close_all([first])
