"""Crash safety: a server process killed with SIGKILL in the middle of a burst of acknowledged
commands loses none of them; restarted, it closes the steps that fell due while it was down,
and its clients catch up to the same version."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from devtools.servers import CourtServer
from tests.scale.clients import HttpClient, LiveClient, close_all
from tests.scale.conftest import PRESENCE_TTL, cluster_env, small_council_complaints, started_game
from tests.scale.exports import log_of
from tests.server.http.court_client import next_round
from tests.server.live.live import NORTH
from tests.services import PostgresServer, RedisServer

SENDERS = 3  # host connections sending commands one after another, at once
ACKED_BEFORE_KILL = 30  # acknowledged commands before the kill
DEADLINE = 2  # seconds of the candidacy step that falls due while the server is down


def burst(sender: LiveClient, index: int, acked: list[tuple[str, int]], lock: threading.Lock):
    """Commands until the connection fails; (cause, version) of each acknowledged one."""
    for n in range(10_000):
        cause = f"burst-{index}-{n}"
        try:
            ack = sender.call("record_gold", {"house": "lannister", "amount": 1, "cause": cause})
        except ConnectionError:  # the server was killed: this command's fate is unknown
            return
        if not ack.get("ok"):
            return
        with lock:
            acked.append((cause, ack["version"]))


def test_a_killed_server_keeps_every_acknowledged_command_and_its_clients_catch_up(
    postgres: PostgresServer, redis_server: RedisServer, tmp_path: Path
) -> None:
    env = cluster_env(postgres.new_database("crash"), redis_server.url)
    server = CourtServer(env, tmp_path / "server.log").start()
    clients: list[LiveClient] = []
    try:
        game = started_game(server.url)
        late = started_game(server.url, deadlines={"candidacy": DEADLINE, "ballot": DEADLINE})
        for village in NORTH:
            body = {"village": village, "house": "stark", "cause": "battle"}
            answer = HttpClient(server.url).post(
                f"/api/games/{late.id}/commands/record_village", json=body, headers=late.host
            )
            assert answer.status_code == 200, answer.get_json()
        watchers = [
            LiveClient("lannister").connect(server.url, game.id, game.tokens["lannister"]),
            LiveClient("tyrell").connect(server.url, game.id, game.tokens["tyrell"]),
            LiveClient("spectator").connect(server.url, game.id),
        ]
        senders = [
            LiveClient(f"host-{i}").connect(server.url, game.id, game.host_token)
            for i in range(SENDERS)
        ]
        clients = watchers + senders
        acked: list[tuple[str, int]] = []
        lock = threading.Lock()
        threads = [
            threading.Thread(target=burst, args=(s, i, acked, lock)) for i, s in enumerate(senders)
        ]
        for thread in threads:
            thread.start()
        limit = time.monotonic() + 30
        while len(acked) < ACKED_BEFORE_KILL and time.monotonic() < limit:
            time.sleep(0.01)
        next_round(HttpClient(server.url), late)  # type: ignore[arg-type]
        opened = time.time()
        server.kill()
        for thread in threads:
            thread.join(timeout=30)
        assert len(acked) >= ACKED_BEFORE_KILL
        assert not any(thread.is_alive() for thread in threads)

        time.sleep(max(0.0, opened + DEADLINE + 0.5 - time.time()))
        restarted = time.time()
        server.start()

        # The step that fell due while the server was down is closed by the time it answers.
        closed = [r for r in log_of(server.url, late.id) if r["type"] == "StepTimedOut"]
        assert len(closed) == 1

        log = log_of(server.url, game.id)
        assert [r["version"] for r in log] == list(range(1, len(log) + 1))
        assert HttpClient(server.url).get(f"/api/games/{game.id}/verify").get_json()["ok"]
        by_version = {r["version"]: r for r in log}
        for cause, version in acked:
            assert by_version[version]["type"] == "GoldAdjusted"
            assert by_version[version]["data"]["cause"] == cause
        causes = [r["data"]["cause"] for r in log if r["type"] == "GoldAdjusted"]
        assert len(causes) == len(set(causes))

        tokens = {"lannister": game.tokens["lannister"], "tyrell": game.tokens["tyrell"]}
        again = [w.reconnect(server.url, game.id, tokens.get(w.name)) for w in watchers]
        clients += again
        for client in again:
            client.wait_version(len(log))
            assert client.version == len(log)
            assert client.repeated() == [], client.name
            seen = [r["version"] for r in client.records]
            assert seen == list(range(game.started + 1, len(log) + 1)), client.name
            assert [r["hash"] for r in client.records] == [r["hash"] for r in log[game.started :]]
        # The killed process's connections drop out; the reconnected ones are all there is.
        expected = {"seats": [1, 2], "spectators": 1, "host": False, "game_master": False}
        again[-1].wait_for(
            lambda c: bool(c.presences) and {k: c.presences[-1][k] for k in expected} == expected,
            PRESENCE_TTL * 4,
        )
        assert time.time() - restarted < 60
        assert small_council_complaints(server) == []
    finally:
        close_all(clients)
        server.stop()
