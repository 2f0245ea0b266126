"""Two server processes sharing PostgreSQL and Redis, with clients on each: every record
reaches every client once and in order, each rendered for its viewer; commands racing on one
game from both processes are each decided once, on the state they are appended to."""

from __future__ import annotations

import base64
import json
import threading
import time
from collections import Counter
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from devtools.servers import CourtServer
from tests.scale.clients import HttpClient, LiveClient, close_all
from tests.scale.conftest import (
    PRESENCE_TTL,
    Cluster,
    place_a_ballot,
    saw_the_placement,
    small_council_complaints,
    started_game,
)
from tests.scale.exports import log_of
from tests.scale.redis_capture import RedisCapture
from tests.server.http.court_client import Game, next_round
from tests.server.live.live import NORTH
from tests.services import RedisServer

CONCURRENT = 200  # commands sent at once on one game, half through each process
CONNECTIONS = 4  # host connections on each process sharing them
HOUSES = ("stark", "lannister", "tyrell")


def test_both_processes_sign_with_the_one_key_they_serve(cluster: Cluster) -> None:
    # Given a client of process b in a game started through process a
    game = started_game(cluster.a.url)
    keys = [
        HttpClient(s.url).session.get(f"{s.url}/api/signing-key").json() for s in cluster.servers
    ]
    assert keys[0] == keys[1]
    watcher = LiveClient("tyrell@b").connect(cluster.b.url, game.id, game.tokens["tyrell"])
    try:
        # When the host records a fact through process a
        body = {"house": "stark", "amount": 2, "cause": "Tax"}
        answer = HttpClient(cluster.a.url).session.post(
            f"{cluster.a.url}/api/games/{game.id}/commands/record_gold",
            json=body,
            headers=game.host,
            timeout=20,
        )
        version = answer.json()["version"]
        watcher.wait_version(version)
        # Then the push process b relays carries the checkpoint process a shows, which
        # verifies with the key both serve
        pushed = watcher.checkpoints[-1]
        view = HttpClient(cluster.a.url).session.get(f"{cluster.a.url}/api/games/{game.id}")
        assert pushed == view.json()["checkpoint"] and pushed["version"] == version
        public = Ed25519PublicKey.from_public_bytes(base64.b64decode(keys[1]["public_key"]))
        text = keys[1]["message"].format(**pushed)
        public.verify(base64.b64decode(pushed["signature"]), text.encode())
    finally:
        watcher.close()


def seated(cluster: Cluster, game: Game, on_b: set[str]) -> dict[str, LiveClient]:
    """A connection for each seat, to process b for the Houses in `on_b`, else to a."""
    seats = {}
    for house in HOUSES:
        server = cluster.b if house in on_b else cluster.a
        name = f"{house}@{'b' if house in on_b else 'a'}"
        seats[house] = LiveClient(name).connect(server.url, game.id, game.tokens[house])
    return seats


def test_a_placement_made_on_one_process_reaches_the_clients_of_the_other(
    cluster: Cluster,
) -> None:
    game = started_game(cluster.a.url)
    seats = seated(cluster, game, on_b={"lannister"})
    watcher = LiveClient("spectator@b").connect(cluster.b.url, game.id)
    clients = [*seats.values(), watcher]
    try:
        ack = place_a_ballot(seats, HttpClient(cluster.b.url), game)
        head = len(log_of(cluster.a.url, game.id))
        for client in clients:
            client.wait_version(head)
            saw_the_placement(client, ack, owner=client is seats["stark"])
    finally:
        close_all(clients)


def test_no_record_crosses_redis_and_the_other_process_reads_them_from_the_database(
    cluster: Cluster, redis_server: RedisServer
) -> None:
    """An append is announced by its game, version and hash alone, a public record as a
    placement: the other process pushes what it reads from the database."""
    game = started_game(cluster.a.url)
    seats = seated(cluster, game, on_b={"stark"})
    watcher = LiveClient("spectator@b").connect(cluster.b.url, game.id)
    clients = [*seats.values(), watcher]
    try:
        with RedisCapture(redis_server) as seen:
            ack = place_a_ballot(seats, HttpClient(cluster.a.url), game)
            log = log_of(cluster.a.url, game.id)
            for client in clients:
                client.wait_version(len(log))
        for client in clients:
            saw_the_placement(client, ack, owner=client is seats["stark"])
        assert b"small-council:appended" in seen.data
        assert log[-1]["hash"].encode() in seen.data  # the head an announcement names
        for word in (b"CandidateStood", b"BallotPlaced", b"robb-stark", b"winterfell"):
            assert word not in seen.data, word
        salts = [m["salt"] for m in ack["receipt"]["markers"]]
        assert all(salt.encode() not in seen.data for salt in salts)
    finally:
        close_all(clients)


