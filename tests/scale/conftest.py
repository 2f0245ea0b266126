"""Two court server processes sharing a throwaway PostgreSQL database and Redis (module-wide),
and the steps the tests share: a started 3-player game over HTTP, clients on either process."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from devtools.servers import CourtServer, court_servers, shared_keys
from tests.scale.clients import HttpClient, LiveClient
from tests.server.http.court_client import Game, lobby_game, next_round, start
from tests.server.live.live import NORTH
from tests.services import PostgresServer, RedisServer

# Seconds a killed process's connections keep counting as present (short for the tests).
PRESENCE_TTL = 2.0


def cluster_env(database_url: str, redis_url: str, **extra: str) -> dict[str, str]:
    """The settings of a cluster's processes: one database, one Redis, one set of keys (a
    process started later on the same settings holds them too)."""
    return {
        **shared_keys(),
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "PRESENCE_TTL": str(PRESENCE_TTL),
        "RATE_LIMITS": "off",  # hundreds of games and commands from 127.0.0.1
        **extra,
    }


@dataclass
class Cluster:
    servers: list[CourtServer]
    env: dict[str, str]
    folder: Path

    @property
    def a(self) -> CourtServer:
        return self.servers[0]

    @property
    def b(self) -> CourtServer:
        return self.servers[1]


@pytest.fixture(scope="module")
def cluster(
    postgres: PostgresServer, redis_server: RedisServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Cluster]:
    folder = tmp_path_factory.mktemp("cluster")
    env = cluster_env(postgres.new_database("scale"), redis_server.url)
    with court_servers(2, env, folder, names=("a", "b")) as servers:
        yield Cluster(servers, env, folder)


def started_game(url: str, **body) -> Game:
    """A started 3-player game (Stark's player is the host), created through `url`."""
    http = HttpClient(url)
    game = lobby_game(http, **body)  # type: ignore[arg-type]
    return replace(game, started=start(http, game))  # type: ignore[arg-type]


def place_a_ballot(seats: dict[str, LiveClient], http: HttpClient, game: Game) -> dict:
    """Through the seats' own connections: the North to Stark, the next round (over `http`),
    the Warden of the North's candidacy, and Stark's placement (FOR himself, DECOY on
    Jaime); its ack."""
    for village in NORTH:
        body = {"village": village, "house": "stark", "cause": "battle"}
        assert seats["stark"].call("record_village", body)["ok"]
    next_round(http, game)  # type: ignore[arg-type]
    assert seats["lannister"].call("stand", {"noble": "jaime-lannister"})["ok"]
    assert seats["tyrell"].call("pass")["ok"]
    assert seats["stark"].call("stand", {"noble": "robb-stark"})["ok"]
    markers = [
        {"kind": "for", "candidate": "robb-stark"},
        {"kind": "decoy", "candidate": "jaime-lannister"},
    ]
    ack = seats["stark"].call("place_ballot", {"markers": markers})
    assert ack["ok"], ack
    return ack


def saw_the_placement(client: LiveClient, ack: dict, owner: bool) -> None:
    """The client was pushed the placement once, with its secrets only if it is the owner's,
    and then the reveal."""
    assert client.repeated() == [], client.name
    placed = [r for r in client.records if r["type"] == "BallotPlaced"]
    assert len(placed) == 1, client.name
    assert placed[0]["hash"] == ack["receipt"]["record_hash"]
    if owner:
        assert {m["kind"] for m in placed[0]["private"]["secrets"]} == {"for", "decoy"}
    else:
        assert placed[0]["private"] is None, client.name
        assert '"for"' not in json.dumps(placed[0]), client.name
    revealed = [r for r in client.records if r["type"] == "BallotsRevealed"]
    assert [r["data"]["winner"] for r in revealed] == ["robb-stark"], client.name


def small_council_complaints(server: CourtServer) -> list[str]:
    """The server's own warnings and errors (the libraries' are left out; a closed
    WebSocket logs none under gunicorn: tests/scale/test_production_server.py)."""
    return [line for line in server.log_lines("WARNING", "ERROR") if "small_council" in line]
