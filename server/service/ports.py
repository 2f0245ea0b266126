"""The service's ports: what it needs from a store (and the rows a store reads back), a
publisher, a source of secrets and the book of who is connected, and the system's own source
of secrets and times."""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any, NamedTuple, Protocol

from court.ids import GameId, Seat
from court.log.chain import Record
from court.state import CourtState


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


class EventStore(Protocol):
    def append(
        self,
        records: Sequence[Record],
        expected_version: int,
        encoded: Sequence[tuple[str, str | None]] | None = None,
    ) -> None: ...
    def append_batches(self, batches: Iterable[Batch]) -> None: ...
    def read(
        self, game_id: str, *, after: int = 0, upto: int | None = None, limit: int | None = None
    ) -> Iterable[Record]: ...
    def rows(
        self, game_id: str, *, after: int = 0, upto: int | None = None, limit: int | None = None
    ) -> Iterable[StoredRow]: ...
    def recent(self, game_id: str, *, after: int) -> Sequence[StoredRow]: ...
    def head(self, game_id: str) -> StreamHead | None: ...
    def games(self) -> list[str]: ...
    def save_snapshot(self, kept: Kept) -> None: ...
    def snapshot(self, game_id: str, fmt: str, key_id: str, upto: int) -> Kept | None: ...
    def snapshots(self, game_id: str) -> list[SnapshotMark]: ...
    def snapshot_at(self, game_id: str, version: int, fmt: str) -> Kept | None: ...


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


class Publisher(Protocol):
    def publish(self, game_id: GameId, records: Sequence[Record], state: CourtState) -> None: ...


class HostPresence(Protocol):
    """The book of open connections, as the service asks it about the host."""

    def host_away_since(
        self, game_id: str, host_seat: Seat | None, not_before: float
    ) -> float | None:
        """Since when the host (his seat's connections, or a host connection without a seat
        when he holds none) has had no connection, never earlier than `not_before`; None while
        he has one."""
        ...


class SecretSource(Protocol):
    def token(self) -> str: ...
    def game_id(self) -> str: ...
    def seed(self) -> str: ...
    def salt(self) -> str: ...


class SystemSecrets:
    """Tokens, game ids and dice seeds from the operating system's CSPRNG."""

    def token(self) -> str:
        return secrets.token_urlsafe(32)

    def game_id(self) -> str:
        return secrets.token_hex(6)

    def seed(self) -> str:
        return secrets.token_hex(32)

    def salt(self) -> str:
        return secrets.token_hex(16)


class GameMaster(NamedTuple):
    """A game master named at a game's creation, who records facts without playing
    (section 9), and the secret token he does it with: the game keeps only its digest."""

    name: str
    token: str


def utc_now() -> str:
    return iso_time(time.time())


def iso_time(seconds: float) -> str:
    """Epoch seconds as the log writes times: UTC, microseconds, a trailing Z."""
    moment = datetime.fromtimestamp(seconds, UTC)
    return moment.isoformat(timespec="microseconds").replace("+00:00", "Z")


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()
