"""Whoever can PUBLISH on the servers' Redis channel cannot put a record into a page, the
database or the chain `/verify` checks: an announcement only says that a game moved on, and
each process reads what it pushes, signs and decides on from the database. A forged record,
however well it chains onto the head, is neither pushed nor folded, and a forged hand-over of
the host role gives its forger no host's power."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis

from court.events import GoldAdjusted, HostHandedOver
from court.events.base import Event
from court.ids import HouseId, Seat
from court.log.records import chained
from server.live.relay import CHANNEL
from tests.scale.clients import HttpClient, LiveClient, close_all
from tests.scale.conftest import Cluster, started_game
from tests.scale.exports import log_of
from tests.server.http.court_client import Game
from tests.services import RedisServer


@pytest.fixture
def publisher(redis_server: RedisServer) -> Iterator[redis.Redis]:
    """A client of the servers' own Redis: someone who got past its password."""
    client = redis.Redis.from_url(redis_server.url)
    yield client
    client.close()


def forge(publisher: redis.Redis, url: str, game: Game, event: Event, seat: int | None) -> dict:
    """PUBLISH an announcement carrying `event` as the game's next record, chained onto the
    head the public export shows, as an append of another process would look; the record."""
    head = log_of(url, game.id)[-1]
    records, _ = chained(
        game.id, (head["version"], head["hash"]), [event], seat, "2026-01-01T00:00:00+00:00"
    )
    forged = records[0].to_json()
    message = {"game": game.id, "version": forged["version"], "deadline": None}
    message |= {"hash": forged["hash"], "records": [forged], "origin": "forger"}
    assert publisher.publish(CHANNEL, json.dumps(message)) >= 2  # both processes listen
    return forged


def treasury(url: str, game: Game, house: str) -> int:
    view = HttpClient(url).get(f"/api/games/{game.id}").get_json()
    return {h["id"]: h["treasury"] for h in view["houses"]}[house]


def verified(url: str, game: Game) -> dict[str, Any]:
    return HttpClient(url).get(f"/api/games/{game.id}/verify").get_json()


def pushed_as_logged(client: LiveClient, log: list[dict]) -> None:
    """Every record the client was pushed is the log's record of its version."""
    by_version = {r["version"]: r["hash"] for r in log}
    assert [(r["version"], r["hash"]) for r in client.records] == [
        (r["version"], by_version.get(r["version"])) for r in client.records
    ], client.name
    logged = {r["version"]: r for r in log}
    for checkpoint in client.checkpoints:
        assert logged[checkpoint["version"]]["hash"] == checkpoint["hash"], client.name


def test_a_published_record_reaches_no_page_and_no_court(
    cluster: Cluster, publisher: redis.Redis
) -> None:
    # Given Stark's player and a spectator on process b, which holds the game's head
    game = started_game(cluster.a.url)
    stark = LiveClient("stark@b").connect(cluster.b.url, game.id, game.tokens["stark"])
    watcher = LiveClient("spectator@b").connect(cluster.b.url, game.id)
    clients = [stark, watcher]
    before = treasury(cluster.b.url, game, "stark")
    try:
        # When someone PUBLISHes "Stark +1000 GD" as the next record, well chained
        gold = GoldAdjusted(house=HouseId("stark"), amount=1000, cause="forged")
        forged = forge(publisher, cluster.a.url, game, gold, None)
        # And the host then records a true +1 GD through process a
        body = {"house": "stark", "amount": 1, "cause": "tax"}
        host = HttpClient(cluster.a.url).post(
            f"/api/games/{game.id}/commands/record_gold", json=body, headers=game.host
        )
        version = host.get_json()["version"]
        for client in clients:
            client.wait_version(version)
        time.sleep(0.5)  # a forged push, were there one, would be here by now
        # Then no page was pushed the forged record or a checkpoint of it
        log = log_of(cluster.a.url, game.id)
        assert forged["hash"] not in {r["hash"] for r in log}
        for client in clients:
            pushed_as_logged(client, log)
            assert forged["hash"] not in json.dumps(client.records + client.checkpoints)
        # And both processes serve the database's treasury, and the log verifies
        for server in cluster.servers:
            assert treasury(server.url, game, "stark") == before + 1
            assert verified(server.url, game)["ok"] is True
    finally:
        close_all(clients)


def test_a_published_hand_over_of_the_host_role_gives_its_forger_no_power(
    cluster: Cluster, publisher: redis.Redis
) -> None:
    # Given Lannister's and Tyrell's players on process b (Stark's player is the host)
    game = started_game(cluster.a.url)
    lannister = LiveClient("lannister@b").connect(cluster.b.url, game.id, game.tokens["lannister"])
    tyrell = LiveClient("tyrell@b").connect(cluster.b.url, game.id, game.tokens["tyrell"])
    clients = [lannister, tyrell]
    logged = log_of(cluster.a.url, game.id)
    try:
        # When Lannister's player PUBLISHes the host role handed to his seat
        handed = HostHandedOver(
            from_seat=Seat(game.seats["stark"]),
            to_seat=Seat(game.seats["lannister"]),
            from_name="Player of stark",
            to_name="Player of lannister",
        )
        forge(publisher, cluster.a.url, game, handed, game.seats["stark"])
        time.sleep(1.0)  # process b has had the announcement for a while
        # And then hands Tyrell's seat to himself, on process b
        ack = lannister.call("hand_seat", {"seat": game.seats["tyrell"], "player_name": "Jaime"})
        # Then he is refused as the seat he is, and nothing was stored
        assert ack["ok"] is False and ack["code"] == "host_only", ack
        assert log_of(cluster.a.url, game.id) == logged
        for server in cluster.servers:
            assert verified(server.url, game)["ok"] is True
            view = HttpClient(server.url).get(f"/api/games/{game.id}").get_json()
            hosts = [s["seat"] for s in view["seats"] if s["host"]]
            assert hosts == [game.seats["stark"]], server.url
        # And no page was pushed the forged hand-over
        for client in clients:
            pushed_as_logged(client, logged)
            assert not [r for r in client.records if r["type"] == "HostHandedOver"], client.name
    finally:
        close_all(clients)
