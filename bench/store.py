"""Bench of the event store through the real CourtService, against plain `sqlite3`.

Run from the repo root: `.venv/bin/python bench/store.py`. Prints `name: value`
lines (appends and replays per second, their ratios to plain sqlite3, the
latency of a warm current court, of a middle version and of the last history page
of a 100,000-event game read cold; then bench/store_log.py's costs of a log of 100,000
and of 1,000,000 events) and a `machine:` line; exits 1 with
`FAILED: <name>` lines when a target is missed. Every file lives in a
temporary directory removed at the end.
"""

from __future__ import annotations

import itertools
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import store_log
from common import (  # repo root on sys.path
    decode_rows,
    emit,
    machine_line,
    median_ms,
    per_second,
    timed,
    verdict,
)
from court_games import Game, gold_records, keys_for, service_on, start_game

from court.commands import SPECTATOR, AdjustGold
from server.messages.views import court_of, observe
from server.service.court_service import CourtService
from server.store.sql import SqlEventStore

APPEND_SECONDS = 8.0  # how long the service appends for, over all its runs
WARMUP_COMMANDS = 50  # untimed appends before the clock starts
REPLAY_EVENTS = 100_000  # events in the game rebuilt from disk
BUILD_BATCH = 1000  # records per store.append while building that game
REPEATS = 5  # pairs of runs (service and floor) for appends and for replays; medians count
CURRENT_CALLS = 200  # calls timed for the warm current court

APPEND_RATIO_TARGET = 0.30
REPLAY_RATIO_TARGET = 0.30
CURRENT_MS_TARGET = 5.0
HISTORY_PAGE = 200  # records in the history page read at the end of the long game
LATE_CALLS = 20  # brand-new services timed for the middle version and the last page
LATE_MS_TARGET = 20.0

_ROW_COLUMNS = (
    "game_id, version, type, schema_version, recorded_at, seat, data, private, private_sha256, hash"
)
_INSERT = f"INSERT INTO event_records ({_ROW_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
_SELECT_GAME = (
    f"SELECT position, {_ROW_COLUMNS} FROM event_records WHERE game_id = ? ORDER BY version"
)

Row = tuple[Any, ...]


# -- setup -------------------------------------------------------------------


def raw_connect(path: Path) -> sqlite3.Connection:
    """A plain sqlite3 connection with the store's default PRAGMAs, in autocommit mode."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute("PRAGMA busy_timeout=5000")
    return conn


def copy_schema(source: Path, target: Path) -> sqlite3.Connection:
    """A fresh database at `target` with the tables, indexes and triggers of `source`."""
    with closing(sqlite3.connect(source)) as src:
        statements = [
            sql
            for (sql,) in src.execute(
                "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL "
                "AND name NOT LIKE 'sqlite_%' ORDER BY rowid"
            )
        ]
    conn = raw_connect(target)
    for sql in statements:
        conn.execute(sql)
    return conn


def stored_rows(path: Path, game_id: str) -> list[Row]:
    """The rows of a game's log as stored, in version order, without the position."""
    with closing(sqlite3.connect(path)) as conn:
        return conn.execute(
            f"SELECT {_ROW_COLUMNS} FROM event_records WHERE game_id = ? ORDER BY version",
            (game_id,),
        ).fetchall()


# -- appends -----------------------------------------------------------------


def adjustments(game: Game) -> Iterator[AdjustGold]:
    """+1, -1, +1, ... so the treasury never goes below its start."""
    amount = 1
    while True:
        yield AdjustGold(house=game.house, amount=amount, cause="bench")
        amount = -amount


@dataclass(frozen=True, slots=True)
class Appended:
    """Timed commands: the version before the first, the version after each, the seconds."""

    start: int
    ends: list[int]
    seconds: float

    def split(self, rows: list[Row]) -> tuple[list[Row], list[list[Row]]]:
        """A game's rows (in version order) as those written before the timed commands, and
        the rows each timed command appended (one transaction each)."""
        bounds = [self.start, *self.ends]
        return rows[: self.start], [rows[a:b] for a, b in itertools.pairwise(bounds)]


def service_appends(
    service: CourtService,
    game: Game,
    seconds: float = APPEND_SECONDS,
    warmup: int = WARMUP_COMMANDS,
) -> Appended:
    """AdjustGold commands for `seconds`, each appending its events in one transaction."""
    commands = adjustments(game)
    for _ in range(warmup):
        service.handle(game.game_id, next(commands), game.host)
    ends: list[int] = []
    first = service.current(game.game_id).version
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        ends.append(service.handle(game.game_id, next(commands), game.host).version)
        now = time.perf_counter()
        if now >= deadline:
            return Appended(first, ends, now - start)


def raw_appends(source: Path, target: Path, before: list[Row], batches: list[list[Row]]) -> float:
    """Seconds plain sqlite3 takes to insert `batches`, one transaction each.

    The rows written before the timed ones go in first, untimed, so both runs
    append to a table of the same size.
    """
    conn = copy_schema(source, target)
    try:
        conn.execute("BEGIN")
        conn.executemany(_INSERT, before)
        conn.execute("COMMIT")
        start = time.perf_counter()
        for batch in batches:
            conn.execute("BEGIN")
            conn.executemany(_INSERT, batch)
            conn.execute("COMMIT")
        return time.perf_counter() - start
    finally:
        conn.close()


