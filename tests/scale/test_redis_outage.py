"""Two server processes whose Redis stops for a few seconds and starts again on its port:
talk said meanwhile reaches every party on both processes once Redis is back, commands are
answered throughout, and each process logs the outage once when it starts and once when it
ends, never a traceback per attempt."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import pytest

from devtools.servers import CourtServer, court_servers
from tests.scale.clients import LiveClient, close_all
from tests.scale.conftest import Cluster, cluster_env, started_game
from tests.services import PostgresServer, RedisServer

OUTAGE_SECONDS = 3.0
BACK_SECONDS = 30.0  # how long the processes may take to notice Redis is back


@pytest.fixture(scope="module")
def cluster(
    postgres: PostgresServer, own_redis: RedisServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Cluster]:
    folder = tmp_path_factory.mktemp("outage")
    env = cluster_env(postgres.new_database("outage"), own_redis.url)
    with court_servers(2, env, folder, names=("a", "b")) as servers:
        yield Cluster(servers, env, folder)


def log_after(server: CourtServer, offset: int) -> list[str]:
    return server.log.read_bytes()[offset:].decode(errors="replace").splitlines()


def wait_logged(servers: list[CourtServer], offsets: list[int], pattern: str) -> None:
    deadline = time.monotonic() + BACK_SECONDS
    for server, offset in zip(servers, offsets, strict=True):
        while not any(re.search(pattern, line) for line in log_after(server, offset)):
            assert time.monotonic() < deadline, f"{server.log.name} never logged {pattern!r}"
            time.sleep(0.1)


def test_talk_said_while_redis_is_down_reaches_the_other_process_once_it_is_back(
    cluster: Cluster, own_redis: RedisServer
) -> None:
    game = started_game(cluster.a.url)
    stark = LiveClient("stark@a").connect(cluster.a.url, game.id, game.tokens["stark"])
    tyrell = LiveClient("tyrell@a").connect(cluster.a.url, game.id, game.tokens["tyrell"])
    lannister = LiveClient("lannister@b").connect(cluster.b.url, game.id, game.tokens["lannister"])
    host = LiveClient("host@a").connect(cluster.a.url, game.id, game.host_token)
    clients = [stark, tyrell, lannister, host]
    try:
        # Given Redis is down
        own_redis.stop()
        try:
            # When Stark says a line at the table and whispers to Lannister on process a
            said = stark.call("say", {"text": "Winter is coming"})
            whispered = stark.call(
                "whisper", {"to": game.seats["lannister"], "text": "A raven at dawn"}
            )
            gold = host.call("record_gold", {"house": "stark", "amount": 2, "cause": "tax"})
            # Then both are stored and acknowledged, and Tyrell on the same process hears
            # the table line at once
            assert said["ok"] and whispered["ok"] and gold["ok"], (said, whispered, gold)
            tyrell.wait_for(lambda c: c.heard("Winter is coming") == 1)
        finally:
            own_redis.start()
        # And once Redis is back, Lannister on process b hears both lines, once each, and
        # gets the record
        lannister.wait_for(
            lambda c: c.heard("Winter is coming") == 1 and c.heard("A raven at dawn") == 1,
            BACK_SECONDS,
        )
        lannister.wait_version(gold["version"], BACK_SECONDS)
        time.sleep(1.0)  # nothing comes twice later
        assert lannister.heard("Winter is coming") == lannister.heard("A raven at dawn") == 1
        assert tyrell.heard("A raven at dawn") == 0 and tyrell.heard("Winter is coming") == 1
        assert stark.heard("Winter is coming") == 1 and stark.heard("A raven at dawn") == 1
        # And no line's text is in either process's log
        for server in cluster.servers:
            text = server.log.read_text(errors="replace")
            assert "Winter is coming" not in text and "A raven at dawn" not in text
    finally:
        close_all(clients)


def test_a_redis_outage_logs_one_line_when_it_starts_and_one_when_it_ends(
    cluster: Cluster, own_redis: RedisServer
) -> None:
    game = started_game(cluster.a.url)
    stark = LiveClient("stark@a").connect(cluster.a.url, game.id, game.tokens["stark"])
    lannister = LiveClient("lannister@b").connect(cluster.b.url, game.id, game.tokens["lannister"])
    hosts = [
        LiveClient(f"host@{server.log.stem}").connect(server.url, game.id, game.host_token)
        for server in cluster.servers
    ]
    clients = [stark, lannister, *hosts]
    servers = cluster.servers
    offsets = [server.log.stat().st_size for server in servers]
    try:
        # Given players on both processes, who keep acting through a 3-second outage
        own_redis.stop()
        started = time.monotonic()
        try:
            for seat in (stark, lannister):
                assert seat.call("say", {"text": f"{seat.name} is still here"})["ok"]
            while time.monotonic() - started < OUTAGE_SECONDS:
                for host in hosts:
                    ack = host.call("record_gold", {"house": "stark", "amount": 1, "cause": "tax"})
                    assert ack["ok"], ack
                # a connection coming and going writes presence to Redis each time
                LiveClient("spectator@b").connect(cluster.b.url, game.id).close()
                time.sleep(0.2)
        finally:
            own_redis.start()
        # When Redis is back
        wait_logged(servers, offsets, r"redis available again after \d+(\.\d+)? s")
        time.sleep(1.0)
        # Then each process logged the outage once when it started and once when it ended
        for server, offset in zip(servers, offsets, strict=True):
            lines = log_after(server, offset)
            complaints = [line for line in lines if " WARNING " in line or " ERROR " in line]
            began = [line for line in lines if "redis unavailable: " in line]
            ended = [line for line in lines if "redis available again after" in line]
            assert len(began) == 1 and len(ended) == 1, (server.log.name, began, ended)
            assert complaints == began, (server.log.name, complaints)
            assert not any("Traceback" in line for line in lines), server.log.name
    finally:
        close_all(clients)
