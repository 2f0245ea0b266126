"""Socket.IO test helpers: connect real test clients to a game, send acked messages, read pushes."""

from __future__ import annotations

import threading
from dataclasses import replace
from typing import Any

import jsonpatch
import pytest
import socketio
from flask import Flask
from flask.testing import FlaskClient

from court.commands import Actor, AdjustGold
from court.log.chain import Record
from server.live.sockets import NAMESPACE
from server.service.court_service import CourtService
from server.store.sql import SqlEventStore
from tests.live_server import LiveServer
from tests.server.http.court_client import (
    Game,
    bearer,
    create_game,
    join,
    lobby_game,
    pass_decrees,
    start,
)

NORTH = ("winterfell", "white-harbor", "the-dreadfort", "moat-cailin")

__all__ = ["NAMESPACE", "NORTH", "appended_elsewhere", "connect", "pushed", "send"]


def connect(app: Flask, game: Game, token: str | None, last_version: int | None = None):
    socketio = app.extensions["socketio"]
    client = socketio.test_client(
        app,
        namespace=NAMESPACE,
        auth={"game": game.id, "token": token, "last_version": last_version},
    )
    assert client.is_connected(NAMESPACE)
    return client


def send(client, event: str, payload: dict | None = None) -> dict[str, Any]:
    return client.emit(event, payload or {}, namespace=NAMESPACE, callback=True)


def pushed(client) -> list[dict[str, Any]]:
    """Every record pushed to this client so far, in order, each as the client may see it: a
    push's records as a spectator sees them, unless its `own` part carries them with the
    client's own private parts (docs/protocol.md, "Court views in pushes")."""
    records: list[dict[str, Any]] = []
    for message in client.get_received(NAMESPACE):
        payload = message["args"][0]
        if message["name"] == "events":
            records.extend(payload["records"])
        elif message["name"] == "own" and "records" in payload:
            mine = {r["version"]: r for r in payload["records"]}
            records = [mine.get(r["version"], r) for r in records]
    return records


def appended_elsewhere(app: Flask, game: Game, count: int) -> list[Record]:
    """`count` gold records another process appends to the game; the records."""
    store = SqlEventStore(app.config["DATABASE_URL"])
    other = CourtService(store)
    try:
        before = other.current(game.id).version
        for amount in range(1, count + 1):
            other.handle(
                game.id, AdjustGold(house="stark", amount=amount, cause="tax"), Actor(host=True)
            )
        return other.records(game.id, after=before)
    finally:
        store.close()


FOUR_HOUSES = ("stark", "lannister", "tyrell", "martell")


def four_seats(app: Flask) -> Game:
    client = app.test_client()
    game = lobby_game(client, FOUR_HOUSES, players=4, table_votes={"replace_after": 0})
    return replace(game, started=start(client, game))


THREE_HOUSES = ("stark", "lannister", "tyrell")


def seated_without_host(http: FlaskClient, **body: Any) -> Game:
    """A started game of three seats, whose host and game master hold none."""
    created = create_game(http, game_master_name="Maester Aemon", **body)
    tokens, seats = {}, {}
    for house in THREE_HOUSES:
        joined = join(http, created["game_id"], house, None, created["invite"])
        tokens[house], seats[house] = joined["token"], joined["seat"]
    game = Game(
        created["game_id"],
        created["host_token"],
        tokens,
        seats,
        game_master_token=created["game_master_token"],
        invite=created["invite"],
    )
    started = http.post(f"/api/games/{game.id}/commands/start", json={}, headers=game.host)
    assert started.status_code == 200, started.get_json()
    pass_decrees(http, game)
    return game


class Page:
    """A client that keeps its court view as a page does (static/pages/court.js): the welcome's,
    changed by each push and by its own part when the push names its audience."""

    def __init__(self, app: Flask, game: Game, token: str | None) -> None:
        self.client = connect(app, game, token)
        self.token = token
        self.court: dict[str, Any] = {}
        self.audience = ""
        self.pushes: list[dict[str, Any]] = []
        self.parts: list[dict[str, Any]] = []  # its own parts of the pushes
        self.awaiting: int | None = None
        self.read()

    def read(self) -> None:
        for message in self.client.get_received(NAMESPACE):
            payload = message["args"][0]
            if message["name"] == "welcome":
                self.court, self.audience = payload["court"], payload["audience"]
                assert self.court["checkpoint"] == payload["checkpoint"]
            elif message["name"] == "events" and "view" in payload:
                self.follow(payload)
            elif message["name"] == "own":
                self.follow_own(payload)
        assert self.awaiting is None, "a push named this page's audience and sent it no part"

    def follow(self, push: dict[str, Any]) -> None:
        self.pushes.append(push)
        view = push["view"]
        assert self.awaiting is None
        assert view["from"] == self.court["game"]["version"]
        self.court = jsonpatch.apply_patch(self.court, view["patch"])
        assert self.court["game"]["version"] == push["version"]
        self.court["checkpoint"] = push["checkpoint"]
        self.awaiting = push["version"] if self.audience in view["own"] else None

    def follow_own(self, part: dict[str, Any]) -> None:
        self.parts.append(part)
        assert part["audience"] == self.audience and part["version"] == self.awaiting
        self.awaiting = None
        self.court = jsonpatch.apply_patch(self.court, part["patch"])

    def records(self) -> list[dict[str, Any]]:
        """The pushed records, each as its own part carries it when it does."""
        mine = {r["version"]: r for p in self.parts for r in p.get("records", ())}
        return [mine.get(r["version"], r) for p in self.pushes for r in p["records"]]


def pages_of(app: Flask, game: Game) -> dict[str, Page]:
    """A page of each audience: two seats, the host without a seat, the game master and a
    spectator."""
    tokens = {
        "stark": game.tokens["stark"],
        "lannister": game.tokens["lannister"],
        "host": game.host_token,
        "master": game.game_master_token,
        "spectator": None,
    }
    return {name: Page(app, game, token) for name, token in tokens.items()}


def shown(http: FlaskClient, game: Game, token: str | None) -> dict[str, Any]:
    answer = http.get(f"/api/games/{game.id}", headers=bearer(token) if token else {})
    assert answer.status_code == 200
    view: dict[str, Any] = answer.get_json()
    return view


def talk(client) -> list[dict[str, Any]]:
    """Every talk line pushed to this client so far, in order."""
    return [
        line
        for message in client.get_received(NAMESPACE)
        if message["name"] == "talk"
        for line in message["args"][0]["lines"]
    ]


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