def test_talk_across_processes_reaches_its_parties_and_never_passes_through_redis(
    cluster: Cluster, redis_server: RedisServer
) -> None:
    game = started_game(cluster.a.url)
    stark = LiveClient("stark@a").connect(cluster.a.url, game.id, game.tokens["stark"])
    lannister = LiveClient("lannister@b").connect(cluster.b.url, game.id, game.tokens["lannister"])
    tyrell = LiveClient("tyrell@b").connect(cluster.b.url, game.id, game.tokens["tyrell"])
    host = LiveClient("host@a").connect(cluster.a.url, game.id, game.host_token)
    clients = [stark, lannister, tyrell, host]
    table, whisper, answer = "Direwolves-at-the-gate", "Trust-no-lion-7f3a", "Lions-pay-debts-9c1e"
    try:
        # When the players talk at the table and whisper across the two processes
        with RedisCapture(redis_server) as seen:
            assert stark.call("say", {"text": table})["ok"]
            to_lannister = {"to": game.seats["lannister"], "text": whisper}
            assert stark.call("whisper", to_lannister)["ok"]
            assert lannister.call("whisper", {"to": game.seats["stark"], "text": answer})["ok"]
            assert host.call("record_gold", {"house": "stark", "amount": 1, "cause": "tax"})["ok"]
            for client in (stark, lannister, tyrell):
                client.wait_for(lambda c: c.heard(table) == 1)
            lannister.wait_for(lambda c: c.heard(whisper) == 1)
            stark.wait_for(lambda c: c.heard(answer) == 1 and c.heard(whisper) == 1)
        # Then each line reached its parties alone, once
        assert tyrell.heard(whisper) == tyrell.heard(answer) == 0
        assert lannister.heard(answer) == 1 and lannister.heard(table) == 1
        # And Redis carried the announcements, but never a line's text
        assert b"small-council:" in seen.data
        for text in (table, whisper, answer):
            assert text.encode() not in seen.data, text
    finally:
        close_all(clients)


def send_all(clients: list[LiveClient], game: Game, start: threading.Event) -> list[dict]:
    """CONCURRENT `record_gold` commands, spread over `clients`, all emitted at once; every
    (command, ack) once the acks are back."""
    sent: list[dict] = []
    acks: dict[int, dict] = {}
    done = threading.Condition()

    def acked(index: int):
        def keep(ack: dict) -> None:
            with done:
                acks[index] = ack
                done.notify_all()

        return keep

    for index in range(CONCURRENT):
        house = HOUSES[index % len(HOUSES)]
        sent.append({"house": house, "amount": 1 + index % 5, "cause": f"race-{index}"})
    start.wait()
    for index, command in enumerate(sent):
        clients[index % len(clients)].send("record_gold", command, acked(index))
    deadline = time.monotonic() + 60
    with done:
        while len(acks) < CONCURRENT and time.monotonic() < deadline:
            done.wait(deadline - time.monotonic())
    assert len(acks) == CONCURRENT, f"{CONCURRENT - len(acks)} acks never came"
    return [{**sent[i], "ack": acks[i]} for i in range(CONCURRENT)]


