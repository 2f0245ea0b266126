"""Load bench: many rooms of six seats and two spectators play complete Warden elections at the
same time, first against one server process on the default deployment (SQLite, no Redis:
`one_proc`), then against one and two processes sharing PostgreSQL and Redis (`pg_one_proc`,
`two_proc`), then against the bare Flask-SocketIO floor (bench/load_floor.py) and the peer
with the same rooms and clients.

Run from the repo root: `.venv/bin/python bench/load.py` (200 rooms, 1,600 sockets), or
`--rooms N` for a smaller run, `--runs` for some of the court's runs, `--unkeyed` for pages
that sign nothing (an API client's play). For the PostgreSQL runs it starts a throwaway
PostgreSQL cluster (durable default settings) and a redis-server (tests/services.py); each
run starts its court servers (`python app.py`, devtools/servers.py) on a new database, on
127.0.0.1. Every server (the court's, the floor, the peer), PostgreSQL and Redis run on the
first core the bench may use and the bench's clients on the second (`taskset`,
bench/placement.py; `--cpus` and `--client-cpus` name others), so that the CPU each spends is
its own. Every seat and spectator is a WebSocket of its own, playing as the court page plays
(bench/page_client.py: the same messages, the court view kept from each push's shared and own
parts, the witness's hashes recomputed, each signed move's signature checked and the
checkpoint's signature checked every 5 s; each seat's page keys its device once the game
starts and signs every move, bench/page_keys.py); all of them live on one asyncio loop in the
bench's process (bench/loop_peers.py). With two processes the pages of every room alternate
between them, so half of each room's pushes cross from one process to the other.

Setup (games, seats, villages, phases) goes through HTTP and is not timed. Then every room
plays its election at once; each command is timed from its emit to its ack, and the
next command of a room waits until all eight pages have the push. With `--elections N` the
rooms play N elections, each set up over HTTP (not timed) once every room has finished the
one before; the timed windows (wall, CPU) are added up.

Prints `name: value` lines: `cores` (the cores the bench and its servers may run on) and
`placement`; for each run (`one_proc`, `pg_one_proc`, `two_proc`, `floor`, `peer`) the
commands, commands per wall second, the ack p50 and p99, `*_cpu_ms_per_cmd` (user + system
CPU of the server process(es) over the timed window, over the commands) and
`*_client_cpu_ms_per_cmd` (the same of the bench's own process: its clients); for the
court's runs `*_bytes_per_push` (the mean length of a push's messages a page received: the
push and its own part), `*_page_cpu_ms_per_cmd` (the CPU one page spent reading one
command's push: parsing it, changing its court view, the witness's hashes), `*_stale_views`
(changes a page could not apply: it would connect again; must be 0) and `*_rss_mb_per_room`
(growth of the servers' resident memory from idle to all rooms active, over the rooms);
`scale_ratio` (two over one process on PostgreSQL, same run); `errors` (refused or lost
commands, must be 0), the ratios of one process to the peer, a `load:` line (the load
averages as the run ends) and a `machine:` line.

Targets, against the floor and the peer of the same run, each missed one printed as a
`FAILED: <name>` line: `one_proc_cpu_ms_per_cmd` <= 1.5x `peer_cpu_ms_per_cmd` and <= 2.0x
`floor_cpu_ms_per_cmd`; at 200 rooms, `one_proc_cmds_per_s` >= 0.7x `peer_cmds_per_s` and
`one_proc_p99_ms` <= 1.5x `peer_p99_ms`; `two_proc_cpu_ms_per_cmd` <= 1.3x
`pg_one_proc_cpu_ms_per_cmd`; every run's `*_bytes_per_push` <= 2,048; `scale_ratio` >= 1.6
on a machine with 4 cores or more (not checked below: two servers, the clients, PostgreSQL
and Redis then share too few). The exit status is 1 when a command failed (`FAILED:
errors`); a missed target makes it 1 only with `--strict`, for a machine that can meet them
(a dedicated one), because the project's 2-core machine is shared with other work.

Then, in the same run and at the same room count, the peer: boardgame.io 0.50 on Node in
one process (bench/peers/server.js, in-memory storage), its rooms of six seats set up
through its lobby API and driven by bench/bgio_loop.py with the same clients as the court's
(one WebSocket per seat, all on the bench's asyncio loop, bench/loop_peers.py) and the same
elections, each move timed from its emit to the mover's own update, the next move of a room
waiting until its six seats have it. Prints `peer_commands`, `peer_cmds_per_s`,
`peer_p50_ms`, `peer_p99_ms`, `peer_cpu_ms_per_cmd` (the node process's user + system CPU
from /proc over the timed window, over the moves), `peer_client_cpu_ms_per_cmd` (the
bench's own process), `peer_errors`, and the ratios `one_proc_p99_vs_peer` and
`one_proc_cmds_per_s_vs_peer`. Its harness is installed by `npm ci` into
bench/peers/node_modules the first time; without node, npm or the network it prints
`peer_skipped: <reason>`. `--peer-only` runs the peer alone (no PostgreSQL or Redis).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from bgio import PeerRun
from bgio_loop import bgio_load
from bgio_server import harness, peer_server
from common import (  # repo root on sys.path
    cores,
    cpu_seconds,
    emit,
    machine_line,
    per_second,
    percentile,
)
from live_court import PAGES, SPECTATORS, CourtHttp, Game, Table
from live_peers import Room, raise_open_files
from load_floor import FloorRun, measure_floor
from loop_peers import Loop, LoopPeer, LoopRoom, close_peers, in_every_room
from page_client import PagePeer
from placement import Placement, core_set, running_on
from profiling import profiled

from devtools.servers import CourtServer, court_servers
from tests.services import PostgresServer, RedisServer, postgres_bin

ROOMS = 200
ELECTIONS = 1  # complete elections each room plays while timed
SETUP_WORKERS = 16  # rooms set up at once over HTTP
OPEN_FILES = 16384
MB = 1024 * 1024
# Targets, against the floor and the peer measured in the same run: the rate and the p99 at
# TARGET_ROOMS rooms; the scale ratio where the machine has SCALE_CORES cores.
TARGET_ROOMS = 200
FLOOR_CPU_RATIO = 2.0  # one process's CPU per command over the floor's, at most
PEER_CPU_RATIO = 1.5  # one process's CPU per command over the peer's, at most
PEER_RATE_RATIO = 0.7  # one process's commands per second over the peer's, at least
PEER_P99_RATIO = 1.5  # one process's ack p99 over the peer's, at most
TWO_CPU_RATIO = 1.3  # two processes' CPU per command over one's on the same database, at most
BYTES_PER_PUSH_TARGET = 2048.0
SCALE_RATIO_TARGET = 1.6
SCALE_CORES = 4


@dataclass
class Run:
    """What one run measured."""

    acks: list[float] = field(default_factory=list)  # seconds from emit to ack
    wall: float = 0.0  # seconds from the start of the elections to the end of the last
    rss_growth: int = 0  # bytes, all servers together
    cpu: float = 0.0  # CPU seconds of the servers (every process) during the timed window
    client_cpu: float = 0.0  # CPU seconds of this process (the clients) in the same window
    pushes: int = 0  # pushes the pages received in the timed window
    push_bytes: int = 0  # their length
    page_cpu_ns: int = 0  # the CPU the pages spent reading them
    stale: int = 0  # view changes a page could not apply
    errors: list[str] = field(default_factory=list)


class LoadTable(Table):
    """A room whose peers live on the bench's loop and whose election commands are timed to
    their ack."""

    def __init__(self, http: CourtHttp, game: Game, loop: Loop) -> None:
        self.loop = loop
        self.loop_room = LoopRoom(PAGES)
        super().__init__(http, game, self.loop_room, SPECTATORS)

    def peer(self, room: Room, index: int, *, keep_records: bool = False) -> PagePeer:  # type: ignore[override]
        key = self.key_of(index)
        return PagePeer(self.loop, room, index, keep_records=keep_records, keys=self.keys, key=key)

    async def play_acked(self, acks: list[float]) -> None:
        if not self.moves:
            raise RuntimeError("no election is open")
        while self.moves:
            seat, event, payload = self.moves.popleft()
            peer: LoopPeer = self.seats[seat]  # type: ignore[assignment]
            await peer.pace()
            start = time.perf_counter()
            ack = await peer.call(event, payload)
            acks.append(time.perf_counter() - start)
            await self.loop_room.reach(int(ack["version"]))  # every seat has it first
            self._read_new()


def set_up(
    servers: Sequence[CourtServer], rooms: int, loop: Loop, keyed: bool = True
) -> list[LoadTable]:
    """`rooms` started games, each set up through the servers in turn, with its peers; each
    seat's page keys its device and signs its moves unless `keyed` is false."""

    def one(index: int) -> LoadTable:
        http = CourtHttp(servers[index % len(servers)].url, keyed=keyed)
        return LoadTable(http, http.start_game(), loop)

    with ThreadPoolExecutor(SETUP_WORKERS) as pool:
        return list(pool.map(one, range(rooms)))


