"""The one replay path: a game's state at any version, folded from the nearest known state.

Every rebuild goes through `Replay.fold` — the current court, `/versions/N`, the history, import
and the simulator — from the best starting point at hand: the service's cached head, or the
newest snapshot at or before the version asked for, or the game's creation. Folding past every
`every`-th version keeps a snapshot of the state there (court/log/snapshot.py), sealed with the
instance secret (server/keys/secret.py). Whoever can write the database can write a snapshot row,
but not seal one: a snapshot is read back only when it carries this server's seal, was written
under this code's snapshot `FORMAT`, ends on the log's own hash at its version, and its state
passes the invariants import enforces. Any other row is passed over for an older one, or the
fold starts at the game's creation; the row is written anew when the fold passes its version.
"""

from __future__ import annotations

import json
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, NamedTuple

from court import evolve
from court.errors import CorruptLog, UnknownGame
from court.evolve import initial
from court.ids import GameId
from court.log import codec, snapshot
from court.log.chain import GENESIS, Record
from court.model.ruleset import Ruleset
from court.soundness.invariants import Unsound, require_sound
from court.state import CourtState
from server.keys import InstanceSecret
from server.service.ports import EventStore
from server.store.failures import DATABASE_ERRORS
from server.store.rows import Kept, SnapshotMark, StoredRow, record_of

log = logging.getLogger("small_council.replay")

# A snapshot of the state is kept every this many versions, unless the service is told otherwise.
SNAPSHOT_EVERY = 250
# Called with each record folded past the starting point and the state right after it.
Visit = Callable[[Record, CourtState], None]


def state_format() -> str:
    """The format a snapshot is stored under: the number court/log/snapshot.py declares, bumped by
    hand whenever the same log would fold into another state. Nothing else: a change of the
    fold's code that folds every log as before keeps the stored snapshots."""
    return f"fold-{snapshot.FORMAT}"


def sealed_text(kept: Kept) -> bytes:
    """What a snapshot's seal covers: every field of its row but the seal."""
    fields = f"small-council snapshot\n{kept.game_id}\n{kept.version}\n{kept.format}\n{kept.hash}\n"
    return fields.encode() + kept.state.encode()


class Seal(StrEnum):
    """How a snapshot row is sealed, as this server sees it."""

    OWN = "own"  # by this server's instance secret: the row is as the server wrote it
    OTHER = "other"  # by no secret, or one this server does not hold (before a rotation)
    BAD = "bad"  # in the name of this server's secret, with a MAC it did not make


@dataclass(frozen=True, slots=True)
class Head:
    """A game's state at a version, with the hash that version ends on."""

    version: int
    hash: str
    state: CourtState


class _PlainRules(NamedTuple):
    """A ruleset, its plain form and its JSON, as snapshots write it: two thirds of a
    snapshot's text, the same for a whole game."""

    rules: Ruleset | None
    plain: Any
    text: str


