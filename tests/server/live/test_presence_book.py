"""Since when a game's host has had no connection, as both books of connections tell it: this
process's memory (`Presence`) and Redis shared by several processes (`RedisPresence`, on a
throwaway Redis): the host's seat, or his host connection when he holds no seat; a role never
seen leaving counts from the book's start; never earlier than the game's start. A book that
starts empty (a process starts, Redis restarts empty) counts nobody as gone for a full
period (SETTLE), while the connections open before come back."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import redis

from court.commands import SPECTATOR, Actor
from court.ids import Seat
from server.live.presence import Presence
from server.live.presence_redis import RedisPresence
from tests.services import RedisServer


class Clock:
    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


Book = Callable[[Clock], Any]


SETTLE = 30.0  # the books' period: PRESENCE_TTL


@pytest.fixture
def redis_client(redis_server: RedisServer) -> Iterator[redis.Redis]:
    """A Redis database of these tests' own, empty for each: its book begins on the test's
    clock."""
    with redis.Redis.from_url(redis_server.url_of(3, admin=True)) as admin:
        admin.flushdb()
    client = redis.Redis.from_url(redis_server.url_of(3))
    yield client
    client.close()


def memory(request: pytest.FixtureRequest) -> Book:
    return lambda clock: Presence(clock, settle=SETTLE)


def shared(request: pytest.FixtureRequest) -> Book:
    client = request.getfixturevalue("redis_client")

    def book(clock: Clock) -> RedisPresence:
        presence = RedisPresence(client, uuid.uuid4().hex[:12], SETTLE, clock)
        presence.beat()
        return presence

    return book


@pytest.fixture(params=[memory, shared], ids=["memory", "redis"])
def make(request: pytest.FixtureRequest) -> Book:
    maker: Callable[[pytest.FixtureRequest], Book] = request.param
    return maker(request)


HOST_SEAT = Seat(0)


def game() -> str:
    return uuid.uuid4().hex[:12]


def test_a_host_with_a_connection_of_his_seat_is_present(make: Book) -> None:
    clock = Clock()
    book, g = make(clock), game()
    book.enter("a", g, Actor(seat=HOST_SEAT, host=True))
    book.enter("b", g, Actor(seat=Seat(1)))
    clock.now += SETTLE
    assert book.host_away_since(g, HOST_SEAT, 0.0) is None
    assert book.host_away_since(g, Seat(1), 0.0) is None
    assert book.host_away_since(g, Seat(2), 0.0) == 1000.0


def test_nobody_counts_as_gone_until_the_book_has_settled(make: Book) -> None:
    """Given a book just started, a seat never seen and a seat whose page closed at once
    count as present until a full period has passed; then both are gone."""
    clock = Clock()
    book, g = make(clock), game()
    book.enter("a", g, Actor(seat=Seat(1)))
    clock.now = 1005.0
    book.leave("a")
    clock.now = 1000.0 + SETTLE - 0.1
    assert book.host_away_since(g, HOST_SEAT, 0.0) is None
    assert book.host_away_since(g, Seat(1), 0.0) is None
    clock.now = 1000.0 + SETTLE
    assert book.host_away_since(g, HOST_SEAT, 0.0) == 1000.0
    assert book.host_away_since(g, Seat(1), 0.0) == 1005.0


def test_the_host_is_away_since_his_last_connection_closed(make: Book) -> None:
    clock = Clock()
    book, g = make(clock), game()
    book.enter("a", g, Actor(seat=HOST_SEAT))
    book.enter("b", g, Actor(seat=HOST_SEAT, host=True))
    clock.now = 1010.0
    book.leave("a")
    assert book.host_away_since(g, HOST_SEAT, 0.0) is None
    clock.now = 1020.0
    book.leave("b")
    clock.now = 1500.0
    assert book.host_away_since(g, HOST_SEAT, 0.0) == 1020.0
    assert book.host_away_since(g, HOST_SEAT, 1200.0) == 1200.0  # not before the game's start


def test_a_host_never_seen_counts_as_gone_since_the_book_started(make: Book) -> None:
    clock = Clock(2000.0)
    book = make(clock)
    clock.now = 2000.0 + SETTLE + 500.0
    assert book.host_away_since(game(), HOST_SEAT, 0.0) == 2000.0
    assert book.host_away_since(game(), HOST_SEAT, 2100.0) == 2100.0


def test_a_creator_without_a_seat_is_present_through_his_host_connection(make: Book) -> None:
    clock = Clock()
    book, g = make(clock), game()
    book.enter("h", g, Actor(host=True))
    book.enter("m", g, Actor(master=True))
    clock.now = 1030.0
    assert book.host_away_since(g, None, 0.0) is None
    book.enter("h", g, Actor(seat=Seat(1), host=True))  # he takes a seat on that connection
    assert book.host_away_since(g, None, 0.0) == 1030.0
    assert book.host_away_since(g, Seat(1), 0.0) is None


def test_a_connection_whose_seat_was_handed_on_counts_no_more(make: Book) -> None:
    clock = Clock()
    book, g = make(clock), game()
    book.enter("a", g, Actor(seat=HOST_SEAT, host=True))
    clock.now = 1040.0
    book.enter("a", g, SPECTATOR)
    assert book.host_away_since(g, HOST_SEAT, 0.0) == 1040.0


def test_redis_a_dead_process_holding_the_host_keeps_him_present_until_now(
    redis_client: redis.Redis,
) -> None:
    """A process killed without a goodbye: its host connection stops counting once its mark
    expires; from then on the host is away since that moment at the earliest, never since
    before, and once it is swept since the sweep."""
    clock = Clock()
    g = game()
    dead = RedisPresence(redis_client, uuid.uuid4().hex[:12], 0.3, clock)
    dead.beat()
    dead.enter("a", g, Actor(seat=HOST_SEAT, host=True))
    alive = RedisPresence(redis_client, uuid.uuid4().hex[:12], 30.0, clock)
    alive.beat()
    assert alive.host_away_since(g, HOST_SEAT, 0.0) is None
    redis_client.delete(f"small-council:presence:alive:{dead.process_id}")
    clock.now = 1100.0
    assert alive.host_away_since(g, HOST_SEAT, 0.0) == 1100.0
    clock.now = 1200.0
    assert g in alive.beat()
    clock.now = 1300.0
    assert alive.host_away_since(g, HOST_SEAT, 0.0) == 1200.0


def test_redis_out_of_reach_counts_the_host_as_present() -> None:
    unreachable = redis.Redis(port=1, socket_connect_timeout=0.2)
    book = RedisPresence(unreachable, "p", 30.0, Clock())
    assert book.host_away_since(game(), HOST_SEAT, 0.0) is None


def two_processes(client: redis.Redis, clock: Clock, g: str) -> tuple[RedisPresence, RedisPresence]:
    """A process holding the host's connection to game `g`, and another one, both beating."""
    holder = RedisPresence(client, uuid.uuid4().hex[:12], SETTLE, clock)
    holder.beat()
    holder.enter("a", g, Actor(seat=HOST_SEAT, host=True))
    other = RedisPresence(client, uuid.uuid4().hex[:12], SETTLE, clock)
    other.beat()
    return holder, other


