"""Writers racing on one database: exactly one wins each version of a game, and a reader paging
through every game by global position sees each record once, in order, never skipping one."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

import pytest

from court.errors import ConcurrencyError
from court.log.chain import GENESIS, verify
from server.store.sql import SqlEventStore
from tests.server.store.conftest import NewDatabase
from tests.server.store.records import COLUMNS, chain, row
from tests.services import PostgresServer

# Writers on SQLite and PostgreSQL themselves.
pytestmark = pytest.mark.sql

WRITERS = 6
ROUNDS = 12
WAIT = 30.0  # seconds a thread may wait at a barrier or to finish


def run_threads(target: Callable[[int], None], count: int) -> None:
    """Run target(0..count-1) in threads; re-raise the first error any of them hit."""
    errors: list[BaseException] = []

    def guarded(index: int) -> None:
        try:
            target(index)
        except BaseException as exc:
            errors.append(exc)
            raise

    threads = [threading.Thread(target=guarded, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(WAIT)
    assert not any(t.is_alive() for t in threads), "a thread did not finish"
    if errors:
        raise errors[0]


def test_exactly_one_of_several_writers_wins_each_version(
    new_database: NewDatabase, caplog: pytest.LogCaptureFixture
) -> None:
    """Each round every writer appends the next versions of one game (1 or 2 records) from the
    same head; the log ends gap-free, holding each round's winner's batch whole. A lost race
    is an answer, not a fault: nothing is logged as a warning."""
    url = new_database()
    stores = [SqlEventStore(url) for _ in range(WRITERS)]
    stores[0].create_schema()
    barrier = threading.Barrier(WRITERS, timeout=WAIT)
    outcomes: list[tuple[int, int, bool]] = []  # (round, writer, won)

    def writer(index: int) -> None:
        store = stores[index]
        for round_ in range(ROUNDS):
            barrier.wait()  # every writer has seen the previous round's head
            head = store.head("g") or (0, GENESIS)
            batch = chain("g", 1 + round_ % 2, after=head, writer=index)
            barrier.wait()
            try:
                store.append(batch, head[0])
                outcomes.append((round_, index, True))
            except ConcurrencyError:
                outcomes.append((round_, index, False))

    try:
        run_threads(writer, WRITERS)
        winners = {r: i for r, i, won in outcomes if won}
        assert len(outcomes) == ROUNDS * WRITERS
        assert sorted(r for r, _, won in outcomes if won) == list(range(ROUNDS))
        log = list(stores[0].read("g"))
        expected = [winners[r] for r in range(ROUNDS) for _ in range(1 + r % 2)]
        assert [r.data["writer"] for r in log] == expected
        assert [r.version for r in log] == list(range(1, len(expected) + 1))
        assert verify(log).ok
        positions = [r.position for r in log]
        assert positions == sorted(positions) and len(set(positions)) == len(positions)
        assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []
    finally:
        for store in stores:
            store.close()


def test_a_reader_paging_by_position_sees_every_record_once_and_in_order(
    new_database: NewDatabase,
) -> None:
    """Writers append to games of their own while a reader pages with `after` = the last
    position it saw; at the end it has seen every stored record, none twice."""
    url = new_database()
    writers = [SqlEventStore(url) for _ in range(4)]
    writers[0].create_schema()
    reader = SqlEventStore(url)
    done = threading.Event()
    seen: list[tuple[int, str, int]] = []

    def write(index: int) -> None:
        head = (0, GENESIS)
        for n in range(40):
            batch = chain(f"game-{index}", 1 + n % 3, after=head)
            writers[index].append(batch, head[0])
            head = (batch[-1].version, batch[-1].hash)

    def read() -> None:
        last = 0
        while True:
            finished = done.is_set()  # read once more after the writers stop
            page = reader.read_all(after=last, limit=7)
            seen.extend((r.position, r.game_id, r.version) for r in page)
            last = page[-1].position if page else last
            if finished and not page:
                return

    paging = threading.Thread(target=read)
    paging.start()
    try:
        run_threads(write, len(writers))
    finally:
        done.set()
        paging.join(WAIT)
    try:
        assert not paging.is_alive()
        stored = [(r.position, r.game_id, r.version) for r in reader.read_all(limit=100_000)]
        assert len(stored) == 4 * sum(1 + n % 3 for n in range(40))
        assert seen == stored
        for index in range(4):
            versions = [v for _, g, v in seen if g == f"game-{index}"]
            assert versions == list(range(1, len(versions) + 1))
    finally:
        for store in (*writers, reader):
            store.close()


def test_postgresql_draws_positions_only_after_earlier_appends_commit(
    postgres: PostgresServer,
) -> None:
    """An append left open holds the commit-order lock: a later append waits for it, so a
    reader never sees the later record (with the higher position) without the earlier one."""
    url = postgres.new_database()
    store = SqlEventStore(url)
    store.create_schema()
    slow = postgres.connect(url.rsplit("/", 1)[1])
    appended = threading.Event()
    try:
        [early] = chain("early", 1)
        slow.execute(
            f"INSERT INTO event_records ({COLUMNS}) VALUES ({', '.join(['%s'] * 10)})", row(early)
        )
        fast = threading.Thread(target=lambda: (store.append(chain("late", 1), 0), appended.set()))
        fast.start()
        assert not appended.wait(0.5), "the later append did not wait for the open one"
        assert store.read_all() == []
        slow.commit()
        assert appended.wait(WAIT)
        fast.join(WAIT)
        records = store.read_all()
        assert [r.game_id for r in records] == ["early", "late"]
        assert records[0].position < records[1].position
    finally:
        slow.close()
        store.close()


def test_postgresql_refuses_truncating_the_records(postgres: PostgresServer) -> None:
    store = SqlEventStore(postgres.new_database())
    store.create_schema()
    store.append(chain("g", 3), 0)
    try:
        with store.engine.connect() as conn, pytest.raises(Exception, match="append-only"):
            conn.exec_driver_sql("TRUNCATE event_records")
        assert [r.version for r in store.read("g")] == [1, 2, 3]
    finally:
        store.close()
