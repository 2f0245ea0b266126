"""The one replay path (server/service/replay.py): every rebuild — the current court, a past
version, a history page, an import — starts from the newest trusted snapshot, and a snapshot
that is not sealed by this server's instance secret, not this log's, not this server's format,
or not a sound court is never read back. Verify holds every row to the log
(server/service/snapshot_check.py)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import text

from court.commands import AdjustGold
from court.ids import HouseId
from court.log import snapshot
from server.keys import ServerKeys
from server.service.court_service import CourtService
from server.service.ports import EventStore
from server.service.replay import Head, Replay, Seal
from server.store.rows import Kept
from server.store.sql import SqlEventStore
from tests.fakes import KEYS, CountingSecrets, FixedClock
from tests.server.store.conftest import Table, open_service

# Service tests: each runs on the in-memory store as well, but for those marked `sql`.
pytestmark = pytest.mark.service

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
        store, clock=FixedClock(), secret_source=CountingSecrets(), snapshot_every=every, keys=KEYS
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


def newest(store: EventStore, service: CourtService, game_id: str, upto: int) -> Kept | None:
    """The newest row sealed under the test keys at or before `upto`."""
    return store.snapshot(game_id, service.replay.format, KEYS.secret.key_id, upto)


def test_a_snapshot_that_is_not_of_this_log_is_not_read(long_game) -> None:
    # Given a snapshot at 34, sealed, claiming a hash the log does not hold at 34
    table, store, _ = long_game
    service = fresh(store)
    good = service.replay.nearest(table.game_id, 34)
    assert good is not None and 30 <= good.version <= 34
    kept = service.replay.snapshot_of(table.game_id, Head(34, "0" * 64, good.state))
    assert kept is not None
    store.save_snapshot(kept)
    # When a new service reads version 34, then it passes over it to the snapshot before it
    assert service.replay.nearest(table.game_id, 34) == good
    head = fresh(store).state_at(table.game_id, 34)
    assert head == fresh(store, every=0).state_at(table.game_id, 34)


def test_a_snapshot_of_an_unsound_court_is_not_read(long_game) -> None:
    # Given a snapshot at 36, sealed, on the log's own hash there, whose state was edited: a
    # treasury below zero, which no court may hold
    table, store, _ = long_game
    service = fresh(store)
    at_36 = fresh(store, every=0).state_at(table.game_id, 36)
    plain = snapshot.to_plain(at_36.state)
    plain["treasury"] = [[house, -100] for house, _ in plain["treasury"]]
    fmt = service.replay.format
    store.save_snapshot(
        service.replay.seal(Kept(table.game_id, 36, fmt, at_36.hash, json.dumps(plain)))
    )
    # When a new service reads version 37, then it does not read that snapshot
    found = service.replay.nearest(table.game_id, 37)
    assert found is not None and found.version < 36
    assert fresh(store).state_at(table.game_id, 37) == fresh(store, every=0).state_at(
        table.game_id, 37
    )


def test_a_snapshot_kept_under_another_format_number_is_ignored(long_game, monkeypatch) -> None:
    # Given snapshots kept by a server whose court/log/snapshot.py declared the current FORMAT
    table, store, _ = long_game
    assert fresh(store).replay.format == f"fold-{snapshot.FORMAT}"
    assert fresh(store).replay.nearest(table.game_id, 59) is not None
    # When a server whose fold bumped the number reads the game, then it folds past them
    monkeypatch.setattr(snapshot, "FORMAT", snapshot.FORMAT + 1)
    service = fresh(store)
    assert service.replay.nearest(table.game_id, 59) is None
    assert service.state_at(table.game_id, 59) == fresh(store, every=0).state_at(table.game_id, 59)


@pytest.mark.sql
def test_a_read_only_store_keeps_no_snapshot_and_still_reads(long_game) -> None:
    # Given the database opened read-only (the CLI's read commands) by a service that would
    # keep a snapshot at every version
    table, store, _ = long_game
    reader = SqlEventStore(table.url, read_only=True)
    try:
        service = fresh(reader, every=1)
        before = newest(reader, service, table.game_id, 33)
        # When it rebuilds version 33, folding past versions it has no snapshot of
        head = service.state_at(table.game_id, 33)
        # Then the court is the log's, and no snapshot was written
        assert head == fresh(store, every=0).state_at(table.game_id, 33)
        assert newest(reader, service, table.game_id, 33) == before
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
        stored = newest(target, service, table.game_id, 60)
        assert stored is not None and stored.version == 60  # the import folds past every 5th
        assert service.replay.seal_of(stored) is Seal.OWN
        assert (
            fresh(target).current(table.game_id).state == fresh(store).current(table.game_id).state
        )
    finally:
        target.close()


def test_a_snapshot_another_process_kept_first_stays(long_game) -> None:
    # Given the snapshot a first process kept at some version
    table, store, _ = long_game
    service = fresh(store)
    kept = newest(store, service, table.game_id, 40)
    assert kept is not None
    # When a second process, holding the same keys, keeps the same one (it folded there too)
    store.save_snapshot(kept)
    # Then nothing fails and the one row stays as it was
    assert newest(store, service, table.game_id, 40) == kept
    assert [m.version for m in store.snapshots(table.game_id)].count(kept.version) == 1


# -- rows the server did not seal ----------------------------------------------------------


def forge(store: EventStore, kept: Kept, how: str, **plain_edits: Any) -> Kept:
    """The row `kept` written over in the database as whoever can write it could: its state
    edited, and sealed with no MAC, a MAC made up in the name of the server's secret, or a
    MAC of another secret (one before a rotation, or the forger's own)."""
    plain = {**json.loads(kept.state), **plain_edits}
    edited = kept._replace(state=json.dumps(plain), key_id=None, mac=None)
    if how == "bad-mac":
        edited = edited._replace(key_id=KEYS.secret.key_id, mac="ab" * 32)
    elif how == "other-secret":
        other = Replay(store, {}, EVERY, secret=ServerKeys.ephemeral().secret)
        edited = other.seal(edited)
    store.save_snapshot(edited)
    return edited


HOW = ["no-mac", "bad-mac", "other-secret"]


def sealed_47(table: Table, store: EventStore) -> Kept:
    """The newest row the server sealed at or before version 47: the one a forger edits."""
    honest = newest(store, fresh(store), table.game_id, 47)
    assert honest is not None and 40 < honest.version <= 47
    return honest


def rich(kept: Kept) -> list[list[Any]]:
    """The treasuries of the row's state, Stark's made 99."""
    treasury = json.loads(kept.state)["treasury"]
    return [[house, 99 if house == "stark" else gold] for house, gold in treasury]


@pytest.mark.parametrize("how", HOW)
def test_a_row_the_server_did_not_seal_is_never_read(long_game, how: str) -> None:
    # Given the newest snapshot at or before 47 rewritten with Stark's treasury at 99
    table, store, _ = long_game
    honest = sealed_47(table, store)
    forge(store, honest, how, treasury=rich(honest))
    counting = CountingStore(store)
    # When a new service rebuilds version 47
    head = fresh(counting).state_at(table.game_id, 47)
    # Then it folded from the sealed snapshot before the row (a few records), not from it
    whole = fresh(store, every=0).state_at(table.game_id, 47)
    assert head == whole and head.state.treasury[HouseId("stark")] != 99
    assert counting.rows_read <= 3 * (EVERY + 1)


@pytest.mark.parametrize("how", HOW)
def test_a_row_the_server_did_not_seal_is_written_anew_when_the_fold_passes_it(
    long_game, how: str
) -> None:
    table, store, _ = long_game
    honest = sealed_47(table, store)
    forge(store, honest, how, treasury=rich(honest))

    fresh(store).state_at(table.game_id, honest.version + 1)

    rewritten = store.snapshot_at(table.game_id, honest.version, honest.format)
    assert rewritten == honest


@pytest.mark.parametrize("how", HOW)
def test_verify_names_a_row_that_is_not_the_logs_court(long_game, how: str) -> None:
    # Given a forged row at a version the check so far already passed
    table, store, newest_version = long_game
    service = fresh(store)
    assert service.verify_so_far(table.game_id).ok
    honest = sealed_47(table, store)
    forge(store, honest, how, treasury=rich(honest))
    # When another service verifies it from version 1, and this one so far (whose fold
    # writes the row anew: it is a cache, and a fold passed it)
    whole = fresh(store).verify(table.game_id)
    so_far = service.verify_so_far(table.game_id)
    # Then both name the row
    for result in (so_far, whole):
        assert not result.ok
        assert (result.check, result.bad_version) == ("snapshot", honest.version)
        assert f"version {honest.version}" in result.reason
    assert so_far.since == newest_version


def test_verify_names_a_row_with_a_bad_mac_even_when_it_holds_the_logs_court(long_game) -> None:
    table, store, _ = long_game
    honest = sealed_47(table, store)
    forge(store, honest, "bad-mac")

    result = fresh(store).verify(table.game_id)

    assert (result.ok, result.check, result.bad_version) == (False, "snapshot", honest.version)
    assert "bad MAC" in result.reason


def test_verify_notes_a_row_of_another_secret_that_agrees_with_the_log(long_game) -> None:
    # Given a row sealed under an earlier secret (a rotation since), holding the log's court
    table, store, _ = long_game
    honest = sealed_47(table, store)
    forge(store, honest, "other-secret")
    # When the log is verified, then it is ok, and the row is noted, not named
    result = fresh(store).verify(table.game_id)
    assert result.ok, result
    assert any(f"versions {honest.version})" in note for note in result.notes)


def test_verify_names_a_row_past_the_last_version(long_game) -> None:
    table, store, newest_version = long_game
    service = fresh(store)
    honest = newest(store, service, table.game_id, newest_version)
    assert honest is not None
    store.save_snapshot(honest._replace(version=newest_version + 10))

    result = fresh(store).verify(table.game_id)

    assert (result.ok, result.check, result.bad_version) == (
        False,
        "snapshot",
        newest_version + 10,
    )


class SnapshotReads:
    """The store, counting the snapshot rows read whole."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self.whole = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    def snapshot_at(self, game_id: str, version: int, fmt: str) -> Kept | None:
        self.whole += 1
        return self.store.snapshot_at(game_id, version, fmt)


def test_the_check_so_far_reads_again_only_the_rows_changed_since(long_game) -> None:
    # Given a service whose check so far passed (reading every row once)
    table, store, _ = long_game
    reads = SnapshotReads(store)
    service = fresh(reads)
    assert service.verify_so_far(table.game_id).ok and reads.whole >= 10
    # When it checks again with nothing changed, then it reads no row whole
    reads.whole = 0
    assert service.verify_so_far(table.game_id).ok and reads.whole == 0
    # When a row's seal is changed, then that row alone is read, and named
    honest = sealed_47(table, store)
    store.save_snapshot(honest._replace(mac="cd" * 32))
    failed = service.verify_so_far(table.game_id)
    assert (failed.check, failed.bad_version, reads.whole) == ("snapshot", honest.version, 1)


@pytest.mark.sql
def test_an_edit_of_a_rows_state_alone_is_left_to_the_check_from_version_1(long_game) -> None:
    """The documented limit of the check so far: a row's state edited in place, its seal
    kept, is read by nobody (its MAC fails) and named by the full check only."""
    table, store, _ = long_game
    service = fresh(store)
    assert service.verify_so_far(table.game_id).ok
    honest = sealed_47(table, store)
    plain = json.loads(honest.state)
    plain["treasury"] = [[h, g + 100 if h == "stark" else g] for h, g in plain["treasury"]]
    with store.engine.begin() as conn:  # in place: the server's own write would keep the row
        conn.execute(
            text("UPDATE snapshots SET state = :state WHERE game_id = :game AND version = :v"),
            {
                "state": json.dumps(plain, separators=(",", ":")),
                "game": table.game_id,
                "v": honest.version,
            },
        )

    assert service.verify_so_far(table.game_id).ok
    whole = fresh(store).verify(table.game_id)
    assert (whole.check, whole.bad_version) == ("snapshot", honest.version)
    assert "bad MAC" in whole.reason
    found = fresh(store).replay.nearest(table.game_id, honest.version)
    assert found is not None and found.version < honest.version