def connect(servers: Sequence[CourtServer], tables: Sequence[LoadTable]) -> None:
    """Each room's seats alternate between the servers."""
    pairs = []
    for table in tables:
        for position, (peer, auth) in enumerate(table.auths()):
            url = servers[position % len(servers)].url
            pairs.append((peer, auth, url))
    with ThreadPoolExecutor(SETUP_WORKERS) as pool:
        for done in [pool.submit(peer.connect, url, auth) for peer, auth, url in pairs]:
            done.result()


def in_all_rooms(tables: Sequence[LoadTable], work, errors: list[str]) -> float:
    """`work(table)` in every room at once, one thread each; the wall seconds it took."""
    lock = threading.Lock()

    def guarded(table: LoadTable) -> None:
        try:
            work(table)
        except Exception as exc:  # counted and printed: the run reports errors > 0
            with lock:
                errors.append(f"game {table.game.id}: {exc}")

    start = time.perf_counter()
    with ThreadPoolExecutor(len(tables)) as pool:
        list(pool.map(guarded, tables))
    return time.perf_counter() - start


def on_the_loop(loop: Loop, tables: Sequence[LoadTable], pids: Sequence[int], run: Run) -> None:
    """Every room plays its open election at once on the loop; the timed wall seconds, the
    servers' and the clients' CPU seconds, each command's seconds to its ack and the errors
    are added to `run`."""
    samples: list[list[float]] = [[] for _ in tables]
    plays = [
        (f"game {t.game.id}", t.play_acked(acks)) for t, acks in zip(tables, samples, strict=True)
    ]
    pages: list[PagePeer] = [p for t in tables for p in t.peers]  # type: ignore[misc]
    before = _page_totals(pages)
    cpu_before, client_before = cpu_seconds(pids), time.process_time()
    run.wall += in_every_room(loop, plays, run.errors)
    run.cpu += cpu_seconds(pids) - cpu_before
    run.client_cpu += time.process_time() - client_before
    run.acks += [s for room in samples for s in room]
    after = _page_totals(pages)
    run.pushes += after[0] - before[0]
    run.push_bytes += after[1] - before[1]
    run.page_cpu_ns += after[2] - before[2]
    run.stale += after[3] - before[3]


