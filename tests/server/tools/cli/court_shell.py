"""What the `flask court ...` tests share: the runner's signature, a played game, and the
tampering an operator with write access to the SQLite file could do, up to rewriting history."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from click.testing import Result

from court.log import codec
from court.log.chain import GENESIS, canonical, link
from court.talk import TalkLine, line_hash

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


def rewrite(db: Path, game_id: str, version: int, **changes: object) -> None:
    """Rewrite history as whoever can write the database could: change the public part of the
    record at `version`, then recompute its hash and every hash after it (court/log/chain.py), so
    that the log still agrees with itself."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT version, type, schema_version, recorded_at, seat, data, private_sha256 "
            "FROM event_records WHERE game_id = ? ORDER BY version",
            (game_id,),
        ).fetchall()
        prev = GENESIS
        edits = []
        for number, type_, schema_version, recorded_at, seat, data, private_sha256 in rows:
            if number == version:
                data = canonical({**json.loads(data), **changes})
            prev = link(
                prev,
                game_id=game_id,
                version=number,
                type=type_,
                schema_version=schema_version,
                recorded_at=recorded_at,
                seat=seat,
                data_json=data,
                private_sha256=private_sha256,
            )
            edits.append((data, prev, game_id, number))
    conn.close()
    tamper(
        db,
        *(
            ("UPDATE event_records SET data = ?, hash = ? WHERE game_id = ? AND version = ?", e)
            for e in edits
            if e[3] >= version
        ),
    )


def rewrite_talk(db: Path, game_id: str, channel: str, number: int, text: str) -> None:
    """Rewrite a talk line as whoever can write the database could: its text, then its hash
    and the chain of every later line of its channel (court/talk.py), so that the channel
    still agrees with itself. The server's signatures, kept beside, are left as they were."""
    with sqlite3.connect(db) as conn:
        conn.row_factory = sqlite3.Row
        rows = conn.execute(
            "SELECT * FROM talk_lines WHERE game_id = ? AND channel = ? ORDER BY number",
            (game_id, channel),
        ).fetchall()
        conn.execute("DROP TRIGGER talk_lines_no_update")
        prev = GENESIS
        for row in rows:
            fields = {**dict(row), "recipients": tuple(json.loads(row["recipients"]))}
            line = TalkLine(**fields)
            if line.number == number:
                line = TalkLine(**{**fields, "text": text})
            if line.number >= number:
                new = line_hash(prev, line.hashed_fields())
                conn.execute(
                    "UPDATE talk_lines SET text = ?, prev_hash = ?, hash = ? WHERE position = ?",
                    (line.text, prev, new, line.position),
                )
                prev = new
            else:
                prev = line.hash
    conn.close()


def rows(db: Any, game_id: str) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db) as conn:
        found = conn.execute(
            "SELECT version, type, schema_version, recorded_at, seat, data, private, "
            "private_sha256, hash FROM event_records WHERE game_id = ? ORDER BY version",
            (game_id,),
        ).fetchall()
    conn.close()
    return found


def append_forged(played: Played, type_: str, data: dict[str, Any], seat: int | None) -> int:
    """Add a record at the head as whoever writes the database could: chained on the head's
    hash, at the head's time, attributed to `seat`; its version."""
    *_, last = rows(played.db, played.id)
    version, recorded_at, prev = last[0] + 1, last[3], last[8]
    data_json, schema = canonical(data), codec.schema_version(type_)
    hash_ = link(
        prev,
        game_id=played.id,
        version=version,
        type=type_,
        schema_version=schema,
        recorded_at=recorded_at,
        seat=seat,
        data_json=data_json,
        private_sha256="",
    )
    tamper(
        played.db,
        (
            "INSERT INTO event_records (game_id, version, type, schema_version, recorded_at, "
            "seat, data, private, private_sha256, hash) VALUES (?, ?, ?, ?, ?, ?, ?, NULL, '', ?)",
            (played.id, version, type_, schema, recorded_at, seat, data_json, hash_),
        ),
    )
    return version
