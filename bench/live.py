"""Bench of the live court over Socket.IO, against a bare Flask-SocketIO floor.

Run from the repo root: `.venv/bin/python bench/live.py`. It starts the real server
(`app.py`, SQLite in a temporary directory, deadlines off) and then the floor
(bench/floor_app.py, a "bump" that only counts and pushes), each as a subprocess on
127.0.0.1 and a free port, and drives both with socketio.Client peers on the
websocket transport, each reading its messages in order as a browser does. The court's
peers are pages (bench/page_client.py ThreadPagePeer): each applies the pushes to its court
view and recomputes their hashes, and each seat's page keys its device and signs its moves
(`--unkeyed`: none does, as an API client plays); what a page could not follow is printed as
`vote_stale_views` and `rooms50_stale_views`, and fails the run unless 0:

- one room, 6 seats and 10 spectators: sequential Warden election commands (court)
  or bumps (floor), each timed from its emit until its ack is back and all 16 peers
  have its push: vote_p50_ms, vote_p99_ms, votes_per_s and floor_p50_ms,
  floor_p99_ms, floor_per_s (per_s = commands / their summed seconds);
- 50 rooms of 6 seats at once, one driver thread per room: rooms50_p99_ms and
  floor_rooms50_p99_ms, each command timed until the 6 peers of its room have it;
- the peer, boardgame.io 0.50 on Node in one process (bench/peers/server.js, driven by
  bench/bgio.py), when `node` is there: the same single room (6 seats, 10 spectators)
  plays as many moves of the same election, each timed from its emit until all 16
  sockets have the new state: peer_p50_ms, peer_p99_ms, peer_per_s, and
  vote_p99_vs_peer (target at most 1.5). Its harness is installed by `npm ci` into
  bench/peers/node_modules the first time; without node, npm or the network the bench
  prints `peer_skipped: <reason>` instead.

`--peer-only` runs the peer's part alone (TIMED_COMMANDS moves), without the court and
the floor. Prints `name: value` lines, the ratios to the floor, and a `machine:` line; exits 1
with `FAILED: <name>` lines when a target is missed. Setup (games, seats, phases) goes
through HTTP and is never timed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from bgio import bgio_single
from bgio_server import harness, peer_server
from common import ROOT, emit, machine_line, per_second, percentile  # repo root on sys.path
from live_court import PLAYERS, CourtHttp, Table
from live_peers import Peer, Room, close_all, connect_all, raise_open_files, server, timed_command

SPECTATORS = 10  # with the 6 seats: 16 peers in the single room
TIMED_COMMANDS = 600  # at least this many timed commands in the single room (p99: 6th worst)
WARMUP_ELECTIONS = 1  # untimed elections (court) before the clock starts
FLOOR_WARMUP = 20  # untimed bumps before the clock starts
ROOMS = 50
ROOM_ELECTIONS = 2  # elections each of the 50 rooms plays at the same time
BARRIER_SECONDS = 120.0
OPEN_FILES = 8192

P99_RATIO_TARGET = 2.0  # vote_p99_ms / floor_p99_ms at most
THROUGHPUT_RATIO_TARGET = 0.5  # votes_per_s / floor_per_s at least
ROOMS50_RATIO_TARGET = 2.0  # rooms50_p99_ms / floor_rooms50_p99_ms at most
PEER_P99_RATIO_TARGET = 1.5  # vote_p99_ms / peer_p99_ms at most

Drive = Callable[[int, threading.Barrier, list[float]], None]


# -- the court -----------------------------------------------------------------


def court_single(url: str, keyed: bool, faults: list[int]) -> list[float]:
    """Seconds of each timed election command in one game with 16 pages; what the pages could
    not follow goes to `faults`. Prints the CPU the 16 pages spend on a push."""
    http = CourtHttp(url, keyed=keyed)
    table = Table(http, http.start_game(), Room(PLAYERS + SPECTATORS), SPECTATORS)
    try:
        connect_all(url, table.auths())
        table.to_first_election()
        warmup: list[float] = []
        for _ in range(WARMUP_ELECTIONS):
            table.play_election(warmup)
            table.to_next_election()
        samples: list[float] = []
        while True:
            table.play_election(samples)
            if len(samples) >= TIMED_COMMANDS:
                return samples
            table.to_next_election()
    finally:
        faults.append(table.faults())
        emit("vote_pages_cpu_ms_per_push", table.page_cpu_ms_per_push(), 3)
        close_all(table.peers)
        http.close()


def court_rooms(url: str, keyed: bool, faults: list[int]) -> tuple[list[float], float]:
    """(seconds of each command, timed wall seconds) of ROOMS games playing at once; what
    their pages could not follow goes to `faults`."""
    https = [CourtHttp(url, keyed=keyed) for _ in range(ROOMS)]
    tables = [Table(http, http.start_game(), Room(PLAYERS), 0) for http in https]
    try:
        connect_all(url, [pair for table in tables for pair in table.auths()])

        def drive(index: int, barrier: threading.Barrier, samples: list[float]) -> None:
            table = tables[index]
            table.to_first_election()
            for election in range(ROOM_ELECTIONS):
                if election:
                    table.to_next_election()
                barrier.wait()
                table.play_election(samples)
                barrier.wait()

        return in_step(drive)
    finally:
        faults.append(sum(table.faults() for table in tables))
        close_all([peer for table in tables for peer in table.peers])
        for http in https:
            http.close()


# -- the floor -------------------------------------------------------------------


def floor_peers(rooms: int, size: int) -> list[list[Peer]]:
    return [[Peer(room, i) for i in range(size)] for room in (Room(size) for _ in range(rooms))]


def bump(peers: Sequence[Peer], count: int, samples: list[float]) -> None:
    """`count` sequential bumps, sent by the room's first PLAYERS peers in turn."""
    for i in range(count):
        samples.append(timed_command(peers[i % PLAYERS], "bump", {})[1])


