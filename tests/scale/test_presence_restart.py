"""Two server processes whose Redis restarts empty under connected players: until every
process has had a full heartbeat period to write its connections back, nobody counts as gone,
so no vote to replace a player or to take the host role over is decided on a guess; after it,
the players still connected are present, and one who left is gone."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from devtools.servers import court_servers
from tests.scale.clients import LiveClient, close_all
from tests.scale.conftest import Cluster, cluster_env, started_game
from tests.services import PostgresServer, RedisServer

# Long enough that a vote sent at once after the restart comes before the next heartbeat of
# the process holding the player (every PRESENCE_TTL/3 seconds).
TTL = 9.0


@pytest.fixture(scope="module")
def cluster(
    postgres: PostgresServer, own_redis: RedisServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Cluster]:
    folder = tmp_path_factory.mktemp("restart")
    env = cluster_env(postgres.new_database("restart"), own_redis.url, PRESENCE_TTL=str(TTL))
    with court_servers(2, env, folder, names=("a", "b")) as servers:
        yield Cluster(servers, env, folder)


def present(client: LiveClient, seats: set[int]) -> None:
    client.wait_for(lambda c: bool(c.presences) and set(c.presences[-1]["seats"]) == seats, 30)


def test_after_redis_restarts_empty_nobody_is_voted_out_on_a_guess(
    cluster: Cluster, own_redis: RedisServer
) -> None:
    # Given a game whose seats may replace a player, and vote a host in, as soon as he is gone;
    # Stark (the host) and Lannister play on process a, Tyrell on process b
    game = started_game(
        cluster.a.url, table_votes={"replace_after": 0}, host_role={"takeover_after": 0}
    )
    seats = game.seats
    stark = LiveClient("stark@a").connect(cluster.a.url, game.id, game.tokens["stark"])
    lannister = LiveClient("lannister@a").connect(cluster.a.url, game.id, game.tokens["lannister"])
    tyrell = LiveClient("tyrell@b").connect(cluster.b.url, game.id, game.tokens["tyrell"])
    clients = [stark, lannister, tyrell]
    try:
        present(tyrell, set(seats.values()))
        # When Redis restarts empty, and Tyrell votes at once on process b
        own_redis.stop()
        own_redis.start()
        restarted = time.monotonic()
        host_vote = tyrell.call("vote_host", {"seat": seats["tyrell"]})
        replace_vote = tyrell.call("vote_replace", {"seat": seats["lannister"]})
        # Then neither the connected host nor the connected Lannister counts as gone
        assert host_vote["ok"] is False and host_vote["code"] == "host_present", host_vote
        assert replace_vote["ok"] is False, replace_vote
        assert replace_vote["code"] == "seat_present", replace_vote
        # And once a full heartbeat period has passed since the book began again (at the
        # first heartbeat after the restart), both are present, and still kept
        present(tyrell, set(seats.values()))
        time.sleep(max(0.0, restarted + TTL / 3 + TTL + 1.0 - time.monotonic()))
        assert tyrell.call("vote_host", {"seat": seats["tyrell"]})["code"] == "host_present"
        again = tyrell.call("vote_replace", {"seat": seats["lannister"]})
        assert again["code"] == "seat_present", again
        # And when Lannister closes his page then, he is gone, and Tyrell's vote counts
        lannister.close()
        present(tyrell, {seats["stark"], seats["tyrell"]})
        counted = tyrell.call("vote_replace", {"seat": seats["lannister"]})
        assert counted["ok"] is True, counted
    finally:
        close_all(clients)
