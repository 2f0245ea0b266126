"""The one replay path: a game's state at any version, folded from the nearest known state.

Every rebuild goes through `Replay.fold` — the current court, `/versions/N`, the history, import
and the simulator — from the best starting point at hand: the service's cached head, or the
newest snapshot at or before the version asked for, or the game's creation. Folding past every
`every`-th version keeps a snapshot of the state there (court/snapshot.py); a snapshot is read
back only when it was written under this code's snapshot `FORMAT`, it ends on the log's own hash
at its version, and its state passes the invariants import enforces.
"""

from __future__ import annotations

import json
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from court import codec, evolve, snapshot
from court.chain import GENESIS, Record
from court.errors import CorruptLog, UnknownGame
from court.evolve import initial
from court.ids import GameId
from court.invariants import Unsound, require_sound
from court.ruleset import Ruleset
from court.state import CourtState
from server.ports import EventStore, Kept, record_of
from server.store.failures import DATABASE_ERRORS

log = logging.getLogger("small_council.replay")

# Called with each record folded past the starting point and the state right after it.
Visit = Callable[[Record, CourtState], None]


def state_format() -> str:
    """The format a snapshot is stored under: the number court/snapshot.py declares, bumped by
    hand whenever the same log would fold into another state. Nothing else: a change of the
    fold's code that folds every log as before keeps the stored snapshots."""
    return f"fold-{snapshot.FORMAT}"


@dataclass(frozen=True, slots=True)
class Head:
    """A game's state at a version, with the hash that version ends on."""

    version: int
    hash: str
    state: CourtState


class _PlainRules(NamedTuple):
    """A ruleset and its plain form, as snapshots write it."""

    rules: Ruleset | None
    plain: Any


class Replay:
    """Folds a game's stored records into states, keeping snapshots every `every` versions
    (0: none, and none read), beside a cache of the newest heads of `cache_size` games."""

    def __init__(
        self,
        store: EventStore,
        upcasters: Mapping[codec.UpcasterKey, codec.Upcaster],
        every: int,
        cache_size: int = 1024,
    ) -> None:
        self.store = store
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
        self, game_id: str, start: Head | None, upto: int | None, visit: Visit | None = None
    ) -> Head:
        """The state after `upto` (the newest when None), folded from `start` (the creation
        when None); `visit` sees every record folded and the state it made."""
        state = start.state if start else initial(GameId(game_id))
        version, last = (start.version, start.hash) if start else (0, GENESIS)
        loads, decode, evolve_one = json.loads, codec.decode, evolve.evolve
        upcasters, every = self.upcasters, self.every
        # Rows rather than Records: this loop is the whole cost of a cold rebuild.
        for row in self.store.rows(game_id, after=version, upto=upto):
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
            self.store.save_snapshot(*kept)
        except DATABASE_ERRORS as exc:
            # A snapshot only saves work: the command whose append passed it is recorded,
            # and must not be answered as failed (a full disk refuses this write too).
            log.warning("no snapshot of game %s at %s: %s", game_id, head.version, exc)

    def snapshot_of(self, game_id: str, head: Head) -> Kept | None:
        """The snapshot row of `head`, or None when its state is not sound."""
        try:
            require_sound(head.state)
        except Unsound as exc:
            log.error("no snapshot of game %s at %s: %s", game_id, head.version, exc.problems)
            return None
        rules, known = head.state.rules, self._rules  # one read: other threads replace it
        if known is None or known.rules is not rules:
            known = self._rules = _PlainRules(rules, snapshot.to_plain(rules))
        plain = snapshot.state_to_plain(head.state, known.plain)
        state_json = json.dumps(plain, separators=(",", ":"))
        return Kept(game_id, head.version, self.format, head.hash, state_json)

    def due(self, before: int, after: int) -> bool:
        """Whether appending versions `before`+1 to `after` passed a snapshot version."""
        return bool(self.every) and after // self.every > before // self.every

    def nearest(self, game_id: str, version: int) -> Head | None:
        """The newest snapshot at or before `version` that may be trusted, or None."""
        if not self.every:
            return None
        found = self.store.snapshot(game_id, self.format, version)
        if found is None:
            return None
        at = found.version
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