def bench_appends(tmp: Path) -> bool:
    """Print append_per_s, raw_append_per_s and append_ratio; True when the target is met.

    The service and the floor take turns (REPEATS pairs, each on a new file), so that both
    meet the same moment of the machine; the ratio is the median of the pairs' ratios."""
    rates: list[float] = []
    raw_rates: list[float] = []
    ratios: list[float] = []
    for i in range(REPEATS):
        path = tmp / f"append-{i}.db"
        with service_on(f"sqlite:///{path}") as service:
            game = start_game(service)
            appended = service_appends(service, game, APPEND_SECONDS / REPEATS)
        count = len(appended.ends)
        before, batches = appended.split(stored_rows(path, game.game_id))
        raw_seconds = raw_appends(path, tmp / f"raw-append-{i}.db", before, batches)
        rates.append(per_second(count, appended.seconds))
        raw_rates.append(per_second(count, raw_seconds))
        ratios.append(rates[-1] / raw_rates[-1])
    emit("append_per_s", statistics.median(rates))
    emit("raw_append_per_s", statistics.median(raw_rates))
    ratio = statistics.median(ratios)
    emit("append_ratio", ratio, 3)
    return ratio >= APPEND_RATIO_TARGET


# -- replays -----------------------------------------------------------------


def build_long_game(url: str, events: int) -> str:
    """A started game with `events` events in all at `url`, appended in batches, then read
    once by a service, which keeps its snapshots as it would have while the game was played."""
    with service_on(url) as service:
        game = start_game(service)
        head = service.current(game.game_id)
        version, last = head.version, head.hash
        while version < events:
            batch = gold_records(game, version, last, min(BUILD_BATCH, events - version))
            service.store.append(batch, version)
            version, last = batch[-1].version, batch[-1].hash
        service.current(game.game_id)
    return game.game_id


def cold_replay(url: str, game_id: str, events: int) -> float:
    """Seconds a brand-new service and store take to rebuild the court from the first event
    (snapshots off: the whole fold)."""
    with service_on(url, snapshot_every=0) as service:
        seconds = timed(lambda: service.current(game_id))
        version = service.current(game_id).version
    if version != events:
        raise RuntimeError(f"replayed {version} events, expected {events}")
    return seconds


def raw_read(path: Path, game_id: str, events: int) -> float:
    """Seconds plain sqlite3 takes to read a game's rows and decode their JSON columns."""
    conn = raw_connect(path)
    try:
        start = time.perf_counter()
        count = decode_rows(conn.execute(_SELECT_GAME, (game_id,)))
        seconds = time.perf_counter() - start
    finally:
        conn.close()
    if count != events:
        raise RuntimeError(f"read {count} rows, expected {events}")
    return seconds


def bench_current(url: str, game_id: str, prefix: str = "") -> bool:
    """Print current_state_ms and current_view_ms; True when the target is met."""
    with service_on(url) as service:
        service.current(game_id)
        state_ms = median_ms(lambda: service.current(game_id), CURRENT_CALLS)
        emit(f"{prefix}current_state_ms", state_ms, 3)

        def current_view() -> object:
            head = service.current(game_id)
            return court_of(SPECTATOR, head)

        emit(f"{prefix}current_view_ms", median_ms(current_view, CURRENT_CALLS), 3)
    return state_ms < CURRENT_MS_TARGET


def bench_replays(path: Path, game_id: str) -> bool:
    """Print replay_per_s, raw_read_per_s and replay_ratio; True when the target is met.

    Cold replays and raw reads take turns; the ratio is the median of the pairs' ratios."""
    url = f"sqlite:///{path}"
    pairs = [
        (cold_replay(url, game_id, REPLAY_EVENTS), raw_read(path, game_id, REPLAY_EVENTS))
        for _ in range(REPEATS)
    ]
    emit("replay_per_s", per_second(REPLAY_EVENTS, statistics.median(r for r, _ in pairs)))
    emit("raw_read_per_s", per_second(REPLAY_EVENTS, statistics.median(w for _, w in pairs)))
    ratio = statistics.median(w / r for r, w in pairs)
    emit("replay_ratio", ratio, 3)
    return ratio >= REPLAY_RATIO_TARGET


def bench_late_reads(url: str, game_id: str) -> bool:
    """Print version_n_ms (the court at the middle version of the long game) and
    history_page_ms (the last page of its history, as the route tells it), each read by a
    brand-new service (nothing cached: the snapshots on disk are all it has); True when both
    targets are met."""
    middle, page = REPLAY_EVENTS // 2, HISTORY_PAGE
    store = SqlEventStore(url)

    def version_n() -> object:
        return CourtService(store, keys=keys_for(url)).state_at(game_id, middle)

    def history_page() -> object:
        service = CourtService(store, keys=keys_for(url))
        observer = observe(SPECTATOR, service.current(game_id).state)
        told = service.told(game_id, after=REPLAY_EVENTS - page, limit=page)
        if len(told) != page:
            raise RuntimeError(f"a page of {len(told)} records, expected {page}")
        return [observer.entry(record, state) for record, state in told]

    try:
        version_ms = median_ms(version_n, LATE_CALLS)
        history_ms = median_ms(history_page, LATE_CALLS)
    finally:
        store.close()
    emit("version_n_ms", version_ms, 2)
    emit("history_page_ms", history_ms, 2)
    return version_ms < LATE_MS_TARGET and history_ms < LATE_MS_TARGET


# -- main --------------------------------------------------------------------


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="bench-store-") as folder:
        tmp = Path(folder)
        met = {"append_ratio": bench_appends(tmp)}
        path = tmp / "replay.db"
        game_id = build_long_game(f"sqlite:///{path}", REPLAY_EVENTS)
        met["replay_ratio"] = bench_replays(path, game_id)
        met["current_state_ms"] = bench_current(f"sqlite:///{path}", game_id)
        met["late_reads_ms"] = bench_late_reads(f"sqlite:///{path}", game_id)
        path.unlink()
        met |= store_log.bench(tmp)
    emit("machine", machine_line())
    return verdict(met)


if __name__ == "__main__":
    sys.exit(main())
