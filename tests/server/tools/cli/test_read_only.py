"""The shell's read commands never write: they open the database read-only and never start
the deadline watcher, which only the server process runs (R-4.3)."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from flask import Flask

from config.settings import ROOT
from tests.server.http.court_client import lobby_game
from tests.server.tools.cli.court_shell import Court

READ_COMMANDS = (("games",), ("verify", "{id}"), ("replay", "{id}"), ("export", "{id}"))


def overdue_game(app: Flask) -> str:
    """A game whose decree step passed its 1-second deadline a moment ago."""
    client = app.test_client()
    game = lobby_game(client, deadlines={"decree": 1})
    response = client.post(f"/api/games/{game.id}/commands/start", json={}, headers=game.host)
    assert response.status_code == 200
    assert client.get(f"/api/games/{game.id}").get_json()["decree"] is not None
    time.sleep(1.2)
    return game.id


def fingerprint(db: Path) -> tuple[str, str]:
    """The bytes of the database and of its write-ahead log (none is an empty one), hashed.
    SQLite's shared-memory index (-shm) is a cache that readers build, not data."""
    wal = db.with_name(db.name + "-wal")
    return (
        hashlib.sha256(db.read_bytes()).hexdigest(),
        hashlib.sha256(wal.read_bytes() if wal.exists() else b"").hexdigest(),
    )


def flask(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`flask --app app court ...` in a process of its own, as an operator runs it."""
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{db}"}
    return subprocess.run(
        [sys.executable, "-m", "flask", "--app", "app", "court", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize("command", READ_COMMANDS, ids=lambda c: c[0])
def test_a_read_command_leaves_an_overdue_step_and_the_database_alone(
    app: Flask, court: Court, tmp_path: Path, command: tuple[str, ...]
) -> None:
    """R-4.3: closing steps is the server's; `court verify` on a database with an overdue
    step appends nothing, in the test runner and in a real `flask` process alike."""
    game_id = overdue_game(app)
    before = app.extensions["court_store"].head(game_id)
    app.extensions["court_store"].close()
    db = tmp_path / "t.db"
    bytes_before = fingerprint(db)
    args = [part.format(id=game_id) for part in command]

    in_runner = court(app, *args)
    in_process = flask(db, *args)

    assert in_runner.exit_code == 0, in_runner.output
    assert in_process.returncode == 0, in_process.stderr
    assert app.extensions["court_store"].head(game_id) == before
    assert fingerprint(db) == bytes_before


def test_a_read_command_on_a_missing_database_creates_nothing(tmp_path: Path) -> None:
    db = tmp_path / "nowhere.db"
    result = flask(db, "games")
    assert result.returncode == 2
    assert "database_unavailable" in result.stderr
    assert not db.exists()