def _page_totals(pages: Sequence[PagePeer]) -> tuple[int, int, int, int]:
    """The pushes every page received, their bytes, the CPU spent on them, the stale views."""
    return (
        sum(p.pushes for p in pages),
        sum(p.push_bytes for p in pages),
        sum(p.cpu_ns for p in pages),
        sum(p.stale + p.unchained + p.unbelieved for p in pages),
    )


def measure(
    servers: Sequence[CourtServer],
    rooms: int,
    elections: int,
    profile: Path | None = None,
    name: str = "load",
    keyed: bool = True,
) -> Run:
    run = Run()
    idle = sum(server.rss_bytes() for server in servers)
    loop = Loop()
    tables = set_up(servers, rooms, loop, keyed)
    peers = [peer for table in tables for peer in table.peers]
    try:
        connect(servers, tables)
        in_all_rooms(tables, lambda t: t.to_first_election(), run.errors)
        if run.errors:
            return run
        pids = [server.process.pid for server in servers if server.process is not None]
        for election in range(elections):
            if election:  # the next election's set-up over HTTP, not timed
                in_all_rooms(tables, lambda t: t.to_next_election(), run.errors)
            with profiled(pids, profile, f"{name}-{election + 1}"):
                on_the_loop(loop, tables, pids, run)
        run.rss_growth = sum(server.rss_bytes() for server in servers) - idle
        return run
    finally:
        close_peers(loop, peers)  # type: ignore[arg-type]
        loop.close()
        for table in tables:
            table.http.close()


