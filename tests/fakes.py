"""Fakes for service tests: an event store in memory, a fixed clock, predictable secrets, a
recording publisher, and the server keys the services of a test process share."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence

from court.errors import ConcurrencyError
from court.log.chain import Record, canonical
from court.state import CourtState
from server.keys import ServerKeys
from server.store.rows import Batch, Kept, SnapshotMark, StoredRow, StreamHead, record_of

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


class MemoryLog:
    """What a database would hold: every row in position order, each game's rows by version,
    and the snapshots beside them."""

    def __init__(self) -> None:
        self.log: list[StoredRow] = []
        self.streams: dict[str, dict[int, StoredRow]] = {}
        self.kept: dict[tuple[str, int, str], Kept] = {}


class MemoryEventStore:
    """The store's port (server/service/ports.py, EventStore) in memory, for the service tests that
    do
    not test SQL: rows kept as the SQL store keeps them (the public and private parts as
    canonical JSON, read back into new objects), the (game, version) pair taken once as the
    optimistic lock, versions read in order and positions handed out in append order.
    Stores opened on one `MemoryLog` share it, as the stores of several processes share one
    database. tests/server/store/test_store_contract.py holds it to SqlEventStore."""

    def __init__(self, log: MemoryLog | None = None) -> None:
        self.memory = log or MemoryLog()
        self._log = self.memory.log
        self._streams = self.memory.streams
        self._kept = self.memory.kept

    def close(self) -> None:
        """Nothing to release: the log lives as long as the object."""

    def append(
        self,
        records: Sequence[Record],
        expected_version: int,
        encoded: Sequence[tuple[str, str | None]] | None = None,
    ) -> None:
        if not records:
            return
        self._insert(
            self._rows(records, encoded), ConcurrencyError(records[0].game_id, expected_version)
        )

    def append_batches(self, batches: Iterable[Batch]) -> None:
        # All or nothing, as one transaction: the rows are inserted once every batch was read.
        pending: list[StoredRow] = []
        kept: list[Kept] = []
        for records, snapshots in batches:
            pending.extend(self._rows(records, None))
            kept.extend(snapshots)
        if not pending:
            return
        game_id = pending[0].game_id
        if game_id in self._streams:
            raise ConcurrencyError(game_id, 0)
        self._insert(pending, ConcurrencyError(game_id, 0))
        for snapshot in kept:
            self.save_snapshot(snapshot)

    def _rows(
        self, records: Sequence[Record], encoded: Sequence[tuple[str, str | None]] | None
    ) -> list[StoredRow]:
        if encoded is None:
            encoded = [
                (canonical(r.data), None if r.private is None else canonical(r.private))
                for r in records
            ]
        return [
            StoredRow(
                0,
                r.game_id,
                r.version,
                r.type,
                r.schema_version,
                r.recorded_at,
                r.seat,
                data,
                private,
                r.private_sha256,
                r.hash,
            )
            for r, (data, private) in zip(records, encoded, strict=True)
        ]

    def _insert(self, rows: list[StoredRow], lost: ConcurrencyError) -> None:
        keys = [(row.game_id, row.version) for row in rows]
        if len(set(keys)) < len(keys) or any(
            version in self._streams.get(game, {}) for game, version in keys
        ):
            raise lost
        for row in rows:
            stored = row._replace(position=len(self._log) + 1)
            self._log.append(stored)
            self._streams.setdefault(row.game_id, {})[row.version] = stored

    def rows(
        self, game_id: str, *, after: int = 0, upto: int | None = None, limit: int | None = None
    ) -> Iterator[StoredRow]:
        stream = self._streams.get(game_id, {})
        found = [stream[v] for v in sorted(stream) if v > after and (upto is None or v <= upto)]
        yield from found[:limit]

    def recent(self, game_id: str, *, after: int) -> list[StoredRow]:
        return list(self.rows(game_id, after=after))

    def read(
        self, game_id: str, *, after: int = 0, upto: int | None = None, limit: int | None = None
    ) -> Iterator[Record]:
        for row in self.rows(game_id, after=after, upto=upto, limit=limit):
            yield record_of(row)

    def read_all(self, *, after: int = 0, limit: int = 1000) -> list[Record]:
        return [record_of(row) for row in self._log[after : after + limit]]

    def head(self, game_id: str) -> StreamHead | None:
        stream = self._streams.get(game_id)
        if not stream:
            return None
        newest = stream[max(stream)]
        return StreamHead(newest.version, newest.hash)

    def games(self) -> list[str]:
        """Newest game first, as the SQL store orders them (by each game's first position)."""
        return list(reversed(self._streams))

    def save_snapshot(self, kept: Kept) -> None:
        key = (kept.game_id, kept.version, kept.format)
        old = self._kept.get(key)
        if old is None or old.mac != kept.mac:  # one sealed alike stays
            self._kept[key] = kept

    def snapshot(self, game_id: str, fmt: str, key_id: str, upto: int) -> Kept | None:
        found = [
            k
            for (game, version, f), k in self._kept.items()
            if game == game_id and f == fmt and k.key_id == key_id and version <= upto
        ]
        return max(found, key=lambda k: k.version, default=None)

    def snapshot_at(self, game_id: str, version: int, fmt: str) -> Kept | None:
        return self._kept.get((game_id, version, fmt))

    def snapshots(self, game_id: str) -> list[SnapshotMark]:
        return [
            SnapshotMark(k.version, k.format, k.key_id, k.mac, k.hash)
            for key, k in sorted(self._kept.items())
            if key[0] == game_id
        ]
