"""The single-writer lock of a SQLite file (server/store/lock.py): shared by the stores of one
process, refused to another process while held, and let go when the last store closes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from devtools.servers import ROOT
from server.store.lock import hold_single_writer, lock_path
from server.store.sql import SqlEventStore

# Each test opens a SQLite file of its own.
pytestmark = pytest.mark.sql

TAKE = (
    "import sys\n"
    "from server.store.lock import WriterLockError, hold_single_writer\n"
    "try:\n"
    "    hold_single_writer(sys.argv[1])\n"
    "except WriterLockError as exc:\n"
    "    sys.exit(str(exc))\n"
)


def other_process_takes(url: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", TAKE, url], cwd=ROOT, capture_output=True, text=True, timeout=60
    )


def test_stores_of_one_process_share_the_lock_and_the_last_to_close_lets_it_go(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path}/court.db"
    first = SqlEventStore(url, single_writer=True)
    second = SqlEventStore(url, single_writer=True)  # the same process: no refusal

    first.close()
    refused = other_process_takes(url)
    assert refused.returncode != 0
    assert "is already serving the SQLite database" in refused.stderr

    second.close()
    assert other_process_takes(url).returncode == 0


def test_only_a_sqlite_file_is_locked(tmp_path: Path) -> None:
    assert lock_path(f"sqlite:///{tmp_path}/court.db") == (tmp_path / "court.db.lock").resolve()
    assert lock_path("sqlite://") is None
    assert lock_path("sqlite:///:memory:") is None
    assert lock_path("postgresql+psycopg://court@localhost/court") is None
    assert hold_single_writer("sqlite://") is None


def test_a_read_only_store_takes_no_lock(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/court.db"
    SqlEventStore(url).create_schema()
    reader = SqlEventStore(url, read_only=True)
    try:
        assert other_process_takes(url).returncode == 0
    finally:
        reader.close()
