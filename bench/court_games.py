"""The court the store benches (bench/store.py, bench/store_log.py) play on: a started game of
three Houses on a real CourtService over a SQLite or PostgreSQL file, and chained records of
gold moving that grow its log fast."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache

import common  # noqa: F401 - the repo root on sys.path

from config.rulesdata import load_ruleset
from config.settings import Settings
from court.commands import SPECTATOR, Actor, CreateGame, JoinSeat, StartGame
from court.events import GoldAdjusted
from court.ids import HouseId
from court.log.chain import Record
from court.log.records import chained
from court.model import invites
from server.keys import ServerKeys, load_keys
from server.service.court_service import SNAPSHOT_EVERY, CourtService
from server.service.ports import utc_now
from server.store.sql import SqlEventStore

HOUSES = ("stark", "lannister", "baratheon")


@dataclass(frozen=True, slots=True)
class Game:
    """A started game: its id, the host actor and the House whose gold moves."""

    game_id: str
    host: Actor
    house: HouseId


@cache
def keys_for(url: str) -> ServerKeys:
    """The keys a server on `url` holds (the key files beside a SQLite file): the snapshots a
    bench's services seal are the ones the server reads, and the other way round."""
    return load_keys(Settings().with_overrides({"DATABASE_URL": url}))


@contextmanager
def service_on(url: str, snapshot_every: int = SNAPSHOT_EVERY) -> Iterator[CourtService]:
    """A CourtService on a SqlEventStore at `url` (SQLite: default PRAGMAs), schema migrated."""
    store = SqlEventStore(url)
    store.create_schema()
    try:
        yield CourtService(store, snapshot_every=snapshot_every, keys=keys_for(url))
    finally:
        store.close()


def start_game(service: CourtService) -> Game:
    """Create a 3-player game, fill its seats (the host takes the first) and start it."""
    create = CreateGame(ruleset=load_ruleset(), players=3, host_name="Bench Host")
    created = service.handle(None, create, Actor(host=True))
    game_id, invite = created.state.game_id, invites.of(created.state)
    join = JoinSeat(house=HouseId(HOUSES[0]), player_name="Host Player")
    joined = service.handle(game_id, join, Actor(host=True))
    for index, house in enumerate(HOUSES[1:], start=2):
        join = JoinSeat(house=HouseId(house), player_name=f"Player {index}", invite=invite)
        service.handle(game_id, join, SPECTATOR)
    host_seat = next(s.seat for s in joined.state.seats.values() if s.host)
    host = Actor(seat=host_seat, host=True)
    service.handle(game_id, StartGame(), host)
    return Game(game_id, host, HouseId(HOUSES[0]))


def gold_records(game: Game, after: int, prev_hash: str, count: int) -> list[Record]:
    """`count` chained GoldAdjusted records of the host, following version `after`."""
    events = [
        GoldAdjusted(house=game.house, amount=1 if version % 2 else -1, cause="bench")
        for version in range(after + 1, after + count + 1)
    ]
    records, _ = chained(game.game_id, (after, prev_hash), events, game.host.seat, utc_now())
    return records
