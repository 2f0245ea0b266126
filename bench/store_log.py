"""Bench of what a long log costs, at 100,000 and 1,000,000 events (bench/store.py runs it).

Run from the repo root: `.venv/bin/python bench/store_log.py [--sizes 100000,1000000]`. For
each size it builds a started game of that many events (GoldAdjusted records chained by
court/log/records.py and inserted in batches, with the snapshots a server would have kept while
the game was played), then prints `name_<size>: value` lines:
- state_at_ms, history_page_ms: the court at a random old version, and a 200-record page of
  the history told as /history tells it, each on a brand-new service (the median of 10);
- verify_full_s: the deep check from version 1; verify_so_far_ms: the check so far after
  250 more events (the records after the checkpoint the full check left);
- export_s, export_rss_mb: GET /export streamed to a file by a process serving the app, and
  that process's peak RSS; import_s, import_rss_mb: `flask court import` of that file into a
  new database, and that process's peak RSS.
Exits 1 with `FAILED: <name>` lines when a target is missed. Files live in a temporary
directory removed at the end.
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from common import emit, timed, verdict  # repo root on sys.path
from court_games import HOUSES, Game, gold_records, keys_for, service_on, start_game

from app import create_app
from court.commands import SPECTATOR
from court.evolve import evolve
from court.ids import HouseId
from server.messages.views import observe
from server.service.court_service import SNAPSHOT_EVERY, CourtService
from server.service.replay import Head
from server.store.rows import Batch, Kept
from server.store.sql import SqlEventStore

SIZES = (100_000, 1_000_000)
BATCH = 1000  # records a batch while building
CALLS = 10  # brand-new services timed for the state and the history page
PAGE = 200  # records in the history page
LATER = 250  # events appended after the full check, for the check so far
REQUEST_MS_TARGET = 50.0  # the state and the history page, at every size
SO_FAR_MS_TARGET = 100.0  # the check so far of LATER events, at every size
RSS_MB_TARGET = 200.0  # the peak RSS of the exporting and of the importing process


def label(size: int) -> str:
    return f"{size // 1_000_000}m" if size % 1_000_000 == 0 else f"{size // 1000}k"


def _batches(service: CourtService, game: Game, events: int) -> Iterator[Batch]:
    """Batches of gold records up to `events`, with a snapshot every SNAPSHOT_EVERY versions.
    The treasury moves +1, -1, ... so the court is one of two states: each is encoded once."""
    head = service.current(game.game_id)
    version, last = head.version, head.hash
    first = gold_records(game, version, last, 1)[0]
    states = {version % 2: head.state}
    states[(version + 1) % 2] = evolve(head.state, service.decode(first))
    encoded: dict[int, Kept] = {}
    while version < events:
        records = gold_records(game, version, last, min(BATCH, events - version))
        kept = []
        for record in records:
            if record.version % SNAPSHOT_EVERY == 0:
                parity = record.version % 2
                if parity not in encoded:
                    found = service.replay.snapshot_of(
                        game.game_id, Head(record.version, record.hash, states[parity])
                    )
                    assert found is not None
                    encoded[parity] = found
                moved = encoded[parity]._replace(version=record.version, hash=record.hash)
                kept.append(service.replay.seal(moved))
        yield records, kept
        version, last = records[-1].version, records[-1].hash


def build(url: str, events: int) -> str:
    """A started game of `events` events at `url`; checked against a fold from the start."""
    with service_on(url) as service:
        game = start_game(service)
        service.store.append_batches(_batches(service, game, events))
        middle = min(events, 5 * SNAPSHOT_EVERY + 7)
        folded = CourtService(service.store, snapshot_every=0).state_at(game.game_id, middle)
        snapshots = CourtService(service.store, keys=service.keys)
        if snapshots.state_at(game.game_id, middle) != folded:
            raise RuntimeError("a snapshot built by the bench differs from the fold")
    return game.game_id


def requests(url: str, game_id: str, events: int, suffix: str) -> dict[str, bool]:
    """state_at_ms, history_page_ms, verify_full_s and verify_so_far_ms."""
    rng = random.Random(events)
    store = SqlEventStore(url)
    try:

        def state_at() -> float:
            version = rng.randrange(1, events // 2)
            return timed(lambda: CourtService(store, keys=keys_for(url)).state_at(game_id, version))

        def history_page() -> float:
            after = rng.randrange(0, events - PAGE)
            service = CourtService(store, keys=keys_for(url))

            def told() -> object:
                observer = observe(SPECTATOR, service.current(game_id).state)
                page = service.told(game_id, after=after, limit=PAGE)
                return [observer.entry(record, state) for record, state in page]

            return timed(told)

        state_ms = statistics.median(state_at() for _ in range(CALLS)) * 1000
        page_ms = statistics.median(history_page() for _ in range(CALLS)) * 1000
        emit(f"state_at_ms_{suffix}", state_ms, 2)
        emit(f"history_page_ms_{suffix}", page_ms, 2)
        so_far_ms = verifies(store, game_id, suffix)
    finally:
        store.close()
    return {
        f"state_at_ms_{suffix}": state_ms < REQUEST_MS_TARGET,
        f"history_page_ms_{suffix}": page_ms < REQUEST_MS_TARGET,
        f"verify_so_far_ms_{suffix}": so_far_ms < SO_FAR_MS_TARGET,
    }


def verifies(store: SqlEventStore, game_id: str, suffix: str) -> float:
    """Print verify_full_s, then verify_so_far_ms after LATER more events; the latter."""
    service = CourtService(store, keys=keys_for(store.url))
    start = time.perf_counter()
    full = service.verify(game_id)
    emit(f"verify_full_s_{suffix}", time.perf_counter() - start, 1)
    head = service.current(game_id)
    game = Game(game_id, SPECTATOR, HouseId(HOUSES[0]))
    store.append(gold_records(game, head.version, head.hash, LATER), head.version)
    start = time.perf_counter()
    so_far = service.verify_so_far(game_id)
    so_far_ms = (time.perf_counter() - start) * 1000
    emit(f"verify_so_far_ms_{suffix}", so_far_ms, 2)
    if not (full.ok and so_far.ok and so_far.since == full.records):
        raise RuntimeError(f"the checks did not pass as expected: {full} {so_far}")
    return so_far_ms


def child(argv: list[str]) -> None:
    """In a process of its own: `export URL GAME FILE` or `import URL FILE`; prints the
    seconds it took and the process's peak RSS in MB."""
    url, rest = argv[1], argv[2:]
    app = create_app({"DATABASE_URL": url, "DEADLINES": False})
    start = time.perf_counter()
    if argv[0] == "export":
        response = app.test_client().get(f"/api/games/{rest[0]}/export", buffered=False)
        with open(rest[1], "wb") as out:
            for chunk in response.response:
                out.write(chunk)
    else:
        result = app.test_cli_runner().invoke(args=["court", "import", rest[0]])
        if result.exit_code != 0:
            raise RuntimeError(result.output)
    seconds = time.perf_counter() - start
    app.extensions["court_store"].close()
    print(seconds, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)