def report(prefix: str, run: Run | FloorRun | PeerRun) -> float:
    """Print the run's lines; its commands per second."""
    rate = per_second(len(run.acks), run.wall) if run.acks else 0.0
    emit(f"{prefix}_commands", len(run.acks))
    emit(f"{prefix}_cmds_per_s", rate)
    if run.acks:
        emit(f"{prefix}_p50_ms", statistics.median(run.acks) * 1000, 2)
        emit(f"{prefix}_p99_ms", percentile(run.acks, 0.99) * 1000, 2)
        emit(f"{prefix}_cpu_ms_per_cmd", run.cpu * 1000 / len(run.acks), 3)
        emit(f"{prefix}_client_cpu_ms_per_cmd", run.client_cpu * 1000 / len(run.acks), 3)
    if isinstance(run, Run) and run.pushes:
        emit(f"{prefix}_bytes_per_push", run.push_bytes / run.pushes, 1)
        emit(f"{prefix}_page_cpu_ms_per_cmd", run.page_cpu_ns / 1e6 / run.pushes, 3)
        emit(f"{prefix}_stale_views", run.stale)
    return rate


def versions(pg: PostgresServer, redis: RedisServer) -> str:
    with pg.connect() as conn:
        pg_version = conn.execute("SHOW server_version").fetchone()[0]  # type: ignore[index]
    info = redis.command("INFO", "server").decode(errors="replace")
    redis_version = next(
        (
            line.split(":", 1)[1].strip()
            for line in info.splitlines()
            if line.startswith("redis_version:")
        ),
        "?",
    )
    return f"PostgreSQL {pg_version}, Redis {redis_version}"


def peer(rooms: int, elections: int, one: Run | None, cpus: str | None = None) -> PeerRun | None:
    """Print the peer's lines at the same room count, and its ratios to the court's one
    process (`one`, when it ran); the peer's run, None when it was skipped. The peer's
    process runs on the cores `cpus` names."""
    reason = harness()
    if reason is not None:
        emit("peer_skipped", reason)
        return None
    with (
        tempfile.TemporaryDirectory(prefix="bench-peer-") as folder,
        peer_server(Path(folder), cpus) as (url, pid),
    ):
        run = bgio_load(url, pid, rooms, elections)
    rate = report("peer", run)
    emit("peer_errors", len(run.errors))
    for error in run.errors[:10]:
        print(f"peer_error: {error}", flush=True)
    if one is not None and one.acks and run.acks:
        p99_ratio = percentile(one.acks, 0.99) / percentile(run.acks, 0.99)
        emit("one_proc_p99_vs_peer", p99_ratio, 3)
        emit("one_proc_cmds_per_s_vs_peer", per_second(len(one.acks), one.wall) / rate, 3)
        if run.cpu > 0:
            cpu_ratio = cpu_per_cmd(one) / cpu_per_cmd(run)  # type: ignore[operator]
            emit("one_proc_cpu_vs_peer", cpu_ratio, 3)
    return run


def peer_only(rooms: int, elections: int, placement: Placement) -> int:
    raise_open_files(OPEN_FILES)
    emit("rooms", rooms)
    emit("placement", placement.line())
    if placement.clients is not None:
        os.sched_setaffinity(0, core_set(placement.clients))
    run = peer(rooms, elections, None, placement.server(0))
    emit("machine", machine_line())
    return 1 if run is not None and run.errors else 0


# Each run of the court: its processes, and whether it runs on the default deployment
# (SQLite, no Redis) or on PostgreSQL and Redis.
RUNS = {"one_proc": (1, False), "pg_one_proc": (1, True), "two_proc": (2, True)}


