"""A snapshot row written by anyone but the server is never read: whoever can write the database
can edit the `snapshots` table, but not seal a row with the instance secret the database does not
hold (server/service/replay.py). A forged row changes nothing anyone sees, and `/verify` names
it."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app import create_app
from tests.databases import migrated
from tests.server.http.court_client import Game, bearer, lobby_game, start

EVERY = 5
FORGER_TOKEN = "the-forgers-own-token"


@pytest.fixture
def make_app(tmp_path: Path) -> Iterator[Callable[[], Flask]]:
    """A new app (a restarted server, its cache empty) on the same SQLite file each time."""
    url = migrated(tmp_path / "t.db")
    made: list[Flask] = []

    def make() -> Flask:
        made.append(create_app({"DATABASE_URL": url, "SNAPSHOT_EVERY": EVERY}))
        return made[-1]

    yield make
    for app in made:
        app.extensions["court_store"].close()


def record_gold(client: FlaskClient, game_id: str, token: str, amount: int) -> int:
    response = client.post(
        f"/api/games/{game_id}/commands/record_gold",
        json={"house": "stark", "amount": amount, "cause": "Recorded at the table"},
        headers=bearer(token),
    )
    assert response.status_code == 200, response.get_json()
    return int(response.get_json()["version"])


@pytest.fixture
def played(make_app: Callable[[], Flask], tmp_path: Path) -> tuple[Game, int, Path]:
    """A started game with gold facts recorded past version 25; its head and database file."""
    client = make_app().test_client()
    game = lobby_game(client)
    version = start(client, game)
    amount = 1
    while version < 26:
        version = record_gold(client, game.id, game.host_token, amount)
        amount = -amount
    return game, version, tmp_path / "t.db"


def forge(db: Path, game_id: str) -> int:
    """Edit the newest snapshot row of the game in place: Stark's treasury 99, and the host's
    token digest one of the forger's choosing. The version of the row."""
    with sqlite3.connect(db) as conn:
        version, state = conn.execute(
            "SELECT version, state FROM snapshots WHERE game_id = ? ORDER BY version DESC",
            (game_id,),
        ).fetchone()
        plain = json.loads(state)
        plain["treasury"] = [[h, 99 if h == "stark" else g] for h, g in plain["treasury"]]
        plain["host_token_sha256"] = hashlib.sha256(FORGER_TOKEN.encode()).hexdigest()
        conn.execute(
            "UPDATE snapshots SET state = ? WHERE game_id = ? AND version = ?",
            (json.dumps(plain), game_id, version),
        )
    conn.close()
    return int(version)


def treasury(client: FlaskClient, path: str) -> int:
    view = client.get(path).get_json()
    return next(h["treasury"] for h in view["houses"] if h["id"] == "stark")


def test_a_forged_snapshot_changes_no_court_and_gives_no_token_the_hosts_powers(
    make_app: Callable[[], Flask], played: tuple[Game, int, Path]
) -> None:
    # Given the log's treasuries, and the newest snapshot row then edited in the database
    game, head, db = played
    honest = make_app().test_client()
    at = {v: treasury(honest, f"/api/games/{game.id}/versions/{v}") for v in range(20, head + 1)}
    forged = forge(db, game.id)
    assert forged >= 20
    # When a restarted server shows the court at every version from the row's on, and now
    client = make_app().test_client()
    for version in range(forged, head + 1):
        assert treasury(client, f"/api/games/{game.id}/versions/{version}") == at[version]
    assert treasury(client, f"/api/games/{game.id}") == at[head]
    # Then the forger's token opens nothing, and nothing was appended in its name
    response = client.post(
        f"/api/games/{game.id}/commands/record_gold",
        json={"house": "stark", "amount": 1, "cause": "Forged"},
        headers=bearer(FORGER_TOKEN),
    )
    assert response.status_code == 401, response.get_json()
    assert client.get(f"/api/games/{game.id}").get_json()["game"]["version"] == head


def test_verify_names_a_forged_snapshot(
    make_app: Callable[[], Flask], played: tuple[Game, int, Path]
) -> None:
    game, _, db = played
    forged = forge(db, game.id)

    body = make_app().test_client().get(f"/api/games/{game.id}/verify").get_json()

    assert body["ok"] is False, body
    assert (body["check"], body["bad_version"]) == ("snapshot", forged)
    assert f"version {forged}" in body["reason"]
