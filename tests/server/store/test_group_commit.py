"""Group commit in the store: appends that queue while the store writes are written together,
and a lost race or a failure in a group fails only its own append, whole (never some of its
records). server/store/group_commit.py itself: tests/server/test_batching.py."""

from __future__ import annotations

import threading
from collections.abc import Sequence

from court.errors import ConcurrencyError
from court.log.chain import Record
from server.store.group_commit import Item
from server.store.sql import SqlEventStore
from tests.server.store.conftest import NewDatabase
from tests.server.store.records import chain
from tests.waiting import wait_until

WAIT = 10.0  # seconds any step may take


class Queued:
    """Appends started in threads while the store's writer is held, so that they queue."""

    def __init__(self, store: SqlEventStore) -> None:
        self.store = store
        self.writer = store._writer
        self.groups: list[int] = []
        self.errors: dict[str, BaseException | None] = {}
        self.threads: list[threading.Thread] = []
        write_group = self.writer._write_group

        def counted(group: Sequence[Item]) -> None:
            self.groups.append(len(group))
            write_group(group)

        self.writer._group._write_many = counted

    def start(self, name: str, records: list[Record], expected: int) -> None:
        def run() -> None:
            try:
                self.store.append(records, expected)
                self.errors[name] = None
            except BaseException as exc:
                self.errors[name] = exc

        self.threads.append(threading.Thread(target=run))
        self.threads[-1].start()

    def queued(self) -> int:
        return len(self.writer._group._queue)

    def join(self) -> None:
        for thread in self.threads:
            thread.join(WAIT)
        assert not any(t.is_alive() for t in self.threads)


def versions(store: SqlEventStore, game_id: str) -> list[int]:
    return [r.version for r in store.read(game_id)]


def queue_behind_a_held_writer(store: SqlEventStore, appends: dict[str, list[Record]]) -> Queued:
    """Start an append that takes the writer, hold the writer's lock so that it waits, then
    start `appends` (name -> records from version 1): they queue behind it."""
    queued = Queued(store)
    with queued.writer._lock:
        queued.start("first", chain("first", 1), 0)
        wait_until(lambda: queued.groups == [1])  # the first leads, blocked on the lock
        for name, records in appends.items():
            queued.start(name, records, 0)
        wait_until(lambda: queued.queued() == len(appends))
    queued.join()
    return queued


def test_appends_queued_behind_a_write_commit_together_in_one_group(
    new_database: NewDatabase,
) -> None:
    # Given a store writing one append, and appends of five more games waiting behind it
    store = SqlEventStore(new_database())
    store.create_schema()
    games = {f"g{i}": chain(f"g{i}", 1 + i % 3) for i in range(5)}
    # When the write ends
    queued = queue_behind_a_held_writer(store, games)
    # Then the five were written in one group, each whole, each with its own positions
    assert queued.groups == [1, 5]
    assert all(error is None for error in queued.errors.values())
    for name, records in games.items():
        assert versions(store, name) == [r.version for r in records]
    positions = [r.position for r in store.read_all()]
    assert len(positions) == len(set(positions)) == 1 + sum(len(r) for r in games.values())


def test_a_lost_race_in_a_group_fails_only_its_own_append_and_none_of_its_records_land(
    new_database: NewDatabase,
) -> None:
    # Given another process that wrote version 1 of game "b" (not version 2)
    url = new_database()
    store = SqlEventStore(url)
    store.create_schema()
    other = SqlEventStore(url)
    theirs = chain("b", 1, theirs=True)
    other.append(theirs, 0)
    # When appends of versions 1-2 of "a", "b" and "c" are written as one group
    games = {name: chain(name, 2) for name in ("a", "b", "c")}
    queued = queue_behind_a_held_writer(store, games)
    # Then "b" alone is refused as a lost race: its version 2 was not written either
    assert isinstance(queued.errors["b"], ConcurrencyError)
    assert queued.errors["a"] is None and queued.errors["c"] is None
    assert [r.hash for r in store.read("b")] == [theirs[0].hash]
    assert versions(store, "a") == versions(store, "c") == [1, 2]
    assert store.write_failure is None
    other.close()
    store.close()
