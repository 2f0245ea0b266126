"""A service on a real SQLite file with a started 3-player game."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from config.rulesdata import load_ruleset
from court.commands import SPECTATOR, Actor, StartGame
from court.service import CourtService
from court.store import SqlEventStore
from tests.fakes import CountingSecrets, FixedClock, RecordingPublisher


@dataclass
class Table:
    service: CourtService
    store: SqlEventStore
    game_id: str
    host: Actor
    tokens: list[str]
    path: Path
    publisher: RecordingPublisher
    started: int  # the version the log stands at once the game has started


def open_service(path: Path, **kw) -> tuple[CourtService, SqlEventStore]:
    store = SqlEventStore(f"sqlite:///{path}")
    store.create_schema()
    return CourtService(store, clock=FixedClock(), secret_source=CountingSecrets(), **kw), store


@pytest.fixture
def table(tmp_path: Path) -> Table:
    path = tmp_path / "court.db"
    publisher = RecordingPublisher()
    service, store = open_service(path, publisher=publisher)
    game_id, host_token, _ = service.create_game(
        ruleset=load_ruleset(), players=3, host_name="Hostess"
    )
    host = Actor(host=True)
    tokens = [service.join(game_id, host, house="stark", player_name="Hostess")[0]]
    for house, name in (("lannister", "Bob"), ("tyrell", "Cat")):
        tokens.append(service.join(game_id, SPECTATOR, house=house, player_name=name)[0])
    host_seat = service.authenticate(game_id, host_token)
    started = service.handle(game_id, StartGame(), host_seat).version
    yield Table(service, store, game_id, host_seat, tokens, path, publisher, started)
    store.close()
