"""The snapshots beside a game's log held to the log: the part of `verify`
(server/service/whole_logs.py) that
names a snapshot row the server would not have written.

Each row of this server's format is held to the court the log folds into at its version: its
hash must be the log's there and its state that court. A row in the name of this server's secret
whose MAC the secret did not make is named too, whatever it holds (someone wrote it). A row under
no seal or another secret's that agrees with the log is harmless (the server never reads it, and
writes it anew when it folds past its version): it is noted, not named. A row past the log's
last version is named.

The deep check from version 1 meets each row as it folds past its version. The check so far
(which begins at a checkpoint) meets the rows after the checkpoint the same way; of the rows at
or before it, it reads again only those that are new or changed since the check that left the
checkpoint (their seal or hash: `SnapshotMark`), so that its work does not grow with the log.
Of those, a row the server sealed is its own, and any other is held to a fold from the newest
row the server sealed before it. An edit of a row's state alone, its seal kept, is thus left to
the check from version 1; the server never reads such a row (its MAC fails).
"""

from __future__ import annotations

import json
from collections.abc import Set

from court.log import snapshot
from court.log.chain import Record, Verification
from court.state import CourtState
from server.service.replay import Replay, Seal
from server.store.rows import Kept, SnapshotMark


class SnapshotCheck:
    """The snapshot rows of one game, checked as the deep check folds past their versions;
    `checked`: the rows as a check that passed saw them (none: every row is read)."""

    def __init__(
        self, replay: Replay, game_id: str, checked: Set[SnapshotMark] = frozenset()
    ) -> None:
        self.replay = replay
        self.game_id = game_id
        self.marks = replay.stored(game_id)
        self.versions = {m.version for m in self.marks}
        self.checked = checked
        self.unsealed: list[int] = []

    def at(self, record: Record, state: CourtState, since: int) -> Verification | None:
        """The row at the record's version, if any, held to the court folded right after it."""
        if record.version not in self.versions:
            return None
        kept = self.replay.stored_at(self.game_id, record.version)
        problem = "" if kept is None else self._problem(kept, record.hash, state)
        return _failed(record.version, record.hash, problem, since)

    def before(self, since: int) -> Verification | None:
        """The rows at or before version `since`, where a check so far began, new or changed
        since the check that left it there."""
        changed = [m.version for m in self.marks if m.version <= since and m not in self.checked]
        foreign: set[int] = set()
        for version in changed:
            kept = self.replay.stored_at(self.game_id, version)
            seal = Seal.OWN if kept is None else self.replay.seal_of(kept)
            if kept is not None and seal is Seal.BAD:
                return _failed(version, kept.hash, _bad_mac(version), since)
            if seal is Seal.OTHER:
                foreign.add(version)
        return self._folded(foreign, since) if foreign else None

    def _folded(self, foreign: set[int], since: int) -> Verification | None:
        """The rows at `foreign` versions held to a fold from the newest sealed row before."""
        failed: list[Verification] = []

        def visit(record: Record, state: CourtState) -> None:
            if record.version in foreign and not failed:
                found = self.at(record, state, since)
                if found is not None:
                    failed.append(found)

        start = self.replay.nearest(self.game_id, min(foreign) - 1)
        self.replay.fold(self.game_id, start, upto=max(foreign), visit=visit)
        return failed[0] if failed else None

    def after(self, head: int, last_hash: str, since: int) -> Verification | None:
        """A row past the log's last version `head`."""
        beyond = sorted(v for v in self.versions if v > head)
        if not beyond:
            return None
        problem = (
            f"a snapshot is kept at version {beyond[0]}, past the log's last version {head}: "
            "the server never wrote it"
        )
        return _failed(beyond[0], last_hash, problem, since)

    def notes(self) -> tuple[str, ...]:
        if not self.unsealed:
            return ()
        listed = ", ".join(map(str, self.unsealed[:5])) + ("…" if len(self.unsealed) > 5 else "")
        return (
            f"{len(self.unsealed)} snapshot(s) (versions {listed}) agree with the log but are "
            "not sealed by this server's instance secret (written before a rotation of it): "
            "the server does not read them, and writes them anew as it folds past them",
        )

    def _problem(self, kept: Kept, log_hash: str, state: CourtState) -> str:
        """Why the row is not one the server would have written, or ""."""
        where = f"the snapshot kept at version {kept.version}"
        seal = self.replay.seal_of(kept)
        if seal is Seal.BAD:
            return _bad_mac(kept.version)
        if kept.hash != log_hash:
            return f"{where} names the hash {kept.hash[:12]}…, not the log's there"
        try:
            stored = snapshot.from_plain(json.loads(kept.state))
        except Exception as exc:  # a row edited into anything at all
            return f"{where} cannot be read ({exc!r:.80})"
        if stored != state:
            return f"{where} is not the court the log folds into at that version"
        if seal is Seal.OTHER:
            self.unsealed.append(kept.version)
        return ""


def _bad_mac(version: int) -> str:
    return (
        f"the snapshot kept at version {version} has a bad MAC: it names this server's "
        "instance secret, which did not seal it (the row was written or changed in the database)"
    )


def _failed(version: int, head: str, problem: str, since: int) -> Verification | None:
    if not problem:
        return None
    return Verification.failed(version - 1, version, head, "snapshot", problem, since)
