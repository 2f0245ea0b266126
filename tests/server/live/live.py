"""Socket.IO test helpers: connect real test clients to a game, send acked messages, read pushes."""

from __future__ import annotations

from typing import Any

from flask import Flask

from court.commands import Actor, AdjustGold
from court.log.chain import Record
from server.live.sockets import NAMESPACE
from server.service.court_service import CourtService
from server.store.sql import SqlEventStore
from tests.server.http.court_client import Game

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
