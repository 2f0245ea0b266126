"""Whole logs in bounded memory and work (server/service/whole_logs.py, R-10): read in pages,
checked from
this process's last checkpoint, imported as a stream that is stored whole or not at all."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import pytest

from court.errors import BadRecord, CourtError
from server.service import whole_logs
from server.service.court_service import CourtService
from server.service.ports import EventStore
from server.store.sql import SqlEventStore
from tests.fakes import KEYS, CountingSecrets, FixedClock
from tests.server.store.conftest import NewDatabase, Table, open_service
from tests.server.store.records import grow_log

# Service tests: each runs on the in-memory store as well, but for those marked `sql`.
pytestmark = pytest.mark.service


class ReadingStore:
    """The store, counting the records read, and showing one record edited as chosen."""

    def __init__(self, store: EventStore, edits: dict[int, dict[str, Any]] | None = None) -> None:
        self.store = store
        self.edits = edits or {}
        self.records_read = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    def read(self, game_id: str, **kw: Any) -> Iterator[Any]:
        for record in self.store.read(game_id, **kw):
            self.records_read += 1
            edit = self.edits.get(record.version)
            yield dataclasses.replace(record, **edit) if edit else record


def fresh(store: Any) -> CourtService:
    return CourtService(store, clock=FixedClock(), secret_source=CountingSecrets(), keys=KEYS)


def test_verify_so_far_checks_only_the_records_after_the_last_check(table: Table) -> None:
    # Given a game of 60 versions or so that this service checked in full once
    grow_log(table.store, table.game_id, 60 - table.started)
    reading = ReadingStore(table.store)
    service = fresh(reading)
    first = service.verify_so_far(table.game_id)
    assert first.ok and first.since == 0 and first.records == 60
    # When 7 more records are stored and it verifies so far
    grow_log(table.store, table.game_id, 7)
    reading.records_read = 0
    again = service.verify_so_far(table.game_id)
    # Then it read the record at its checkpoint and the 7 after it, and no other
    assert again.ok and (again.since, again.records) == (60, 67)
    assert again.head == table.store.head(table.game_id).hash
    assert reading.records_read == 1 + 7


def test_a_restarted_service_checks_the_log_from_version_1(table: Table) -> None:
    fresh(table.store).verify_so_far(table.game_id)
    result = fresh(table.store).verify_so_far(table.game_id)
    assert result.ok and result.since == 0 and result.records == table.started


def test_an_edit_after_the_checkpoint_is_found_by_verify_so_far(table: Table) -> None:
    # Given a checkpoint at the head, then 10 more records, the 4th of them edited
    checked = table.started
    store = ReadingStore(table.store)
    service = fresh(store)
    assert service.verify_so_far(table.game_id).ok
    grow_log(table.store, table.game_id, 10)
    store.edits[checked + 4] = {"data": {"house": "stark", "amount": 50, "cause": "test"}}
    # When it verifies so far, then the edited record is named
    result = service.verify_so_far(table.game_id)
    assert not result.ok and result.check == "chain"
    assert (result.bad_version, result.since) == (checked + 4, checked)


def test_an_edit_that_changed_the_hash_at_the_checkpoint_is_found(table: Table) -> None:
    store = ReadingStore(table.store)
    service = fresh(store)
    assert service.verify_so_far(table.game_id).ok
    store.edits[table.started] = {"hash": "f" * 64}
    result = service.verify_so_far(table.game_id)
    assert not result.ok and result.check == "chain"
    assert result.bad_version == table.started and "full verify" in result.reason


def test_an_edit_before_the_checkpoint_is_left_to_the_full_verify(table: Table) -> None:
    # Given a checkpoint at the head, and an edit of version 3 that keeps its stored hash
    store = ReadingStore(table.store)
    service = fresh(store)
    assert service.verify_so_far(table.game_id).ok
    store.edits[3] = {"recorded_at": "2030-01-01T00:00:00.000000Z"}
    # Then verify-so-far, which trusts what it checked before, passes (the documented limit)
    assert service.verify_so_far(table.game_id).ok
    # ... and the full verify from version 1 finds it
    full = service.verify(table.game_id)
    assert not full.ok and (full.bad_version, full.since) == (3, 0)


def test_an_export_read_in_pages_imports_as_the_same_court(
    table: Table, new_database: NewDatabase, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given pages of 7 records and a game of 60 versions or so
    monkeypatch.setattr(whole_logs, "PAGE", 7)
    grow_log(table.store, table.game_id, 60 - table.started)
    exported = [r.to_json() for r in fresh(table.store).log(table.game_id)]
    assert [line["version"] for line in exported] == list(range(1, 61))
    # When it is imported into a new database, written 7 records a time
    service, target = open_service(new_database(), snapshot_every=5)
    try:
        result = service.import_log(iter(exported))
        # Then the log, its snapshots and its court are the first one's
        assert result.ok and result.records == 60
        assert [r.to_json() for r in target.read(table.game_id)] == exported
        assert (
            target.snapshot(table.game_id, service.replay.format, KEYS.secret.key_id, 60)
            is not None
        )
        court = fresh(target).current(table.game_id)
        assert court.state == fresh(table.store).current(table.game_id).state
        # ... and the import left a checkpoint: verify-so-far reads the record there alone
        assert service.verify_so_far(table.game_id).since == 60
    finally:
        target.close()


def test_an_import_refused_half_way_stores_nothing(
    table: Table, new_database: NewDatabase, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given pages of 5 records and an export whose version 40 was edited
    monkeypatch.setattr(whole_logs, "PAGE", 5)
    grow_log(table.store, table.game_id, 60 - table.started)
    exported = [r.to_json() for r in table.store.read(table.game_id)]
    exported[39]["data"] = {**exported[39]["data"], "amount": 7}
    # When it is imported, after seven pages were written
    service, target = open_service(new_database(), snapshot_every=5)
    try:
        with pytest.raises(BadRecord) as refused:
            service.import_log(iter(exported))
        # Then it is refused at version 40, and neither a record nor a snapshot is stored
        assert refused.value.code == "tampered_log" and "Version 40 " in refused.value.message
        assert target.head(table.game_id) is None
        assert target.snapshot(table.game_id, service.replay.format, KEYS.secret.key_id, 60) is None
    finally:
        target.close()


def test_an_import_of_a_stored_game_is_refused_at_its_first_record(table: Table) -> None:
    lines = (r.to_json() for r in table.store.read(table.game_id))
    with pytest.raises(CourtError) as refused:
        fresh(table.store).import_log(lines)
    assert refused.value.code == "game_exists"


@pytest.mark.sql
def test_a_store_reads_pages_that_end_where_asked(table: Table) -> None:
    assert isinstance(table.store, SqlEventStore)
    grow_log(table.store, table.game_id, 2500, batch=700)
    service = fresh(table.store)
    versions = [r.version for r in service.log(table.game_id, upto=2400)]
    assert versions == list(range(1, 2401))
