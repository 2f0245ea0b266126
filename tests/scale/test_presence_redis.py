"""Presence kept in Redis for several processes: every process sees every connection, and a
process that stops renewing its mark drops out, is swept once, and comes back whole."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator

import pytest
import redis

from court.commands import Actor
from court.ids import Seat
from server.live.presence_redis import RedisPresence
from server.live.relay import redis_client
from tests.services import RedisServer, free_port

TTL = 0.5


@pytest.fixture
def client(redis_server: RedisServer) -> Iterator[redis.Redis]:
    """A client of the servers' own Redis user."""
    client = redis.Redis.from_url(redis_server.url)
    yield client
    client.close()


@pytest.fixture
def admin(redis_server: RedisServer) -> Iterator[redis.Redis]:
    """The administrator, who may read the server's statistics."""
    client = redis.Redis.from_url(redis_server.admin_url)
    yield client
    client.close()


def process(client: redis.Redis) -> RedisPresence:
    presence = RedisPresence(client, uuid.uuid4().hex[:12], TTL)
    presence.beat()
    return presence


def test_every_process_sees_the_connections_of_all(client: redis.Redis) -> None:
    game = uuid.uuid4().hex[:12]
    one, two = process(client), process(client)
    one.enter("a", game, Actor(seat=Seat(0), host=True))
    two.enter("b", game, Actor(seat=Seat(2)))
    two.enter("c", game, Actor())
    two.enter("d", game, Actor(master=True))
    want = {"seats": [0, 2], "spectators": 1, "host": True, "game_master": True}
    assert one.snapshot(game) == two.snapshot(game) == want
    assert two.leave("c") == game and two.leave("c") is None
    assert one.leave("a") == game
    assert two.snapshot(game) == {"seats": [2], "spectators": 0, "host": False, "game_master": True}


def test_a_process_that_stops_beating_drops_out_and_is_swept_once(client: redis.Redis) -> None:
    game = uuid.uuid4().hex[:12]
    alive, silent, third = process(client), process(client), process(client)
    alive.enter("a", game, Actor(seat=Seat(0)))
    silent.enter("b", game, Actor(seat=Seat(1)))
    assert alive.snapshot(game)["seats"] == [0, 1]
    time.sleep(TTL * 0.6)
    alive.beat()
    time.sleep(TTL * 0.6)  # the silent one's mark has expired, the live one's has not
    assert alive.snapshot(game)["seats"] == [0]
    # Other tests' processes may be swept too (one Redis for the session).
    assert game in alive.beat()  # swept by the first beat after it expired...
    assert game not in third.beat()  # ...and by no other
    assert client.hlen(f"small-council:presence:game:{game}") == 1
    silent.beat()  # it was only slow: its connections are written back
    assert alive.snapshot(game)["seats"] == [0, 1]


def test_the_sweep_reports_each_game_of_the_dead_process(client: redis.Redis) -> None:
    games = [uuid.uuid4().hex[:12] for _ in range(2)]
    survivor, dead = process(client), process(client)
    dead.enter("x", games[0], Actor(seat=Seat(0)))
    dead.enter("y", games[1], Actor())
    time.sleep(TTL * 1.5)
    assert set(games) <= set(survivor.beat())
    assert not set(games) & set(survivor.beat())


def test_without_redis_a_process_counts_its_own_connections_and_writes_them_later(
    client: redis.Redis, redis_server: RedisServer
) -> None:
    game = uuid.uuid4().hex[:12]
    other = RedisPresence(client, uuid.uuid4().hex[:12], 60.0)  # no expiry in this test
    other.beat()
    other.enter("o", game, Actor(seat=Seat(1)))
    nowhere = redis_client(f"redis://127.0.0.1:{free_port()}/0")
    cut_off = RedisPresence(nowhere, uuid.uuid4().hex[:12], 60.0)
    cut_off.enter("a", game, Actor(seat=Seat(0)))
    cut_off.enter("b", game, Actor())
    assert cut_off.snapshot(game) == {
        "seats": [0],
        "spectators": 1,
        "host": False,
        "game_master": False,
    }
    assert cut_off.leave("b") == game
    cut_off.redis = client  # Redis is back
    cut_off.beat()
    assert other.snapshot(game)["seats"] == [0, 1]
    assert other.snapshot(game)["spectators"] == 0


def calls(client: redis.Redis, command: str) -> int:
    stats = client.info("commandstats").get(f"cmdstat_{command}", {})
    return int(stats.get("calls", 0))


def test_a_heartbeat_writes_its_connections_again_only_when_they_may_be_missing(
    client: redis.Redis, admin: redis.Redis
) -> None:
    # Given a process with forty connections whose mark stands
    game = uuid.uuid4().hex[:12]
    alive = RedisPresence(client, uuid.uuid4().hex[:12], 60.0)
    for n in range(40):
        alive.enter(f"s{n}", game, Actor())
    alive.beat()
    alive.beat()  # the first heartbeat found no mark: it wrote them, and this one too
    # When it beats again
    before = calls(admin, "hset")
    alive.beat()
    # Then it renewed its mark without writing a connection again
    assert calls(admin, "hset") == before
    # And given another process swept its entries while its mark was gone
    client.delete(f"small-council:presence:alive:{alive.process_id}")
    client.delete(f"small-council:presence:game:{game}")
    # When it beats, then its connections are back, and written once more on the next beat
    alive.beat()
    assert alive.snapshot(game)["spectators"] == 40
    client.delete(f"small-council:presence:game:{game}")
    alive.beat()
    assert alive.snapshot(game)["spectators"] == 40
