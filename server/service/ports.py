"""The service's ports: what it needs from a store (whose rows server/store/rows.py holds), a
publisher, a source of secrets and the book of who is connected, and the system's own source
of secrets and times."""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Protocol

from court.commands.secrets import digest
from court.ids import GameId, Seat
from court.log.chain import Record
from court.state import CourtState
from server.store.rows import Batch, Kept, SnapshotMark, StoredRow, StreamHead


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


def utc_now() -> str:
    return iso_time(time.time())


def iso_time(seconds: float) -> str:
    """Epoch seconds as the log writes times: UTC, microseconds, a trailing Z."""
    moment = datetime.fromtimestamp(seconds, UTC)
    return moment.isoformat(timespec="microseconds").replace("+00:00", "Z")


def time_of(text: str) -> float:
    """A time the log wrote (`iso_time`) as epoch seconds: what a check that decides a command
    again takes for the time it was decided at."""
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


token_digest = digest  # what the log keeps of a token (court/commands/secrets.py)
