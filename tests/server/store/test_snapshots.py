"""The one replay path (server/replay.py): every rebuild — the current court, a past version, a
history page, an import — starts from the newest trusted snapshot, and a snapshot that is not
this log's, not this server's format, or not a sound court is never read back."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from court import snapshot
from court.commands import AdjustGold
from court.ids import HouseId
from server.ports import EventStore
from server.service import CourtService
from server.store.sql import SqlEventStore
from tests.fakes import CountingSecrets, FixedClock
from tests.server.store.conftest import Table, open_service

EVERY = 5


class CountingStore:
    """The store, counting the rows each rebuild reads."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self.rows_read = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    def rows(self, game_id: str, **kw: Any) -> Iterator[tuple[Any, ...]]:
        for row in self.store.rows(game_id, **kw):
            self.rows_read += 1
            yield row


def grow(table: Table, service: CourtService, versions: int) -> int:
    """Play gold adjustments (+1, -1, ...) until the log holds `versions` records; the
    version it ends at."""
    version, amount = table.started, 1
    while version < versions:
        command = AdjustGold(house=HouseId("stark"), amount=amount, cause="test")
        version = service.handle(table.game_id, command, table.host).version
        amount = -amount
    return version


def fresh(store: EventStore, every: int = EVERY) -> CourtService:
    return CourtService(
        store, clock=FixedClock(), secret_source=CountingSecrets(), snapshot_every=every
    )


@pytest.fixture
def long_game(table: Table) -> tuple[Table, SqlEventStore, int]:
    """The table's game played on to 60 versions or just past by a service keeping a snapshot
    each time the log passes a multiple of 5."""
    service, store = open_service(table.url, snapshot_every=EVERY)
    return table, store, grow(table, service, 60)


def test_a_new_service_rebuilds_a_past_version_from_the_snapshot_before_it(long_game) -> None:
    # Given a game of 60 versions or so whose service kept a snapshot every 5 versions
    table, store, newest = long_game
    counting = CountingStore(store)
    # When a brand-new service is asked for version 33 (after its newest court)
    head = fresh(counting).state_at(table.game_id, 33)
    # Then it folded a few records on snapshots (fewer than 5 each, plus one read to check
    # each snapshot's hash), never the 33 from the first ...
    assert counting.rows_read <= 2 * (EVERY + 1)
    # ... and the court is the one a fold from the first event gives
    whole = fresh(store, every=0).state_at(table.game_id, 33)
    assert head == whole and newest >= 60


def test_the_history_page_is_told_with_the_court_after_each_record(long_game) -> None:
    table, store, _ = long_game
    counting = CountingStore(store)
    page = fresh(counting).told(table.game_id, after=41, limit=10)
    whole = fresh(store, every=0)
    assert [r.version for r, _ in page] == list(range(42, 52))
    for record, state in page:
        assert state == whole.state_at(table.game_id, record.version).state
    # from a snapshot at 37 to 41, never from the first record
    assert counting.rows_read <= 10 + 2 * (EVERY + 1)


def test_a_snapshot_that_is_not_of_this_log_is_not_read(long_game) -> None:
    # Given a snapshot at 30 claiming a hash the log does not hold at 30
    table, store, _ = long_game
    service = fresh(store)
    good = service.replay.nearest(table.game_id, 34)
    assert good is not None and 30 <= good.version <= 34
    store.save_snapshot(
        table.game_id,
        34,
        service.replay.format,
        "0" * 64,
        json.dumps(snapshot.to_plain(good.state)),
    )
    # When a new service reads version 34, then it is folded from the snapshot at 30
    assert service.replay.nearest(table.game_id, 34) is None
    head = fresh(store).state_at(table.game_id, 34)
    assert head == fresh(store, every=0).state_at(table.game_id, 34)


def test_a_snapshot_of_an_unsound_court_is_not_read(long_game) -> None:
    # Given a snapshot at 36, on the log's own hash there, whose state was edited: a treasury
    # below zero, which no court may hold
    table, store, _ = long_game
    service = fresh(store)
    at_36 = fresh(store, every=0).state_at(table.game_id, 36)
    plain = snapshot.to_plain(at_36.state)
    plain["treasury"] = [[house, -100] for house, _ in plain["treasury"]]
    store.save_snapshot(table.game_id, 36, service.replay.format, at_36.hash, json.dumps(plain))
    # When a new service reads version 37, then it does not read that snapshot
    assert service.replay.nearest(table.game_id, 37) is None
    assert fresh(store).state_at(table.game_id, 37) == fresh(store, every=0).state_at(
        table.game_id, 37
    )


def test_a_snapshot_kept_under_another_format_number_is_ignored(long_game, monkeypatch) -> None:
    # Given snapshots kept by a server whose court/snapshot.py declared the current FORMAT
    table, store, _ = long_game
    assert fresh(store).replay.format == f"fold-{snapshot.FORMAT}"
    assert fresh(store).replay.nearest(table.game_id, 59) is not None
    # When a server whose fold bumped the number reads the game, then it folds past them
    monkeypatch.setattr(snapshot, "FORMAT", snapshot.FORMAT + 1)
    service = fresh(store)
    assert service.replay.nearest(table.game_id, 59) is None
    assert service.state_at(table.game_id, 59) == fresh(store, every=0).state_at(table.game_id, 59)


def test_a_read_only_store_keeps_no_snapshot_and_still_reads(long_game) -> None:
    # Given the database opened read-only (the CLI's read commands) by a service that would
    # keep a snapshot at every version
    table, store, _ = long_game
    reader = SqlEventStore(table.url, read_only=True)
    try:
        service = fresh(reader, every=1)
        before = reader.snapshot(table.game_id, service.replay.format, 33)
        # When it rebuilds version 33, folding past versions it has no snapshot of
        head = service.state_at(table.game_id, 33)
        # Then the court is the log's, and no snapshot was written
        assert head == fresh(store, every=0).state_at(table.game_id, 33)
        assert reader.snapshot(table.game_id, service.replay.format, 33) == before
    finally:
        reader.close()


def test_an_imported_game_keeps_snapshots_and_rebuilds_the_same_court(
    long_game, new_database
) -> None:
    table, store, _ = long_game
    lines = [r.to_json() for r in store.read(table.game_id)]
    service, target = open_service(new_database(), snapshot_every=EVERY)
    try:
        assert service.import_log(lines).ok
        stored = target.snapshot(table.game_id, service.replay.format, 60)
        assert stored is not None and stored[0] == 60  # the import folds past every 5th
        assert (
            fresh(target).current(table.game_id).state == fresh(store).current(table.game_id).state
        )
    finally:
        target.close()


def test_a_snapshot_another_process_kept_first_stays(long_game) -> None:
    # Given the snapshot a first process kept at some version
    table, store, _ = long_game
    service = fresh(store)
    kept = store.snapshot(table.game_id, service.replay.format, 40)
    assert kept is not None
    # When a second process keeps one at the same version (it folded there too)
    store.save_snapshot(table.game_id, kept[0], service.replay.format, kept[1], '{"other": 1}')
    # Then nothing fails and the first one stays
    assert store.snapshot(table.game_id, service.replay.format, 40) == kept
