"""`python app.py` as `make run` starts it: gunicorn with one gevent worker. Half-sent
requests cost greenlets, not threads, and are dropped after the header timeout; a push
followed by an ack does not wait for Nagle's algorithm; SIGTERM stops the server within
the graceful timeout even with WebSockets open; a closed WebSocket logs no error; the
`Server` header names no version; psycopg waits cooperatively, so a database wait of one
request does not stop the others."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from devtools.servers import HOST, STOP_SECONDS, CourtServer
from server.store.postgres import LOCK_KEY
from server.tools.serve import HEADER_SECONDS
from tests.scale.clients import HttpClient, LiveClient, close_all
from tests.scale.conftest import started_game
from tests.server.http.court_client import bearer, create_game
from tests.services import PostgresServer

HALF_SENT = 200
HONEST_SECONDS = 1.0  # an honest request meanwhile answers within this
MAX_THREADS = 12  # the worker's threads, whatever the number of connections


@pytest.fixture
def server(tmp_path: Path) -> Iterator[CourtServer]:
    court = CourtServer({"DATABASE_URL": f"sqlite:///{tmp_path}/court.db"}, tmp_path / "s.log")
    with _stopped(court.start()):
        yield court


class _stopped:
    def __init__(self, server: CourtServer) -> None:
        self.server = server

    def __enter__(self) -> CourtServer:
        return self.server

    def __exit__(self, *exc: object) -> None:
        self.server.stop()


def worker_pid(server: CourtServer) -> int:
    """gunicorn's one worker: the master's child."""
    assert server.process is not None
    master = server.process.pid
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == master:
            return int(stat.parent.name)
    raise AssertionError("gunicorn's worker is not running")


def threads(pid: int) -> int:
    return len(list(Path(f"/proc/{pid}/task").iterdir()))


def test_half_sent_requests_hold_no_threads_and_are_dropped_after_the_header_timeout(
    server: CourtServer,
) -> None:
    # given 200 connections that each send half a request head and then nothing
    held = []
    for _ in range(HALF_SENT):
        sock = socket.create_connection((HOST, server.port), timeout=10)
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: court\r\nX-Slow: ")
        held.append(sock)
    try:
        # when an honest client asks meanwhile, then it is answered at once
        began = time.monotonic()
        assert requests.get(f"{server.url}/healthz", timeout=10).status_code == 200
        assert time.monotonic() - began < HONEST_SECONDS
        # and the worker runs them as greenlets: a handful of threads, not one each
        assert threads(worker_pid(server)) <= MAX_THREADS
        # and the server hangs up on them once the header timeout has passed
        time.sleep(HEADER_SECONDS + 1)
        for sock in held:
            assert sock.recv(1024) == b""
    finally:
        for sock in held:
            sock.close()


def test_responses_name_the_server_without_a_version(server: CourtServer) -> None:
    for path in ("/", "/healthz", "/api/games", "/no-such-page"):
        assert requests.get(f"{server.url}{path}", timeout=10).headers["Server"] == "gunicorn"


def test_a_push_then_its_ack_do_not_wait_for_nagle(server: CourtServer) -> None:
    # given a started game and its host connected over WebSocket
    game = started_game(server.url)
    stark = LiveClient("stark").connect(server.url, game.id, game.tokens["stark"])
    try:
        # when it records facts one after another, each pushed to it and then acknowledged
        took = []
        for house in ("lannister", "stark") * 4:  # Winterfell taken and taken back
            began = time.monotonic()
            body = {"village": "winterfell", "house": house, "cause": "battle"}
            ack = stark.call("record_village", body)
            assert ack["ok"], ack
            took.append(time.monotonic() - began)
        # then round trips take a few milliseconds: with Nagle's algorithm every one would
        # wait ~40 ms for the client's delayed ACK (the fastest, on a busy machine)
        assert min(took) < 0.025, took
    finally:
        stark.close()


def test_sigterm_closes_open_websockets_and_stops_within_the_graceful_timeout(
    server: CourtServer,
) -> None:
    game = started_game(server.url)
    clients = [
        LiveClient(house).connect(server.url, game.id, token)
        for house, token in game.tokens.items()
    ]
    try:
        began = time.monotonic()
        server.stop()
        stopped = time.monotonic() - began
        assert server.process is not None and server.process.returncode == 0
        # the worker left because its connections were closed, not because the graceful
        # timeout ran out (gunicorn then logs it and drops them)
        assert "Worker graceful timeout" not in server.tail(100_000)
        assert stopped < STOP_SECONDS, f"stopped in {stopped:.1f} s"
        for client in clients:
            client.wait_for(lambda c: c.disconnected, timeout=5)
    finally:
        close_all(clients)


def test_a_closed_websocket_logs_no_error(server: CourtServer) -> None:
    game = started_game(server.url)
    clients = [LiveClient(h).connect(server.url, game.id, t) for h, t in game.tokens.items()]
    close_all(clients)
    time.sleep(1)  # the server notices the closes
    assert requests.get(f"{server.url}/healthz", timeout=10).ok
    assert server.log_lines("ERROR") == []
    assert "Bad request" not in server.tail(100_000)


def test_a_request_waiting_on_postgresql_does_not_stop_the_others(
    postgres: PostgresServer, tmp_path: Path
) -> None:
    # given a server on PostgreSQL, and the appends' lock held by another session
    url = postgres.new_database("gevent")
    court = CourtServer({"DATABASE_URL": url}, tmp_path / "pg.log")
    with _stopped(court.start()), postgres.connect(url.rsplit("/", 1)[1]) as holder:
        holder.autocommit = True
        http = HttpClient(court.url)
        game = create_game(http)  # type: ignore[arg-type]
        holder.execute("SELECT pg_advisory_lock(%s)", (LOCK_KEY,))
        # when a join waits for that lock in its append
        answers: list[int] = []

        def join() -> None:
            path = f"/api/games/{game['game_id']}/commands/join"
            body = {"house": "stark", "player_name": "Eddard"}
            answers.append(http.post(path, body, bearer(game["host_token"])).status_code)

        waiting = threading.Thread(target=join)
        waiting.start()
        time.sleep(0.5)
        # then the server still answers others at once (a blocking wait would hang it)
        began = time.monotonic()
        assert requests.get(f"{court.url}/healthz", timeout=10).ok
        assert time.monotonic() - began < HONEST_SECONDS
        assert answers == []  # the join is still waiting
        holder.execute("SELECT pg_advisory_unlock(%s)", (LOCK_KEY,))
        waiting.join(timeout=20)
        assert answers == [201]


def test_a_first_start_logs_each_key_file_it_makes(tmp_path: Path) -> None:
    """docs/deployment.md: without the variables, the server makes each key file and logs
    `made a new key file …` (the line was lost when logging was set up only after the keys)."""
    env = {"DATABASE_URL": f"sqlite:///{tmp_path}/court.db"}
    with _stopped(CourtServer(env, tmp_path / "s.log", keys={}).start()) as court:
        log = court.tail(100_000)
    for name in ("secret.key", "signing.key"):
        assert (tmp_path / name).exists(), name
        assert f"made a new key file {tmp_path / name}" in log, log[-2000:]
