"""What the `flask court ...` tests share: the runner's signature, a played game, and the
tampering an operator with write access to the SQLite file could do."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from click.testing import Result

Court = Callable[..., Result]


@dataclass(frozen=True)
class Played:
    """A game played through the HTTP API: its id, its database file, its tokens, the version its
    start answered and the versions its two gold facts answered (the last one is the head)."""

    id: str
    db: Path
    host_token: str
    tokens: dict[str, str]
    started: int
    gold: tuple[int, int]


def tamper(db: Path, *statements: tuple[str, tuple[object, ...]]) -> None:
    """Drop the append-only triggers, then run the statements in one transaction."""
    with sqlite3.connect(db) as conn:
        conn.execute("DROP TRIGGER event_records_no_update")
        conn.execute("DROP TRIGGER event_records_no_delete")
        for sql, args in statements:
            conn.execute(sql, args)
    conn.close()
