"""The service's ports: what it needs from a store, a publisher and a source of secrets,
and the system's own source of secrets and times."""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any, Protocol

from court.chain import Record
from court.ids import GameId
from court.state import CourtState


class EventStore(Protocol):
    def append(
        self,
        records: Sequence[Record],
        expected_version: int,
        encoded: Sequence[tuple[str, str | None]] | None = None,
    ) -> None: ...
    def read(
        self, game_id: str, *, after: int = 0, upto: int | None = None, limit: int | None = None
    ) -> Iterable[Record]: ...
    def rows(
        self, game_id: str, *, after: int = 0, upto: int | None = None, limit: int | None = None
    ) -> Iterable[tuple[Any, ...]]: ...
    def head(self, game_id: str) -> tuple[int, str] | None: ...
    def games(self) -> list[str]: ...


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
