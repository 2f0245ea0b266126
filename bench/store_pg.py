"""Bench of the event store on PostgreSQL, against plain psycopg on the same server in the same
run, the two taking turns: a commit waits for a disk flush, and flushes on a shared machine
speed up and slow down from one second to the next.

Run from the repo root: `.venv/bin/python bench/store_pg.py`. Starts a throwaway cluster
(tests/services.py: a temporary folder, 127.0.0.1, durable default settings), prints
`pg_<name>: value` lines like bench/store.py and a `machine:` line, and exits 1 with
`FAILED: <name>` lines when a target is missed. Without PostgreSQL's binaries it prints
`pg_skipped: ...` and exits 0.

`pg_parallel_*` show what the commit-order lock costs: four writers appending to games of
their own through the store (one append commits at a time) against four plain psycopg
writers on a table without the commit-order trigger (commits overlap).
"""

from __future__ import annotations

import statistics
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

import psycopg
from common import decode_rows, emit, machine_line, per_second  # repo root on sys.path
from court_games import Game, gold_records, service_on, start_game
from store import (
    APPEND_SECONDS,
    REPEATS,
    REPLAY_EVENTS,
    WARMUP_COMMANDS,
    bench_current,
    build_long_game,
    cold_replay,
    service_appends,
)

from court.commands import Actor
from court.ids import HouseId, Seat
from court.log.chain import GENESIS, Record, canonical
from server.store.sql import SqlEventStore
from tests.services import PostgresServer, postgres_bin

APPEND_RATIO_TARGET = 0.25
REPLAY_RATIO_TARGET = 0.30
CURRENT_MS_TARGET = 5.0
APPEND_SLICES = 8  # turns the service and the floor take at appending
PARALLEL_WRITERS = 4
PARALLEL_SECONDS = 3.0

_COLUMNS = (
    "game_id, version, type, schema_version, recorded_at, seat, data, private, private_sha256, hash"
)
_INSERT = f"INSERT INTO event_records ({_COLUMNS}) VALUES ({', '.join(['%s'] * 10)})"
_SELECT_GAME = f"SELECT position, {_COLUMNS} FROM event_records WHERE game_id = %s ORDER BY version"

Row = tuple[Any, ...]


def database(server: PostgresServer, name: str) -> tuple[str, str]:
    """(URL, database name) of a new database migrated like the server's own."""
    url = server.new_database(name)
    store = SqlEventStore(url)
    store.create_schema()
    store.close()
    return url, url.rsplit("/", 1)[1]


def stored_rows(server: PostgresServer, dbname: str, game_id: str) -> list[Row]:
    with server.connect(dbname) as conn:
        return conn.execute(
            f"SELECT {_COLUMNS} FROM event_records WHERE game_id = %s ORDER BY version", (game_id,)
        ).fetchall()


def raw_appends(conn: psycopg.Connection[Any], batches: list[list[Row]]) -> float:
    """Seconds plain psycopg takes to insert `batches`, one transaction each."""
    start = time.perf_counter()
    for batch in batches:
        with conn.cursor() as cursor:
            cursor.executemany(_INSERT, batch)
        conn.commit()
    return time.perf_counter() - start


def bench_appends(server: PostgresServer) -> bool:
    """Service and floor take turns (APPEND_SLICES of each), so that a disk whose flushes
    speed up or slow down during the run weighs on both alike."""
    url, dbname = database(server, "append")
    _, raw_dbname = database(server, "raw")
    count, seconds, raw_seconds = 0, 0.0, 0.0
    with service_on(url) as service, server.connect(raw_dbname) as raw:
        game = start_game(service)
        for index in range(APPEND_SLICES):
            appended = service_appends(
                service, game, APPEND_SECONDS / APPEND_SLICES, WARMUP_COMMANDS if index == 0 else 0
            )
            before, batches = appended.split(stored_rows(server, dbname, game.game_id))
            if index == 0:  # the floor's table starts as large as the service's
                raw_appends(raw, [before])
            raw_seconds += raw_appends(raw, batches)
            count, seconds = count + len(batches), seconds + appended.seconds
    rate = per_second(count, seconds)
    emit("pg_append_per_s", rate)
    raw_rate = per_second(count, raw_seconds)
    emit("pg_raw_append_per_s", raw_rate)
    ratio = rate / raw_rate
    emit("pg_append_ratio", ratio, 3)
    return ratio >= APPEND_RATIO_TARGET