def moved(tmp: Path, url: str, game_id: str, suffix: str) -> dict[str, bool]:
    """export_s, export_rss_mb, import_s and import_rss_mb, each in a process of its own."""
    path = tmp / f"{game_id}.jsonl"
    met = {}
    for name, args in (
        ("export", [url, game_id, str(path)]),
        ("import", [f"sqlite:///{tmp / f'imported-{suffix}.db'}", str(path)]),
    ):
        out = subprocess.run(
            [sys.executable, __file__, "--child", name, *args],
            capture_output=True,
            text=True,
            check=True,
        )
        seconds, rss = (float(v) for v in out.stdout.split()[-2:])
        emit(f"{name}_s_{suffix}", seconds, 1)
        emit(f"{name}_rss_mb_{suffix}", rss, 0)
        met[f"{name}_rss_mb_{suffix}"] = rss < RSS_MB_TARGET
    emit(f"export_mb_{suffix}", path.stat().st_size / 1e6, 0)
    path.unlink()
    return met


def bench(tmp: Path, sizes: tuple[int, ...] = SIZES) -> dict[str, bool]:
    """Every measure above at every size; which targets were met."""
    met: dict[str, bool] = {}
    for size in sizes:
        suffix = label(size)
        path = tmp / f"log-{suffix}.db"
        url = f"sqlite:///{path}"
        start = time.perf_counter()
        game_id = build(url, size)
        emit(f"build_s_{suffix}", time.perf_counter() - start, 1)
        met |= requests(url, game_id, size, suffix)
        met |= moved(tmp, url, game_id, suffix)
        for leftover in tmp.glob("*.db*"):
            leftover.unlink()
    return met


def main() -> int:
    if sys.argv[1:2] == ["--child"]:
        child(sys.argv[2:])
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=",".join(str(s) for s in SIZES))
    sizes = tuple(int(s) for s in parser.parse_args().sizes.split(","))
    with tempfile.TemporaryDirectory(prefix="bench-log-") as folder:
        met = bench(Path(folder), sizes)
    return verdict(met)


if __name__ == "__main__":
    sys.exit(main())
