"""Every store test runs on SQLite and on PostgreSQL, each on a database of its own: a service
over the store with a started 3-player game, and `new_database()` for more empty ones. A service
test (marked `service`) runs on the in-memory store of tests/fakes.py as well, unless it tests
SQL itself (marked `sql`); its SQLite and PostgreSQL runs are marked `sql`, which `make check`
leaves out."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from config.rulesdata import load_ruleset
from court.commands import SPECTATOR, Actor, CreateGame, JoinSeat, StartGame
from court.ids import HouseId
from server.service.court_service import CourtService
from server.store.sql import SqlEventStore
from tests.fakes import (
    KEYS,
    CountingSecrets,
    FixedClock,
    MemoryEventStore,
    MemoryLog,
    RecordingPublisher,
)

NewDatabase = Callable[[], str]


@dataclass
class Table:
    service: CourtService
    store: Any  # SqlEventStore, or MemoryEventStore for a service test's in-memory run
    game_id: str
    host: Actor
    tokens: list[str]
    url: str
    publisher: RecordingPublisher
    started: int  # the version the log stands at once the game has started


# The in-memory logs by name: the stores opened on one name share it, as processes share a
# database, each store an object of its own.
_MEMORY: dict[str, MemoryLog] = {}
_NAMES = itertools.count(1)
SQL_BACKENDS = ["sqlite", "postgresql"]


def open_store(url: str) -> Any:
    """The store of a URL of `new_database()`: the in-memory log of that name, or a SQL store
    over a migrated database."""
    if url.startswith("memory:"):
        return MemoryEventStore(_MEMORY[url])
    store = SqlEventStore(url)
    store.create_schema()
    return store


def open_service(url: str, **kw) -> tuple[CourtService, Any]:
    store = open_store(url)
    given = {"clock": FixedClock(), "secret_source": CountingSecrets(), "keys": KEYS, **kw}
    return CourtService(store, **given), store


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A service test that does not test SQL runs on the in-memory store too, first."""
    if "new_database" not in metafunc.fixturenames:
        return
    marked = metafunc.definition.get_closest_marker
    on_memory = marked("service") is not None and marked("sql") is None
    backends = ["memory", *SQL_BACKENDS] if on_memory else SQL_BACKENDS
    metafunc.parametrize("new_database", backends, indirect=True)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        callspec = getattr(item, "callspec", None)
        if callspec is not None and callspec.params.get("new_database") in SQL_BACKENDS:
            item.add_marker(pytest.mark.sql)


@pytest.fixture
def new_database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[NewDatabase]:
    """Makes the URL of a new, empty database on the test's database server (`memory:N` names
    a new in-memory log)."""
    if request.param == "postgresql":
        yield request.getfixturevalue("postgres").new_database
        return
    if request.param == "memory":
        made: list[str] = []

        def new_log() -> str:
            made.append(f"memory:{next(_NAMES)}")
            _MEMORY[made[-1]] = MemoryLog()
            return made[-1]

        yield new_log
        for name in made:
            del _MEMORY[name]
        return
    names = iter(range(1, 1000))
    yield lambda: f"sqlite:///{tmp_path}/court-{next(names)}.db"


@pytest.fixture
def table(new_database: NewDatabase) -> Iterator[Table]:
    url = new_database()
    publisher = RecordingPublisher()
    service, store = open_service(url, publisher=publisher)
    create = CreateGame(ruleset=load_ruleset(), players=3, host_name="Hostess", listed=True)
    created = service.handle(None, create, Actor(host=True))
    game_id, host_token = created.state.game_id, created.token
    tokens = []
    for house, name, joiner in (
        ("stark", "Hostess", Actor(host=True)),
        ("lannister", "Bob", SPECTATOR),
        ("tyrell", "Cat", SPECTATOR),
    ):
        joined = service.handle(game_id, JoinSeat(house=HouseId(house), player_name=name), joiner)
        tokens.append(joined.token)
    host_seat, _ = service.authenticate(game_id, host_token)
    started = service.handle(game_id, StartGame(), host_seat).version
    yield Table(service, store, game_id, host_seat, tokens, url, publisher, started)
    store.close()
