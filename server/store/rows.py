"""The rows a store writes and reads back: a record's columns, a game's head, the snapshots
beside the log and their marks, and a row turned back into a record."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, NamedTuple

from court.log.chain import Record


class Kept(NamedTuple):
    """One row of the snapshots beside the log (server/store/snapshots.py), as written and read
    back: the state's JSON at a version, the hash of the record there, and the seal of the
    instance secret named by `key_id` (server/service/replay.py); None where a row has none."""

    game_id: str
    version: int
    format: str
    hash: str
    state: str
    key_id: str | None = None
    mac: str | None = None


class SnapshotMark(NamedTuple):
    """A snapshot row named without its state: its seal tells whether the server rewrote
    it, or someone else did, since a check read it whole."""

    version: int
    format: str
    key_id: str | None
    mac: str | None
    hash: str


class StoredRow(NamedTuple):
    """One record as the store reads it, its public and private parts still JSON: the
    columns of the log in the order the store selects them."""

    position: int
    game_id: str
    version: int
    type: str
    schema_version: int
    recorded_at: str
    seat: int | None
    data: str
    private: str | None
    private_sha256: str
    hash: str


class StreamHead(NamedTuple):
    """A game's newest record: its version and the hash the log ends on."""

    version: int
    hash: str


# Records written together, with the snapshots of versions among them (an import).
Batch = tuple[Sequence[Record], Sequence[Kept]]


def record_of(
    row: StoredRow,
    data: dict[str, Any] | None = None,
    private: dict[str, Any] | None = None,
) -> Record:
    """A row of `EventStore.rows` as a Record. `data` and `private` are the JSON columns
    already parsed, when the caller has them."""
    if data is None:
        data = json.loads(row.data)
        private = None if row.private is None else json.loads(row.private)
    return Record(
        position=row.position,
        game_id=row.game_id,
        version=row.version,
        type=row.type,
        schema_version=row.schema_version,
        recorded_at=row.recorded_at,
        seat=row.seat,
        data=data,
        private=private,
        private_sha256=row.private_sha256,
        hash=row.hash,
    )