def floor_single(url: str, commands: int) -> list[float]:
    """Seconds of each of `commands` timed bumps in one room with 16 peers."""
    (peers,) = floor_peers(1, PLAYERS + SPECTATORS)
    try:
        connect_all(url, [(peer, {"game": "solo"}) for peer in peers])
        bump(peers, FLOOR_WARMUP, [])
        samples: list[float] = []
        bump(peers, commands, samples)
        return samples
    finally:
        close_all(peers)


def floor_rooms(url: str, per_election: int) -> tuple[list[float], float]:
    """(seconds of each bump, timed wall seconds) of ROOMS rooms bumping at once, in the
    same steps as the court's rooms: ROOM_ELECTIONS bursts of `per_election` bumps."""
    rooms = floor_peers(ROOMS, PLAYERS)
    try:
        connect_all(url, [(p, {"game": f"r{i}"}) for i, peers in enumerate(rooms) for p in peers])

        def drive(index: int, barrier: threading.Barrier, samples: list[float]) -> None:
            bump(rooms[index], FLOOR_WARMUP, [])
            for _ in range(ROOM_ELECTIONS):
                barrier.wait()
                bump(rooms[index], per_election, samples)
                barrier.wait()

        return in_step(drive)
    finally:
        close_all([peer for peers in rooms for peer in peers])


# -- the peer --------------------------------------------------------------------


def peer_single(commands: int, folder: Path) -> float | None:
    """Print the peer's single-room figures over `commands` moves; its p99 in ms, or None
    (with a `peer_skipped` line) when the peer cannot run here."""
    reason = harness()
    if reason is not None:
        emit("peer_skipped", reason)
        return None
    with peer_server(folder) as (url, _):
        samples = bgio_single(url, commands, SPECTATORS, WARMUP_ELECTIONS)
    emit("peer_commands", len(samples))
    p99, _ = emit_single("peer", "peer_per_s", samples)
    return p99


# -- rooms in step -----------------------------------------------------------------


def in_step(drive: Drive) -> tuple[list[float], float]:
    """Run `drive(room, barrier, samples)` in one thread per room.

    Every drive waits at the barrier before and after each timed burst, so no room's
    setup overlaps another room's timed commands. Returns the samples of every room
    and the wall seconds of the bursts (from each release to the next meeting)."""
    meetings: list[float] = []
    barrier = threading.Barrier(
        ROOMS, action=lambda: meetings.append(time.perf_counter()), timeout=BARRIER_SECONDS
    )
    samples: list[list[float]] = [[] for _ in range(ROOMS)]

    def guarded(index: int) -> None:
        try:
            drive(index, barrier, samples[index])
        except BaseException:
            barrier.abort()
            raise

    with ThreadPoolExecutor(ROOMS) as pool:
        futures = [pool.submit(guarded, i) for i in range(ROOMS)]
    errors = [e for e in (f.exception() for f in futures) if e is not None]
    if errors:  # the first real failure, not the broken barrier it left behind
        real = [e for e in errors if not isinstance(e, threading.BrokenBarrierError)]
        raise (real or errors)[0]
    wall = sum(end - start for start, end in zip(meetings[::2], meetings[1::2], strict=True))
    return [s for room in samples for s in room], wall


# -- figures ----------------------------------------------------------------------


