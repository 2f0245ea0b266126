"""What hostile input costs the server: CPU per oversized request, memory under concurrent
ones, and an honest player's latency while attackers loop (docs/benchmarks.md, "Hostile
requests").

Run from the repo root: `.venv/bin/python bench/hostile.py [--requests N]`. It starts its own
server (devtools/servers.py, SQLite in a temporary folder, 127.0.0.1) with the limits per
address off, so that what is measured is the refusal of each request itself, not a 429.
Prints `name: value` lines, and a FAILED line for each target missed (exit status 1):
CPU per hostile request <= 5 ms, RSS growth under 8 concurrent oversized requests <= 20 MB,
an honest GET's p99 while four attackers loop <= 2x its p99 without them, in the same run.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import common  # noqa: F401 - the repo root on sys.path
import requests
import socketio
from common import cpu_seconds, emit, machine_line, percentile

from devtools.servers import CourtServer, court_servers
from server.live.sockets import NAMESPACE

CPU_MS_TARGET = 5.0
RSS_MB_TARGET = 20.0
P99_RATIO_TARGET = 2.0
HUGE = 85_000  # items of the finding's 249 KB ballot
FITTING = 1_500  # items of a list that still fits in one request (16 KB)
NOBLE = {"house": "stark", "noble": "x", "name": "X", "gender": "lord", "cause": "c"}


def encoded(body: dict[str, Any]) -> bytes:
    return json.dumps(body).encode()


# name -> (command, body, whose token): a seat's, the host's, a bogus one or none
HTTP_CASES: dict[str, tuple[str, bytes, str | None]] = {
    "ballot_85000_no_token": ("place_ballot", encoded({"markers": [{}] * HUGE}), None),
    "ballot_85000_bad_token": ("place_ballot", encoded({"markers": [{}] * HUGE}), "bogus"),
    "ballot_85000_seat": ("place_ballot", encoded({"markers": [{}] * HUGE}), "seat"),
    "ballot_1500_seat": ("place_ballot", encoded({"markers": [{}] * FITTING}), "seat"),
    "attributes_85000_no_token": (
        "add_noble",
        encoded({**NOBLE, "attributes": ["cruel"] * HUGE}),
        None,
    ),
    "attributes_1500_host": (
        "add_noble",
        encoded({**NOBLE, "attributes": ["x"] * FITTING}),
        "host",
    ),
    "seat_order_85000_bad_token": ("start", encoded({"seat_order": [0] * HUGE}), "bogus"),
    "seat_order_1500_host": ("start", encoded({"seat_order": [0] * FITTING}), "host"),
}
SOCKET_CASES: dict[str, tuple[str, dict[str, Any]]] = {
    "ballot_1500_spectator": ("spectator", {"markers": [{}] * FITTING}),
    "ballot_1500_seat": ("seat", {"markers": [{}] * FITTING}),
    "attributes_1500_spectator": ("spectator", {**NOBLE, "attributes": ["x"] * FITTING}),
    "seat_order_1500_seat": ("seat", {"seat_order": [0] * FITTING}),
}
SOCKET_MESSAGE = {"ballot": "place_ballot", "attributes": "add_noble", "seat_order": "start"}


def started_game(url: str) -> dict[str, Any]:
    """A started 3-player game: its id, the host's token and a seat's."""
    http = requests.Session()
    made = http.post(f"{url}/api/games", json={"players": 3, "host_name": "Ned"}, timeout=30)
    game_id, host = made.json()["game_id"], made.json()["host_token"]
    seat = ""
    for index, house in enumerate(("stark", "lannister", "tyrell")):
        joined = http.post(
            f"{url}/api/games/{game_id}/commands/join",
            json={"house": house, "player_name": house, "invite": made.json()["invite"]},
            headers={"Authorization": f"Bearer {host}"} if index == 0 else {},
            timeout=30,
        ).json()
        seat = joined["token"]
    http.post(
        f"{url}/api/games/{game_id}/commands/start",
        json={},
        headers={"Authorization": f"Bearer {host}"},
        timeout=30,
    )
    http.close()
    return {"url": url, "id": game_id, "host": host, "seat": seat, "bogus": "x" * 43}


def hostile_post(game: dict[str, Any], case: str) -> int:
    """One hostile request on a fresh connection; its status (0: the server hung up first)."""
    command, data, who = HTTP_CASES[case]
    headers = {"Content-Type": "application/json", "Connection": "close"}
    if who is not None:
        headers["Authorization"] = f"Bearer {game[who]}"
    try:
        return requests.post(
            f"{game['url']}/api/games/{game['id']}/commands/{command}",
            data=data,
            headers=headers,
            timeout=30,
        ).status_code
    except requests.ConnectionError:
        return 0


def cpu_per_request(server: CourtServer, action: Callable[[], object], count: int) -> float:
    """Milliseconds of server CPU per call of `action`."""
    assert server.process is not None
    before = cpu_seconds([server.process.pid])
    for _ in range(count):
        action()
    return (cpu_seconds([server.process.pid]) - before) * 1000 / count


def socket_client(game: dict[str, Any], who: str) -> socketio.Client:
    client = socketio.Client(reconnection=False)
    token = game["seat"] if who == "seat" else None
    client.connect(
        game["url"],
        namespaces=[NAMESPACE],
        transports=["websocket"],
        auth={"game": game["id"], "token": token},
        wait_timeout=30,
    )
    return client


def measure_cpu(server: CourtServer, game: dict[str, Any], count: int) -> list[str]:
    """`cpu_ms_<transport>_<case>` lines; the names of the cases over the target."""
    missed = []
    for case in HTTP_CASES:
        ms = cpu_per_request(server, lambda c=case: hostile_post(game, c), count)
        emit(f"cpu_ms_http_{case}", ms, 2)
        emit(f"status_http_{case}", str(hostile_post(game, case)))
        if ms > CPU_MS_TARGET:
            missed.append(f"http_{case}")
    for case, (who, payload) in SOCKET_CASES.items():
        client = socket_client(game, who)
        message = SOCKET_MESSAGE[case.split("_1500")[0]]
        ms = cpu_per_request(
            server,
            lambda m=message, p=payload, c=client: c.call(m, p, namespace=NAMESPACE, timeout=30),
            count,
        )
        ack = client.call(message, payload, namespace=NAMESPACE, timeout=30)
        client.disconnect()
        emit(f"cpu_ms_socket_{case}", ms, 2)
        emit(f"code_socket_{case}", str(ack.get("code")))
        if ms > CPU_MS_TARGET:
            missed.append(f"socket_{case}")
    return missed


def rss_growth(server: CourtServer, game: dict[str, Any], rounds: int) -> float:
    """MB the server's RSS grows by at most while 8 clients send oversized requests at once."""
    before = server.rss_bytes()
    peak = [before]
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], server.rss_bytes())
            time.sleep(0.01)

    def attack(index: int) -> None:
        cases = list(HTTP_CASES)
        for n in range(rounds):
            hostile_post(game, cases[(index + n) % len(cases)])

    sampler = threading.Thread(target=sample)
    sampler.start()
    attackers = [threading.Thread(target=attack, args=(i,)) for i in range(8)]
    for thread in attackers:
        thread.start()
    for thread in attackers:
        thread.join(timeout=600)
    done.set()
    sampler.join()
    return (peak[0] - before) / 2**20


