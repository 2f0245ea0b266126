"""Whole logs, in memory that does not grow with them: read in pages, checked deeply from
version 1 or from this process's last checkpoint, imported as a stream.

A checkpoint is where a deep check (court/audit/) made by this process stood after the last
record it passed: the version, the hash that record ends on and the court there, with the
snapshot rows as the check saw them (server/service/snapshot_check.py). It is kept in
this process's memory only, and only a check that passed writes one, so nothing stored can
forge one; a restarted process checks a game from version 1 the first time it is asked.
Verify-so-far first reads the stored record at the checkpoint, which must still end on the hash
checked then, and then checks every record after it. So an edit of any record after the
checkpoint is found, and so is one that changed the hash at the checkpoint; an edit at or
before it that leaves that hash alone is found by the full check from version 1 alone
(`verify`, `flask court verify`). Both checks hold the snapshot rows beside the log to it too
(server/service/snapshot_check.py).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace
from typing import Any

from court.audit import Audit, Checkpoint, Rebuilding
from court.errors import BadRecord, ConcurrencyError, CourtError, UnknownGame
from court.log import codec
from court.log.chain import GENESIS, Record, Verification
from server.service.ports import EventStore
from server.service.replay import Head, Replay
from server.service.snapshot_check import SnapshotCheck
from server.store.rows import Batch, Kept, SnapshotMark, StoredRow

# Records read from the store at a time (export, verify) and written at a time (import).
PAGE = 1000
# The key of the export's talk lines (server/http/games.py), which an import skips.
TALK_KEY = "talk"


class Logs:
    """A game's whole log: paged reads, the deep check with checkpoints, the import."""

    def __init__(
        self,
        store: EventStore,
        replay: Replay,
        upcasters: Mapping[codec.UpcasterKey, codec.Upcaster],
        size: int = 1024,
        rebuild: Rebuilding | None = None,
    ) -> None:
        """`rebuild` turns a signed move back into its command (server/messages/rebuilt.py):
        without it the deep check does not decide signed moves again."""
        self.store = store
        self.rebuild = rebuild
        self.replay = replay
        self.upcasters = upcasters
        self._checkpoints: OrderedDict[str, tuple[Checkpoint, frozenset[SnapshotMark]]] = (
            OrderedDict()
        )
        self._size = size
        self._lock = threading.Lock()

    def records(
        self, game_id: str, *, after: int = 0, upto: int | None = None, limit: int | None = None
    ) -> list[Record]:
        """The records after `after` up to `upto`, at most `limit`, in one read of the store:
        none are read past a head the caller holds, and the game's head is read only when
        none were found, to refuse an unknown game (UnknownGame). Pages connect and catch up
        by the hundred while the pool's connections are few (DATABASE_POOL_SIZE)."""
        if upto is not None and after >= upto:
            return []
        found = list(self.store.read(game_id, after=after, upto=upto, limit=limit))
        if not found and self.store.head(game_id) is None:
            raise UnknownGame(game_id)
        return found

    def pages(self, game_id: str, *, after: int = 0, upto: int | None = None) -> Iterator[Record]:
        """The records after `after` (up to `upto`) in version order, read PAGE at a time: a
        reader that stops early has read at most a page more, and no read stays open."""
        while True:
            page = list(self.store.read(game_id, after=after, upto=upto, limit=PAGE))
            yield from page
            if len(page) < PAGE:
                return
            after = page[-1].version

    def chain(self, game_id: str, first: int, last: int) -> tuple[str, list[StoredRow]]:
        """The rows of versions `first` to `last` exactly as stored (their JSON as it was
        hashed), and the hash of the record before the first (GENESIS before version 1)."""
        rows = list(self.store.rows(game_id, after=max(first - 2, 0), upto=last))
        if not rows:
            raise UnknownGame(game_id)
        before = rows.pop(0).hash if first > 1 and rows[0].version == first - 1 else GENESIS
        return before, rows

    # -- the deep check ------------------------------------------------------------

    def checkpoint(self, game_id: str) -> tuple[Checkpoint, frozenset[SnapshotMark]] | None:
        with self._lock:
            return self._checkpoints.get(game_id)

    def remember(
        self, checkpoint: Checkpoint | None, marks: frozenset[SnapshotMark] = frozenset()
    ) -> None:
        """Keep where a check that passed stands and the snapshot rows it saw, unless a
        newer one is kept already."""
        if checkpoint is None:
            return
        with self._lock:
            known = self._checkpoints.get(checkpoint.game_id)
            if known is None or known[0].version <= checkpoint.version:
                self._checkpoints[checkpoint.game_id] = (checkpoint, marks)
            self._checkpoints.move_to_end(checkpoint.game_id)
            while len(self._checkpoints) > self._size:
                self._checkpoints.popitem(last=False)

    def verify(self, game_id: str) -> Verification:
        """The deep check of every stored record from version 1."""
        return self._run(game_id, _audit(self.upcasters, rebuild=self.rebuild))

    def verify_so_far(self, game_id: str) -> Verification:
        """The deep check of the records after this process's last checkpoint of the game
        (from version 1 when it has none); `since` in the answer says where it began."""
        found = self.checkpoint(game_id)
        if found is None:
            return self.verify(game_id)
        start, marks = found
        moved = self._moved(game_id, start)
        if moved is not None:
            return moved
        return self._run(game_id, _audit(self.upcasters, start, rebuild=self.rebuild), marks)

    def _run(
        self, game_id: str, check: Audit, marks: frozenset[SnapshotMark] = frozenset()
    ) -> Verification:
        since = check.count
        kept = SnapshotCheck(self.replay, game_id, marks)
        for record in self.pages(game_id, after=since):
            failed = check.check(record)
            if failed is None and check.state is not None:
                failed = kept.at(record, check.state, since)
            if failed is not None:
                return failed
        if check.count == 0:
            raise UnknownGame(game_id)
        failed = kept.before(since) or kept.after(check.count, check.prev, since)
        if failed is not None:
            return failed
        self.remember(check.checkpoint, frozenset(kept.marks))
        passed = check.passed()
        return replace(passed, notes=passed.notes + kept.notes())

    def _moved(self, game_id: str, start: Checkpoint) -> Verification | None:
        """A failure when the stored record at the checkpoint no longer ends on its hash."""
        stored = list(self.store.read(game_id, after=start.version - 1, upto=start.version))
        if stored and stored[0].hash == start.hash:
            return None
        return Verification.failed(
            start.version - 1,
            start.version,
            start.hash,
            "chain",
            f"version {start.version} no longer ends on the hash this server checked "
            f"({start.hash[:12]}…): the log was changed at or before it; the full verify "
            "from version 1 names the first record changed",
            since=start.version,
        )

    # -- import --------------------------------------------------------------------

    def import_log(self, lines: Iterable[dict[str, Any]]) -> tuple[str, Verification]:
        """Store an exported log as a new game, checking each record as it is read and
        writing PAGE at a time in one transaction: refused whole at the first failing
        version. The game's id and the check's result."""
        check = _audit(self.upcasters, rebuild=self.rebuild)
        try:
            self.store.append_batches(self._batches(lines, check))
        except ConcurrencyError:
            raise CourtError(
                "game_exists", f"Game {check.game_id} is already stored here."
            ) from None
        self.remember(check.checkpoint)
        assert check.game_id is not None  # _batches refuses a log without a record
        return check.game_id, check.passed()

    def _batches(self, lines: Iterable[dict[str, Any]], check: Audit) -> Iterator[Batch]:
        records: list[Record] = []
        kept: list[Kept] = []
        for line in lines:
            if isinstance(line, dict) and TALK_KEY in line:
                continue  # a talk line of the exporting viewer: no record of the court's log
            record = _record(line)
            failed = check.check(record)
            if failed is not None:
                raise _refusal(failed)
            if check.count == 1:
                self._first(record)
            records.append(record)
            snapshot = self._snapshot(record, check)
            if snapshot is not None:
                kept.append(snapshot)
            if len(records) == PAGE:
                yield records, kept
                records, kept = [], []
        if check.count == 0:
            raise BadRecord("empty_import", "The file holds no records.")
        if records:
            yield records, kept

    def _first(self, record: Record) -> None:
        if record.type != "GameCreated":
            raise BadRecord("bad_import", "The log does not begin with a created game.")
        if self.store.head(record.game_id) is not None:
            raise _exists(record.game_id)

    def _snapshot(self, record: Record, check: Audit) -> Kept | None:
        """The snapshot kept at this record, as a fold past it would keep one."""
        every = self.replay.every
        if not every or record.version % every or check.state is None:
            return None
        head = Head(record.version, record.hash, check.state)
        return self.replay.snapshot_of(record.game_id, head)


def _record(line: dict[str, Any]) -> Record:
    try:
        return Record.from_json(line)
    except (TypeError, ValueError, AttributeError) as exc:
        raise BadRecord("bad_import", f"The file is not an exported log: {exc}.") from None


def _exists(game_id: str | None) -> CourtError:
    return CourtError("game_exists", f"Game {game_id} is already stored here.")


def _refusal(failed: Verification) -> BadRecord:
    code = "tampered_log" if failed.check == "chain" else "bad_import"
    return BadRecord(
        code,
        f"Version {failed.bad_version} (record {failed.bad_index}) fails the "
        f"{failed.check} check: {failed.reason}.",
    )


def _audit(
    upcasters: Mapping[codec.UpcasterKey, codec.Upcaster],
    start: Checkpoint | None = None,
    *,
    rebuild: Rebuilding | None,
) -> Audit:
    """The deep check, deciding every signed move again when `rebuild` is given."""
    return Audit(upcasters, start, rebuild=rebuild)