class Replay:
    """Folds a game's stored records into states, keeping snapshots every `every` versions
    (0: none, and none read), sealed with `secret`, beside a cache of the newest heads of
    `cache_size` games."""

    def __init__(
        self,
        store: EventStore,
        upcasters: Mapping[codec.UpcasterKey, codec.Upcaster],
        every: int,
        cache_size: int = 1024,
        secret: InstanceSecret | None = None,
    ) -> None:
        self.store = store
        self.secret = secret or InstanceSecret.random()
        self.upcasters = upcasters
        self.every = every
        self.format = state_format()
        self._cache: OrderedDict[str, Head] = OrderedDict()
        self._cache_size = cache_size
        self._cache_lock = threading.Lock()
        # The plain form of the ruleset last written: one object for a whole game.
        self._rules: _PlainRules | None = None

    # -- the cache of current heads --------------------------------------------------

    def cached(self, game_id: str) -> Head | None:
        with self._cache_lock:
            return self._cache.get(game_id)

    def remember(self, game_id: str, head: Head) -> None:
        with self._cache_lock:
            self._cache[game_id] = head
            self._cache.move_to_end(game_id)
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)

    def cached_on(self, game_id: str, version: int, hash: str) -> Head | None:
        """The cached head when it is the log's head, at `version` ending on `hash`. One at
        or past `version` on another hash is no state of the log: it is dropped, so that no
        fold starts from it."""
        with self._cache_lock:
            cached = self._cache.get(game_id)
            if cached is None or (cached.version, cached.hash) == (version, hash):
                return cached
            if cached.version >= version:
                del self._cache[game_id]
        return None

    def forget(self, game_id: str) -> None:
        with self._cache_lock:
            self._cache.pop(game_id, None)

    def start(self, game_id: str, version: int) -> Head | None:
        """The newest state known at or before `version`: the cached head or a snapshot."""
        cached = self.cached(game_id)
        if cached is not None and cached.version > version:
            cached = None
        if cached is not None and version - cached.version < max(self.every, 1):
            return cached
        stored = self.nearest(game_id, version)
        if stored is None or (cached is not None and cached.version > stored.version):
            return cached
        return stored

    # -- folding ---------------------------------------------------------------------

    def fold(
        self,
        game_id: str,
        start: Head | None,
        upto: int | None,
        visit: Visit | None = None,
        rows: Iterable[StoredRow] | None = None,
    ) -> Head:
        """The state after `upto` (the newest when None), folded from `start` (the creation
        when None); `visit` sees every record folded and the state it made. `rows`: the
        store's rows after `start`, when the caller read them."""
        state = start.state if start else initial(GameId(game_id))
        version, last = (start.version, start.hash) if start else (0, GENESIS)
        loads, decode, evolve_one = json.loads, codec.decode, evolve.evolve
        upcasters, every = self.upcasters, self.every
        if rows is None:
            rows = self.store.rows(game_id, after=version, upto=upto)
        # Rows rather than Records: this loop is the whole cost of a cold rebuild.
        for row in rows:
            try:
                data = loads(row.data)
                private = None if row.private is None else loads(row.private)
                event = decode(row.type, row.schema_version, data, private, upcasters)
                state = evolve_one(state, event)
            except Exception as exc:  # a record evolve cannot fold: the log was edited
                raise CorruptLog(
                    "log_unreadable",
                    f"Game {game_id} cannot be rebuilt at version {row.version} ({exc!r}); "
                    "its log was changed outside the server: run verify.",
                ) from None
            version, last = row.version, row.hash
            if visit is not None:
                visit(record_of(row, data, private), state)
            if every and version % every == 0:
                self.keep(game_id, Head(version, last, state))
        if version == 0:
            raise UnknownGame(game_id)
        return Head(version, last, state)

    def keep(self, game_id: str, head: Head) -> None:
        """Store a snapshot of `head`, if its state is sound (a snapshot is a stored state)."""
        kept = self.snapshot_of(game_id, head)
        if kept is None:
            return
        try:
            self.store.save_snapshot(kept)
        except DATABASE_ERRORS as exc:
            # A snapshot only saves work: the command whose append passed it is recorded,
            # and must not be answered as failed (a full disk refuses this write too).
            log.warning("no snapshot of game %s at %s: %s", game_id, head.version, exc)

    def snapshot_of(self, game_id: str, head: Head) -> Kept | None:
        """The sealed snapshot row of `head`, or None when its state is not sound."""
        try:
            require_sound(head.state)
        except Unsound as exc:
            log.error("no snapshot of game %s at %s: %s", game_id, head.version, exc.problems)
            return None
        rules, known = head.state.rules, self._rules  # one read: other threads replace it
        if known is None or known.rules is not rules:
            plain_rules = snapshot.to_plain(rules)
            text = json.dumps(plain_rules, separators=(",", ":"))
            known = self._rules = _PlainRules(rules, plain_rules, text)
        plain = snapshot.state_to_plain(head.state, known.plain)
        del plain["rules"]  # written once a ruleset: the rest of the court has other fields
        state_json = f'{json.dumps(plain, separators=(",", ":"))[:-1]},"rules":{known.text}}}'
        return self.seal(Kept(game_id, head.version, self.format, head.hash, state_json))

    def seal(self, kept: Kept) -> Kept:
        """The row sealed with this server's instance secret."""
        kept = kept._replace(key_id=self.secret.key_id)
        return kept._replace(mac=self.secret.mac(sealed_text(kept)))

    def seal_of(self, kept: Kept) -> Seal:
        if kept.key_id != self.secret.key_id:
            return Seal.OTHER
        return Seal.OWN if self.secret.matches(sealed_text(kept), kept.mac) else Seal.BAD

    def due(self, before: int, after: int) -> bool:
        """Whether appending versions `before`+1 to `after` passed a snapshot version."""
        return bool(self.every) and after // self.every > before // self.every

    def nearest(self, game_id: str, version: int) -> Head | None:
        """The newest snapshot at or before `version` that may be trusted, or None. Rows
        sealed under another secret are not even read; a row that fails a check is passed
        over for the one before it."""
        if not self.every:
            return None
        upto, key = version, self.secret.key_id
        while (found := self.store.snapshot(game_id, self.format, key, upto)) is not None:
            head = self._trusted(game_id, found)
            if head is not None:
                return head
            upto = found.version - 1
        return None

    def stored(self, game_id: str) -> list[SnapshotMark]:
        """The game's snapshot rows in this server's format, however sealed, without their
        states."""
        return [m for m in self.store.snapshots(game_id) if m.format == self.format]

    def stored_at(self, game_id: str, version: int) -> Kept | None:
        return self.store.snapshot_at(game_id, version, self.format)

    def _trusted(self, game_id: str, found: Kept) -> Head | None:
        at = found.version
        if self.seal_of(found) is not Seal.OWN:
            log.warning("game %s: the snapshot at %s is not sealed by this server", game_id, at)
            return None
        stored = list(self.store.rows(game_id, after=at - 1, upto=at))
        if not stored or stored[0].hash != found.hash:
            log.warning("game %s: the snapshot at %s is not of this log; folding", game_id, at)
            return None
        try:
            state = snapshot.from_plain(json.loads(found.state))
            require_sound(state)
        except Exception as exc:
            log.warning("game %s: the snapshot at %s cannot be read (%r)", game_id, at, exc)
            return None
        if state.game_id != game_id:
            return None
        return Head(at, found.hash, state)