def raw_read(server: PostgresServer, dbname: str, game_id: str) -> float:
    with server.connect(dbname) as conn:
        start = time.perf_counter()
        count = decode_rows(conn.execute(_SELECT_GAME, (game_id,)))
        seconds = time.perf_counter() - start
    if count != REPLAY_EVENTS:
        raise RuntimeError(f"read {count} rows, expected {REPLAY_EVENTS}")
    return seconds


def bench_replays(server: PostgresServer) -> tuple[bool, bool]:
    url, dbname = database(server, "replay")
    game_id = build_long_game(url, REPLAY_EVENTS)
    replays, reads = [], []
    for _ in range(REPEATS):  # in turns, as the appends
        replays.append(cold_replay(url, game_id, REPLAY_EVENTS))
        reads.append(raw_read(server, dbname, game_id))
    replay_rate = per_second(REPLAY_EVENTS, statistics.median(replays))
    emit("pg_replay_per_s", replay_rate)
    read_rate = per_second(REPLAY_EVENTS, statistics.median(reads))
    emit("pg_raw_read_per_s", read_rate)
    ratio = replay_rate / read_rate
    emit("pg_replay_ratio", ratio, 3)
    return ratio >= REPLAY_RATIO_TARGET, bench_current(url, game_id, prefix="pg_")


def in_parallel(write: Callable[[int, float], int]) -> float:
    """Appends per second of PARALLEL_WRITERS threads each running write(index, deadline)."""
    counts = [0] * PARALLEL_WRITERS
    start = time.perf_counter()
    deadline = start + PARALLEL_SECONDS

    def run(index: int) -> None:
        counts[index] = write(index, deadline)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(PARALLEL_WRITERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return per_second(sum(counts), time.perf_counter() - start)


def chained(game_id: str, head: tuple[int, str]) -> Record:
    """The record after `head` of a game of its own: a GoldAdjusted, as the service writes."""
    game = Game(game_id, Actor(seat=Seat(0), host=True), HouseId("stark"))
    [record] = gold_records(game, head[0], head[1], 1)
    return record


def bench_parallel(server: PostgresServer) -> None:
    url, _ = database(server, "parallel")
    store = SqlEventStore(url)

    def through_store(index: int, deadline: float) -> int:
        head, count = (0, GENESIS), 0
        while time.perf_counter() < deadline:
            record = chained(f"p{index}", head)
            store.append([record], head[0])
            head, count = (record.version, record.hash), count + 1
        return count

    rate = in_parallel(through_store)
    store.close()
    emit("pg_parallel_append_per_s", rate)

    _, dbname = database(server, "unordered")
    with server.connect(dbname, autocommit=True) as conn:
        conn.execute("DROP TRIGGER event_records_commit_order ON event_records")

    def plain(index: int, deadline: float) -> int:
        head, count = (0, GENESIS), 0
        with server.connect(dbname) as conn:
            while time.perf_counter() < deadline:
                r = chained(f"p{index}", head)
                conn.execute(_INSERT, _row(r))
                conn.commit()
                head, count = (r.version, r.hash), count + 1
        return count

    raw_rate = in_parallel(plain)
    emit("pg_unordered_parallel_append_per_s", raw_rate)
    emit("pg_parallel_ratio", rate / raw_rate, 3)


def _row(r: Record) -> Row:
    private = None if r.private is None else canonical(r.private)
    return (
        r.game_id, r.version, r.type, r.schema_version, r.recorded_at, r.seat,
        canonical(r.data), private, r.private_sha256, r.hash,
    )  # fmt: skip


def main() -> int:
    folder = postgres_bin()
    if folder is None:
        emit("pg_skipped", "no initdb and pg_ctl (apt-get install postgresql)")
        return 0
    with PostgresServer.running(folder) as server:
        met = {"pg_append_ratio": bench_appends(server)}
        met["pg_replay_ratio"], met["pg_current_state_ms"] = bench_replays(server)
        bench_parallel(server)
        with server.connect() as conn:
            version = conn.execute("SHOW server_version").fetchone()[0]  # type: ignore[index]
    emit("machine", f"{machine_line()}, PostgreSQL {version}, psycopg {psycopg.__version__}")
    failed = [name for name, ok in met.items() if not ok]
    for name in failed:
        print(f"FAILED: {name}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
