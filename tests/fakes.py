"""Fakes for service tests: a fixed clock, predictable secrets, a recording publisher, and the
server keys the services of a test process share."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from court.chain import Record
from court.state import CourtState
from server.keys import ServerKeys

# The keys every test service shares, as the processes serving one database share theirs: each
# reads the snapshots another sealed.
KEYS = ServerKeys.ephemeral()


class FixedClock:
    """Each call returns the next second of a fixed day, so records differ but repeat.

    `advance(seconds)` moves it forward, to pass a step's deadline."""

    START = 1_795_000_000.0

    def __init__(self) -> None:
        self.now = self.START

    def __call__(self) -> float:
        self.now += 1.0
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class CountingSecrets:
    def __init__(self) -> None:
        self._n = itertools.count(1)

    def token(self) -> str:
        return f"token-{next(self._n)}"

    def game_id(self) -> str:
        return f"game-{next(self._n)}"

    def seed(self) -> str:
        return f"seed-{next(self._n)}"

    def salt(self) -> str:
        return f"salt-{next(self._n)}"


class RecordingPublisher:
    def __init__(self) -> None:
        self.published: list[tuple[str, tuple[Record, ...], CourtState]] = []

    def publish(self, game_id: str, records: Sequence[Record], state: CourtState) -> None:
        self.published.append((game_id, tuple(records), state))