def loop_attacks(game: dict[str, Any], stop: Any) -> None:
    """One attacker process: oversized requests of every kind, one after another. It runs at
    a lower priority: on this one machine the attackers' own CPU would otherwise slow the
    honest client and the server as much as their requests do."""
    os.nice(10)
    cases = list(HTTP_CASES)
    n = 0
    while not stop.is_set():
        hostile_post(game, cases[n % len(cases)])
        n += 1


def honest_p99(game: dict[str, Any], samples: int) -> float:
    """Milliseconds: the p99 of a seat's GET of its court view."""
    http = requests.Session()
    headers = {"Authorization": f"Bearer {game['seat']}"}
    url = f"{game['url']}/api/games/{game['id']}"
    times = []
    for _ in range(samples):
        began = time.perf_counter()
        assert http.get(url, headers=headers, timeout=30).status_code == 200
        times.append(time.perf_counter() - began)
    http.close()
    return percentile(times, 0.99) * 1000


def p99_under_attack(game: dict[str, Any], samples: int) -> tuple[float, float]:
    honest_p99(game, samples // 4)  # warm-up
    calm = honest_p99(game, samples)
    stop = multiprocessing.Event()
    attackers = [
        multiprocessing.Process(target=loop_attacks, args=(game, stop), daemon=True)
        for _ in range(4)
    ]
    for process in attackers:
        process.start()
    time.sleep(1.0)  # the attackers are under way
    try:
        attacked = honest_p99(game, samples)
    finally:
        stop.set()
        for process in attackers:
            process.join(timeout=30)
    return calm, attacked


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=50, help="hostile requests per case")
    parser.add_argument("--samples", type=int, default=400, help="honest GETs per p99")
    args = parser.parse_args()
    emit("machine", machine_line())
    with tempfile.TemporaryDirectory(prefix="bench-hostile-") as folder:
        env = {
            "DATABASE_URL": f"sqlite:///{folder}/court.db",
            "DEADLINES": "off",
            "RATE_LIMITS": "off",
        }
        with court_servers(1, env, Path(folder), names=["hostile"]) as (server,):
            game = started_game(server.url)
            emit("requests_per_case", args.requests)
            missed = measure_cpu(server, game, args.requests)
            growth = rss_growth(server, game, args.requests)
            emit("rss_growth_mb_8_concurrent", growth, 1)
            calm, attacked = p99_under_attack(game, args.samples)
    emit("honest_get_p99_ms", calm, 2)
    emit("honest_get_p99_ms_4_attackers", attacked, 2)
    emit("honest_p99_ratio", attacked / calm, 2)
    failed = [f"FAILED: cpu_ms_{case} > {CPU_MS_TARGET}" for case in missed]
    if growth > RSS_MB_TARGET:
        failed.append(f"FAILED: rss_growth_mb_8_concurrent > {RSS_MB_TARGET}")
    if attacked > P99_RATIO_TARGET * calm:
        failed.append(f"FAILED: honest_p99_ratio > {P99_RATIO_TARGET}")
    for line in failed:
        print(line, flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