def emit_latency(prefix: str, samples: Sequence[float]) -> float:
    """Print <prefix>_p50_ms and <prefix>_p99_ms; returns the p99."""
    p99 = percentile(samples, 0.99) * 1000
    emit(f"{prefix}_p50_ms", statistics.median(samples) * 1000, 2)
    emit(f"{prefix}_p99_ms", p99, 2)
    return p99


def emit_single(prefix: str, rate_name: str, samples: Sequence[float]) -> tuple[float, float]:
    """Print the p50, p99 and commands per second of sequential commands; (p99, rate)."""
    p99 = emit_latency(prefix, samples)
    rate = per_second(len(samples), sum(samples))
    emit(rate_name, rate)
    return p99, rate


def emit_rooms(prefix: str, samples: Sequence[float], wall: float) -> float:
    """Print the p50, p99 and commands per wall second of rooms at once; the p99."""
    p99 = emit_latency(prefix, samples)
    emit(f"{prefix}_per_s", per_second(len(samples), wall))
    return p99


def measure(keyed: bool) -> tuple[dict[str, float], int]:
    """Run both servers and print every figure; the ratios to the floor, and what the court's
    pages could not follow."""
    python = sys.executable
    with tempfile.TemporaryDirectory(prefix="bench-live-") as folder:
        tmp = Path(folder)
        court_env = {
            "DATABASE_URL": f"sqlite:///{tmp}/live.db",
            "DEADLINES": "off",
            "RATE_LIMITS": "off",  # every client plays from 127.0.0.1
        }
        with server([python, "app.py"], court_env, ROOT, tmp / "court.log") as url:
            faults: list[int] = []
            votes = court_single(url, keyed, faults)
            emit("vote_commands", len(votes))
            vote_p99, votes_per_s = emit_single("vote", "votes_per_s", votes)
            emit("vote_stale_views", faults[0])
            rooms, rooms_wall = court_rooms(url, keyed, faults)
            emit("rooms50_commands", len(rooms))
            rooms_p99 = emit_rooms("rooms50", rooms, rooms_wall)
            emit("rooms50_stale_views", faults[1])
        with server([python, "bench/floor_app.py"], {}, ROOT, tmp / "floor.log") as url:
            floor = floor_single(url, len(votes))
            floor_p99, floor_per_s = emit_single("floor", "floor_per_s", floor)
            floors, floors_wall = floor_rooms(url, len(rooms) // (ROOMS * ROOM_ELECTIONS))
            floor_rooms_p99 = emit_rooms("floor_rooms50", floors, floors_wall)
        peer_p99 = peer_single(len(votes), tmp)
    ratios = {
        "p99_ratio": vote_p99 / floor_p99,
        "throughput_ratio": votes_per_s / floor_per_s,
        "rooms50_ratio": rooms_p99 / floor_rooms_p99,
    }
    if peer_p99 is not None:
        ratios["vote_p99_vs_peer"] = vote_p99 / peer_p99
    for name, value in ratios.items():
        emit(name, value, 3)
    return ratios, sum(faults)


def main() -> int:
    parser = argparse.ArgumentParser(description="Live bench of the court, the floor and the peer.")
    parser.add_argument("--peer-only", action="store_true", help="only the peer's single room")
    parser.add_argument(
        "--unkeyed",
        action="store_true",
        help="the seats' pages key no device and sign nothing, as an API client plays",
    )
    args = parser.parse_args()
    raise_open_files(OPEN_FILES)
    if args.peer_only:
        with tempfile.TemporaryDirectory(prefix="bench-live-") as folder:
            peer_single(TIMED_COMMANDS, Path(folder))
        emit("machine", machine_line())
        return 0
    ratios, faults = measure(keyed=not args.unkeyed)
    emit("machine", machine_line())
    met = {
        "p99_ratio": ratios["p99_ratio"] <= P99_RATIO_TARGET,
        "throughput_ratio": ratios["throughput_ratio"] >= THROUGHPUT_RATIO_TARGET,
        "rooms50_ratio": ratios["rooms50_ratio"] <= ROOMS50_RATIO_TARGET,
    }
    if "vote_p99_vs_peer" in ratios:
        met["vote_p99_vs_peer"] = ratios["vote_p99_vs_peer"] <= PEER_P99_RATIO_TARGET
    failed = [name for name, ok in met.items() if not ok]
    for name in failed:
        print(f"FAILED: {name}", flush=True)
    if faults:
        print(f"FAILED: {faults} views the pages could not follow", flush=True)
    return 1 if failed or faults else 0


if __name__ == "__main__":
    sys.exit(main())
