"""A write the database refuses is kept for /healthz until a write passes, whichever write it
was: an append or a whole imported log."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from server.store.failures import is_storage_full
from server.store.sql import SqlEventStore
from tests.server.store.records import chain

# Each test opens a SQLite file of its own.
pytestmark = pytest.mark.sql


def cap(store: SqlEventStore, pages: int | None) -> None:
    """Cap the database at its size now (a full disk as SQLite sees it), or lift the cap."""
    cursor = store._writer._connection().cursor()
    if pages is None:
        cursor.execute("PRAGMA page_count")
        pages = cursor.fetchone()[0]
    cursor.execute(f"PRAGMA max_page_count={pages}")


def test_an_import_the_full_disk_refuses_stores_nothing_and_is_kept_for_healthz(
    tmp_path: Path,
) -> None:
    # Given a store whose disk is full
    store = SqlEventStore(f"sqlite:///{tmp_path}/court.db")
    store.create_schema()
    store.append(chain("kept", 1), 0)
    cap(store, None)
    # When a log of a thousand records is imported
    with pytest.raises(sqlite3.OperationalError):
        store.append_batches([(chain("imported", 1000, text="x" * 200), [])])
    # Then none of it is stored, and the failure is kept as a full disk
    assert store.head("imported") is None
    assert store.write_failure is not None and is_storage_full(store.write_failure)
    # And once space is freed, the next write passes and clears it
    cap(store, 1073741823)
    store.append_batches([(chain("imported", 1000, text="x" * 200), [])])
    assert store.head("imported") is not None and store.write_failure is None
    store.close()