def main() -> int:
    parser = argparse.ArgumentParser(description="Load bench of one and two server processes.")
    parser.add_argument("--rooms", type=int, default=ROOMS)
    parser.add_argument("--elections", type=int, default=ELECTIONS)
    parser.add_argument("--peer-only", action="store_true", help="only boardgame.io's part")
    parser.add_argument("--no-floor", action="store_true", help="skip the floor's run")
    parser.add_argument("--no-peer", action="store_true", help="skip boardgame.io's run")
    parser.add_argument(
        "--runs",
        choices=list(RUNS),
        nargs="+",
        default=list(RUNS),
        help="which runs of the court: one process on SQLite (one_proc), one (pg_one_proc) "
        "and two (two_proc) on PostgreSQL and Redis; all three by default",
    )
    parser.add_argument(
        "--profile", type=Path, help="py-spy flame graphs of the servers' timed window here"
    )
    parser.add_argument(
        "--unkeyed",
        action="store_true",
        help="the seats' pages key no device and sign nothing, as an API client plays",
    )
    parser.add_argument(
        "--cpus",
        nargs="+",
        default=[],
        metavar="CORES",
        help="the cores of each server process (taskset -c lists: --cpus 0 or --cpus 0 1); "
        "by default every server on the first core",
    )
    parser.add_argument(
        "--client-cpus", metavar="CORES", help="the cores of the bench's clients (the second)"
    )
    parser.add_argument(
        "--strict", action="store_true", help="exit 1 when a target is missed, not only on errors"
    )
    args = parser.parse_args()
    placement = Placement.of(args.cpus, args.client_cpus)
    if args.peer_only:
        return peer_only(args.rooms, args.elections, placement)
    raise_open_files(OPEN_FILES)
    emit("rooms", args.rooms)
    emit("sockets", args.rooms * PAGES)
    machine_cores = cores()  # before the bench's own process is pinned
    emit("cores", machine_cores)
    emit("placement", placement.line())
    if placement.clients is not None:
        # Every thread and process started from here on inherits it (the clients' loop);
        # the servers are started on theirs.
        os.sched_setaffinity(0, core_set(placement.clients))
    with tempfile.TemporaryDirectory(prefix="bench-load-") as folder:
        runs, machine = court_runs(args.runs, Path(folder), args, placement)
        floor = None
        if not args.no_floor and runs:
            bumps = max(1, len(next(iter(runs.values())).acks) // args.rooms)
            floor = measure_floor(Path(folder), args.rooms, bumps, placement.server(0))
    rates = {name: report(name, run) for name, run in runs.items()}
    scale = (
        rates["two_proc"] / rates["pg_one_proc"]
        if {"two_proc", "pg_one_proc"} <= set(rates)
        else None
    )
    if scale is not None:
        emit("scale_ratio", scale, 3)
    for name, run in runs.items():
        emit(f"{name}_rss_mb_per_room", run.rss_growth / MB / args.rooms, 3)
    if floor is not None:
        report("floor", floor)
    errors = [error for run in runs.values() for error in run.errors]
    emit("errors", len(errors))
    one = runs.get("one_proc")
    peer_run = None if args.no_peer else peer(args.rooms, args.elections, one, placement.server(0))
    if peer_run is not None and peer_run.errors:
        errors.append("the peer's moves failed")
    emit("load", load_line())
    emit("machine", machine)
    for error in errors[:10]:
        print(f"error: {error}", flush=True)
    missed = missed_targets(args.rooms, machine_cores, runs, scale, floor, peer_run)
    for name in ["errors"] * bool(errors) + missed:
        print(f"FAILED: {name}", flush=True)
    return 1 if errors or (missed and args.strict) else 0


def court_runs(
    names: Sequence[str], folder: Path, args: argparse.Namespace, placement: Placement
) -> tuple[dict[str, Run], str]:
    """The court's runs `names`, in RUNS' order: the default deployment first, then
    PostgreSQL and Redis (started on the servers' cores) when a run needs them; each run
    and the machine's line."""
    runs: dict[str, Run] = {}
    machine = machine_line()
    wanted = [name for name in RUNS if name in names]
    for name in [n for n in wanted if not RUNS[n][1]]:
        env = {"DATABASE_URL": f"sqlite:///{folder}/{name}.db", "REDIS_URL": ""}
        runs[name] = court_run(name, env, folder, args, placement)
    pg_runs = [n for n in wanted if RUNS[n][1]]
    if not pg_runs:
        return runs, machine
    pg_bin, redis_bin = postgres_bin(), shutil.which("redis-server")
    if pg_bin is None or redis_bin is None:
        reason = "needs PostgreSQL and redis-server (apt-get install postgresql redis-server)"
        emit("pg_skipped", reason)
        return runs, machine
    with running_on(placement.server(0)), contextlib.ExitStack() as servers:
        pg = servers.enter_context(PostgresServer.running(pg_bin))
        redis = servers.enter_context(RedisServer.running(redis_bin))
        servers_started = servers.pop_all()
    with servers_started:
        for name in pg_runs:
            env = {"DATABASE_URL": pg.new_database(name), "REDIS_URL": redis.url}
            runs[name] = court_run(name, env, folder, args, placement)
        machine = f"{machine}, {versions(pg, redis)}"
    return runs, machine


def court_run(
    name: str, env: dict[str, str], folder: Path, args: argparse.Namespace, placement: Placement
) -> Run:
    """One run of the court: its processes started with `env`, each on its cores."""
    processes = RUNS[name][0]
    env = {**env, "DEADLINES": "off", "RATE_LIMITS": "off"}  # every room plays from 127.0.0.1
    names = [f"{name}-{i}" for i in range(processes)]
    cpus = [placement.server(i) or "" for i in range(processes)]
    with court_servers(processes, env, folder, names=names, cpus=[c for c in cpus if c]) as servers:
        return measure(
            servers, args.rooms, args.elections, args.profile, name, keyed=not args.unkeyed
        )


def load_line() -> str:
    """The machine's load averages (1, 5, 15 minutes) as the run ends: others' work shows."""
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def cpu_per_cmd(run: Run | FloorRun | PeerRun | None) -> float | None:
    return run.cpu * 1000 / len(run.acks) if run is not None and run.acks else None


def rate_of(run: Run | PeerRun) -> float:
    return per_second(len(run.acks), run.wall)


def missed_targets(
    rooms: int,
    machine_cores: int,
    runs: dict[str, Run],
    scale: float | None,
    floor: FloorRun | None,
    peer_run: PeerRun | None,
) -> list[str]:
    """The targets the module's docstring lists that this run missed. Against the peer, the
    rate and the ack p99 are checked at TARGET_ROOMS rooms only; the scale ratio only on a
    machine with SCALE_CORES cores (two servers, the clients, PostgreSQL and Redis each need
    one)."""
    missed = []
    one = runs.get("one_proc")
    one_cpu, floor_cpu, peer_cpu = cpu_per_cmd(one), cpu_per_cmd(floor), cpu_per_cmd(peer_run)
    pg_cpu, two_cpu = cpu_per_cmd(runs.get("pg_one_proc")), cpu_per_cmd(runs.get("two_proc"))
    if one_cpu is not None and floor_cpu is not None and one_cpu > FLOOR_CPU_RATIO * floor_cpu:
        missed.append("one_proc_cpu_ms_per_cmd (vs floor)")
    if one_cpu is not None and peer_cpu is not None and one_cpu > PEER_CPU_RATIO * peer_cpu:
        missed.append("one_proc_cpu_ms_per_cmd (vs peer)")
    if pg_cpu is not None and two_cpu is not None and two_cpu > TWO_CPU_RATIO * pg_cpu:
        missed.append("two_proc_cpu_ms_per_cmd")
    for name, run in runs.items():
        if run.pushes and run.push_bytes / run.pushes > BYTES_PER_PUSH_TARGET:
            missed.append(f"{name}_bytes_per_push")
    if one is not None and one.acks and peer_run is not None and peer_run.acks:
        if rooms >= TARGET_ROOMS:
            if rate_of(one) < PEER_RATE_RATIO * rate_of(peer_run):
                missed.append("one_proc_cmds_per_s (vs peer)")
            if percentile(one.acks, 0.99) > PEER_P99_RATIO * percentile(peer_run.acks, 0.99):
                missed.append("one_proc_p99_ms (vs peer)")
        else:
            emit("load_targets", f"rate and p99 against the peer checked at {TARGET_ROOMS} rooms")
    if scale is None:
        pass
    elif machine_cores >= SCALE_CORES:
        if scale < SCALE_RATIO_TARGET:
            missed.append("scale_ratio")
    else:
        emit(
            "scale_target",
            f"not checked: {machine_cores} cores, the two processes need {SCALE_CORES}",
        )
    return missed


if __name__ == "__main__":
    sys.exit(main())