def test_commands_racing_on_one_game_from_both_processes_are_each_decided_once(
    cluster: Cluster, tmp_path: Path
) -> None:
    game = started_game(cluster.a.url)
    before = HttpClient(cluster.a.url).get(f"/api/games/{game.id}").get_json()
    treasury = {h["id"]: h["treasury"] for h in before["houses"]}
    hosts = [
        LiveClient(f"host-{i}@{name}").connect(server.url, game.id, game.host_token)
        for name, server in (("a", cluster.a), ("b", cluster.b))
        for i in range(CONNECTIONS)
    ]
    watchers = [
        LiveClient("lannister@a").connect(cluster.a.url, game.id, game.tokens["lannister"]),
        LiveClient("tyrell@b").connect(cluster.b.url, game.id, game.tokens["tyrell"]),
        LiveClient("spectator@a").connect(cluster.a.url, game.id),
        LiveClient("spectator@b").connect(cluster.b.url, game.id),
    ]
    start_version = game.started
    try:
        go = threading.Event()
        go.set()
        results = send_all(hosts, game, go)
        refused = [r for r in results if not r["ack"]["ok"]]
        assert refused == [], refused[:3]

        log = log_of(cluster.b.url, game.id)
        assert [r["version"] for r in log] == list(range(1, len(log) + 1))
        assert HttpClient(cluster.a.url).get(f"/api/games/{game.id}/verify").get_json()["ok"]
        adjusted = [r for r in log if r["type"] == "GoldAdjusted"]
        # each command appended once (FactRecorded + GoldAdjusted), at the version its ack names
        assert Counter(r["data"]["cause"] for r in adjusted) == Counter(r["cause"] for r in results)
        assert len(log) == start_version + 2 * CONCURRENT
        by_version = {r["version"]: r for r in log}
        for result in results:
            record = by_version[result["ack"]["version"]]
            assert record["type"] == "GoldAdjusted"
            assert record["data"]["cause"] == result["cause"]
        # no command was decided on a state that another one had already changed
        for house in HOUSES:
            gained = sum(r["amount"] for r in results if r["house"] == house)
            treasury[house] += gained
        after = HttpClient(cluster.b.url).get(f"/api/games/{game.id}").get_json()
        assert {h["id"]: h["treasury"] for h in after["houses"]} == treasury

        for client in hosts + watchers:
            client.wait_version(len(log))
            seen = [r["version"] for r in client.records]
            assert seen == list(range(start_version + 1, len(log) + 1)), client.name
            assert [r["hash"] for r in client.records] == [
                r["hash"] for r in log[start_version:]
            ], client.name

        replayed = replay_court(log, tmp_path)
        for server in (cluster.a, cluster.b):
            fresh = LiveClient(f"late@{server.process_id}").connect(server.url, game.id)
            try:
                welcome = fresh.welcomes[0]
                assert welcome["version"] == len(log)
                assert welcome["checkpoint"]["hash"] == log[-1]["hash"]
                assert {k: v for k, v in welcome["court"].items() if k != "checkpoint"} == replayed
            finally:
                close_all([fresh])
    finally:
        close_all(hosts + watchers)
    assert small_council_complaints(cluster.a) == []
    assert small_council_complaints(cluster.b) == []


def replay_court(log: list[dict], folder: Path) -> dict:
    """The spectator's court view rebuilt from the exported log alone, in a new database."""
    from court.commands import SPECTATOR
    from server.messages.views import court_of
    from server.service.court_service import CourtService
    from server.store.sql import SqlEventStore

    store = SqlEventStore(f"sqlite:///{folder}/replay.db")
    store.create_schema()
    try:
        service = CourtService(store)
        assert service.import_log(log).ok
        head = service.current(log[0]["game_id"])
        return json.loads(json.dumps(court_of(SPECTATOR, head)))
    finally:
        store.close()


def test_a_deadline_both_processes_watch_is_closed_once(cluster: Cluster) -> None:
    game = started_game(cluster.a.url, deadlines={"candidacy": 2, "ballot": 2})
    a = LiveClient("spectator@a").connect(cluster.a.url, game.id)
    b = LiveClient("spectator@b").connect(cluster.b.url, game.id)
    try:
        host = LiveClient("host@a").connect(cluster.a.url, game.id, game.host_token)
        for village in NORTH:
            body = {"village": village, "house": "stark", "cause": "battle"}
            assert host.call("record_village", body)["ok"]
        host.close()
        next_round(HttpClient(cluster.a.url), game)  # type: ignore[arg-type]
        for client in (a, b):
            client.wait_for(lambda c: any(r["type"] == "StepTimedOut" for r in c.records), 15)
        time.sleep(1.0)  # time for a second close, were there one
        log = log_of(cluster.b.url, game.id)
        assert [r["type"] for r in log].count("StepTimedOut") == 1
        for client in (a, b):
            assert client.repeated() == [], client.name
            assert [r["version"] for r in client.records][-1] == len(log)
    finally:
        close_all([a, b])
    assert small_council_complaints(cluster.a) == []
    assert small_council_complaints(cluster.b) == []


def test_the_connections_of_a_killed_process_leave_the_presence_of_the_others(
    cluster: Cluster,
) -> None:
    game = started_game(cluster.a.url)
    third = CourtServer(cluster.env, cluster.folder / "c.log").start()
    watcher = LiveClient("stark@a").connect(cluster.a.url, game.id, game.tokens["stark"])
    try:
        tyrell = LiveClient("tyrell@c").connect(third.url, game.id, game.tokens["tyrell"])
        watcher.wait_for(lambda c: bool(c.presences) and c.presences[-1]["seats"] == [0, 2])
        third.kill()
        killed = time.monotonic()
        watcher.wait_for(lambda c: c.presences[-1]["seats"] == [0], PRESENCE_TTL * 4)
        assert time.monotonic() - killed >= PRESENCE_TTL / 2
        close_all([tyrell])
    finally:
        close_all([watcher])
        third.stop()
