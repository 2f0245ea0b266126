"""An export and an import hold a page of the log in memory, not the log
(server/service/whole_logs.py,
R-10): the peak of Python's allocations for a log ten times longer stays about the same."""

from __future__ import annotations

import json
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from app import create_app
from config.rulesdata import load_ruleset
from court.commands import SPECTATOR, Actor, CreateGame, JoinSeat, StartGame
from court.ids import HouseId
from server.service.court_service import CourtService
from tests.server.store.records import grow_log

# Each test opens a SQLite file of its own.
pytestmark = pytest.mark.sql

SHORT, LONG = 5_000, 50_000


def started_game(service: CourtService) -> str:
    create = CreateGame(ruleset=load_ruleset(), players=3, host_name="Ann", listed=True)
    created = service.handle(None, create, Actor(host=True))
    game_id, token = created.state.game_id, created.token
    for house, name in (("stark", "Ann"), ("lannister", "Bob"), ("tyrell", "Cat")):
        actor = Actor(host=True) if house == "stark" else SPECTATOR
        service.handle(game_id, JoinSeat(house=HouseId(house), player_name=name), actor)
    service.handle(game_id, StartGame(), service.authenticate(game_id, token)[0])
    return game_id


def peak(action: Callable[[], object]) -> int:
    """The peak of Python's allocations while `action` runs, in bytes."""
    tracemalloc.start()
    try:
        action()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Flask, dict[int, str]]]:
    """An app on a database holding a game of SHORT and one of LONG versions."""
    folder = tmp_path_factory.mktemp("memory")
    app = create_app({"DATABASE_URL": f"sqlite:///{folder}/court.db", "DEADLINES": False})
    service: CourtService = app.extensions["court"]
    games = {}
    for size in (SHORT, LONG):
        games[size] = started_game(service)
        grow_log(app.extensions["court_store"], games[size], size - 20)
        service.current(games[size])  # folded once: its snapshots are kept
    yield app, games
    app.extensions["court_store"].close()


def export(app: Flask, game_id: str, path: Path) -> None:
    response = app.test_client().get(f"/api/games/{game_id}/export", buffered=False)
    assert response.status_code == 200
    with path.open("wb") as out:
        for chunk in response.response:
            out.write(chunk)


def lines(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as text:
        for line in text:
            yield json.loads(line)


def test_an_export_and_an_import_take_the_same_memory_for_a_log_ten_times_longer(
    logs: tuple[Flask, dict[int, str]], tmp_path: Path
) -> None:
    app, games = logs
    exported: dict[int, int] = {}
    imported: dict[int, int] = {}
    for size, game_id in games.items():
        path = tmp_path / f"{size}.jsonl"
        exported[size] = peak(lambda: export(app, game_id, path))  # noqa: B023 - called at once
        target = create_app({"DATABASE_URL": f"sqlite:///{tmp_path}/{size}.db", "DEADLINES": False})
        importer: CourtService = target.extensions["court"]
        try:
            imported[size] = peak(lambda: importer.import_log(lines(path)))  # noqa: B023
            assert importer.length(game_id) == len(path.read_text().splitlines()) >= size - 20
        finally:
            target.extensions["court_store"].close()
    # The whole log of the long game is about 15 MB as Python objects: a peak that grew with
    # it would pass twice the short game's by far.
    assert exported[LONG] < 2 * exported[SHORT], exported
    assert imported[LONG] < 2 * imported[SHORT], imported
