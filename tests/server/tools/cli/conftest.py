"""Fixtures of the `flask court ...` command tests: apps on their own SQLite files, a runner for
the `court` group, and a started 3-player game with two gold facts on top of the start."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import Result
from flask import Flask

from app import create_app
from tests.databases import migrated
from tests.server.tools.cli.court_shell import Court, Played


@pytest.fixture
def make_app(tmp_path: Path) -> Iterator[Callable[[str], Flask]]:
    """A new app (with an empty cache) on `tmp_path/<name>.db`; the same name is the same file."""
    made: list[Flask] = []

    def make(name: str = "t") -> Flask:
        app = create_app({"DATABASE_URL": migrated(tmp_path / f"{name}.db")})
        made.append(app)
        return app

    yield make
    for app in made:
        app.extensions["court_store"].close()


@pytest.fixture
def app(make_app: Callable[[str], Flask]) -> Flask:
    return make_app("t")


@pytest.fixture
def court() -> Court:
    """`court(app, "verify", game_id)` runs `flask court verify GAME_ID` against that app."""

    def run(app: Flask, *args: str) -> Result:
        return app.test_cli_runner().invoke(args=["court", *args])

    return run


@pytest.fixture
def played(app: Flask, tmp_path: Path) -> Played:
    """Versions: 1 created, 2-4 seats (stark is the host), 5 GameStarted, 6 RoundStarted, then
    phase 1 of round 1 (skipped elections, the cards phase begun) up to `started`; after it
    `gold[0]` +5 stark and `gold[1]` -3 tyrell, the head."""
    client = app.test_client()
    created = client.post("/api/games", json={"players": 3, "host_name": "Eddard"}).get_json()
    gid, host = created["game_id"], created["host_token"]
    tokens = {}
    for house in ("stark", "lannister", "tyrell"):
        headers = {"Authorization": f"Bearer {host}"} if house == "stark" else {}
        response = client.post(
            f"/api/games/{gid}/commands/join",
            json={"house": house, "player_name": house.title(), "invite": created["invite"]},
            headers=headers,
        )
        assert response.status_code == 201
        tokens[house] = response.get_json()["token"]
    auth = {"Authorization": f"Bearer {host}"}
    started = client.post(f"/api/games/{gid}/commands/start", json={}, headers=auth)
    assert started.status_code == 200
    gold = []
    for house, amount in (("stark", 5), ("tyrell", -3)):
        response = client.post(
            f"/api/games/{gid}/commands/record_gold",
            json={"house": house, "amount": amount, "cause": "Recorded at the table"},
            headers=auth,
        )
        assert response.status_code == 200
        gold.append(response.get_json()["version"])
    start_version = started.get_json()["version"]
    assert gold == [start_version + 2, start_version + 4]  # each fact: who recorded it, then it
    return Played(gid, tmp_path / "t.db", host, tokens, start_version, (gold[0], gold[1]))
