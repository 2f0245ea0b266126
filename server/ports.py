"""The service's ports: what it needs from a store, a publisher and a source of secrets,
and the system's own source of secrets and times."""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any, NamedTuple, Protocol

from court.chain import Record
from court.ids import GameId
from court.state import CourtState


class Kept(NamedTuple):
    """One row of the snapshots beside the log (server/store/snapshots.py), as written."""

    game_id: str
    version: int
    format: str
    hash: str
    state: str


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
    ) -> Iterable[tuple[Any, ...]]: ...
    def head(self, game_id: str) -> tuple[int, str] | None: ...
    def games(self) -> list[str]: ...
    def save_snapshot(
        self, game_id: str, version: int, fmt: str, hash_: str, state: str
    ) -> None: ...
    def snapshot(self, game_id: str, fmt: str, upto: int) -> tuple[int, str, str] | None: ...


def record_of(
    row: tuple[Any, ...],
    data: dict[str, Any] | None = None,
    private: dict[str, Any] | None = None,
) -> Record:
    """A row of `EventStore.rows` as a Record: (position, game_id, version, type,
    schema_version, recorded_at, seat, data JSON, private JSON, private_sha256, hash).
    `data` and `private` are the JSON columns already parsed, when the caller has them."""
    if data is None:
        data = json.loads(row[7])
        private = None if row[8] is None else json.loads(row[8])
    return Record(
        position=row[0],
        game_id=row[1],
        version=row[2],
        type=row[3],
        schema_version=row[4],
        recorded_at=row[5],
        seat=row[6],
        data=data,
        private=private,
        private_sha256=row[9],
        hash=row[10],
    )


class Publisher(Protocol):
    def publish(self, game_id: GameId, records: Sequence[Record], state: CourtState) -> None: ...


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


def utc_now() -> str:
    return iso_time(time.time())


def iso_time(seconds: float) -> str:
    """Epoch seconds as the log writes times: UTC, microseconds, a trailing Z."""
    moment = datetime.fromtimestamp(seconds, UTC)
    return moment.isoformat(timespec="microseconds").replace("+00:00", "Z")


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()
