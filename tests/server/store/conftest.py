"""Every store test runs on SQLite and on PostgreSQL, each on a database of its own: a service
over the store with a started 3-player game, and `new_database()` for more empty ones."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from config.rulesdata import load_ruleset
from court.commands import SPECTATOR, Actor, StartGame
from server.service import CourtService
from server.store.sql import SqlEventStore
from tests.fakes import KEYS, CountingSecrets, FixedClock, RecordingPublisher

NewDatabase = Callable[[], str]


@dataclass
class Table:
    service: CourtService
    store: SqlEventStore
    game_id: str
    host: Actor
    tokens: list[str]
    url: str
    publisher: RecordingPublisher
    started: int  # the version the log stands at once the game has started


def open_service(url: str, **kw) -> tuple[CourtService, SqlEventStore]:
    store = SqlEventStore(url)
    store.create_schema()
    return CourtService(
        store, clock=FixedClock(), secret_source=CountingSecrets(), keys=KEYS, **kw
    ), store


@pytest.fixture(params=["sqlite", "postgresql"])
def new_database(request: pytest.FixtureRequest, tmp_path: Path) -> NewDatabase:
    """Makes the URL of a new, empty database on the test's database server."""
    if request.param == "postgresql":
        return request.getfixturevalue("postgres").new_database
    names = iter(range(1, 1000))
    return lambda: f"sqlite:///{tmp_path}/court-{next(names)}.db"


@pytest.fixture
def table(new_database: NewDatabase) -> Iterator[Table]:
    url = new_database()
    publisher = RecordingPublisher()
    service, store = open_service(url, publisher=publisher)
    game_id, host_token, _ = service.create_game(
        ruleset=load_ruleset(), players=3, host_name="Hostess", listed=True
    )
    host = Actor(host=True)
    tokens = [service.join(game_id, host, house="stark", player_name="Hostess")[0]]
    for house, name in (("lannister", "Bob"), ("tyrell", "Cat")):
        tokens.append(service.join(game_id, SPECTATOR, house=house, player_name=name)[0])
    host_seat = service.authenticate(game_id, host_token)
    started = service.handle(game_id, StartGame(), host_seat).version
    yield Table(service, store, game_id, host_seat, tokens, url, publisher, started)
    store.close()
