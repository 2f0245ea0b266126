"""Migrated SQLite databases for tests, copied from one migrated once per test process: a copy
of a small file costs far less than running every migration again for each test."""

from __future__ import annotations

import shutil
import tempfile
from functools import cache
from pathlib import Path

from server.store.sql import SqlEventStore


@cache
def _template() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="court-template-"))
    path = folder / "template.db"
    store = SqlEventStore(f"sqlite:///{path}", single_writer=False)
    store.create_schema()
    store.close()  # the last connection closed: the WAL is folded into the file
    return path


def migrated(path: Path) -> str:
    """The URL of a new SQLite database at `path`, already at the newest migration."""
    shutil.copyfile(_template(), path)
    return f"sqlite:///{path}"