def test_redis_a_book_restarted_empty_counts_nobody_gone_before_every_process_wrote_back(
    redis_client: redis.Redis,
) -> None:
    """Given the host connected through one process, when Redis loses every key (a restart
    with nothing saved), then the other process counts him present, although his connection
    is written back only at his process's next heartbeat, until a full period after the book
    began again; then he is present, a seat never seen is gone since the book began again,
    and the process holding the host tells his game once."""
    clock, g = Clock(), game()
    holder, other = two_processes(redis_client, clock, g)
    clock.now = 1000.0 + SETTLE
    assert other.host_away_since(g, HOST_SEAT, 0.0) is None
    assert other.host_away_since(g, Seat(1), 0.0) == 1000.0

    for key in redis_client.scan_iter("small-council:*"):
        redis_client.delete(key)
    clock.now = 2000.0
    assert other.host_away_since(g, HOST_SEAT, 0.0) is None  # no book at all
    assert other.beat() == []  # the book begins again, without the host's connection
    clock.now = 2010.0
    assert other.host_away_since(g, HOST_SEAT, 0.0) is None
    assert other.host_away_since(g, Seat(1), 0.0) is None
    assert holder.beat() == []  # writes the host's connection back

    clock.now = 2000.0 + SETTLE
    assert other.host_away_since(g, HOST_SEAT, 0.0) is None
    assert other.host_away_since(g, Seat(1), 0.0) == 2000.0
    assert holder.beat() == [g]
    assert holder.beat() == []


def test_the_memory_book_tells_its_games_once_it_has_settled() -> None:
    told: list[str] = []
    book = Presence(settle=0.2)
    book.enter("a", "one", Actor(seat=HOST_SEAT, host=True))
    book.enter("b", "two", SPECTATOR)
    book.start(told.append)
    deadline = time.monotonic() + 5
    while len(told) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert sorted(told) == ["one", "two"]


def test_redis_a_process_counts_its_own_connections_whatever_redis_holds_of_them(
    redis_client: redis.Redis,
) -> None:
    """Given the host connected through one process, when his entry is removed from Redis
    (by someone else than his process) and a malformed entry is written in its place, then
    his own process still counts him present and reads past the bad entry, while the other
    process, which knows only Redis, counts him gone."""
    clock, g = Clock(), game()
    holder, other = two_processes(redis_client, clock, g)
    key = f"small-council:presence:game:{g}"
    redis_client.delete(key)
    for field, value in ((f"{other.process_id}:x", "[1]"), (f"{other.process_id}:y", "{")):
        redis_client.hset(key, field, value)
    redis_client.hset(key, f"{other.process_id}:z", '{"seat": "0", "host": 1, "master": 0}')
    clock.now = 1000.0 + SETTLE
    assert holder.host_away_since(g, HOST_SEAT, 0.0) is None
    assert holder.snapshot(g)["seats"] == [HOST_SEAT]
    assert other.host_away_since(g, HOST_SEAT, 0.0) == 1000.0
    assert other.snapshot(g) == {"seats": [], "spectators": 0, "host": False, "game_master": False}
