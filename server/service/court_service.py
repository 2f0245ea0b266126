"""The court service: load a game, decide, append with the expected version, publish.

Adapters (HTTP, Socket.IO, CLI) call only this module. It owns the per-game lock that applies
one game's commands one at a time and the retry on a concurrent append, bounded in time; its
replay path (server/service/replay.py) keeps the cached current states and the snapshots."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from court.audit import Rebuilding
from court.commands import (
    SPECTATOR,
    Actor,
    Command,
    CreateGame,
    Drawn,
    Secret,
    Signature,
    SignedMove,
    describe,
    needs,
    supplied,
)
from court.decide.signed import decide_move
from court.errors import (
    BadToken,
    ConcurrencyError,
    Conflict,
    CourtError,
    EngineDefect,
    NotFound,
    UnknownGame,
)
from court.events import Event, SeatHanded
from court.evolve import initial
from court.ids import GameId
from court.log import codec
from court.log.chain import GENESIS, Record, Verification
from court.log.records import chained
from court.model.tokens import actor_of, still_acting
from court.soundness.invariants import Unsound, require_sound
from court.state import CourtState
from server.keys import ServerKeys
from server.outages import Outage
from server.service.filled import filled
from server.service.filled_table import Past
from server.service.locks import FifoLock, FifoLocks, pause_after
from server.service.ports import (
    EventStore,
    HostPresence,
    Publisher,
    SecretSource,
    SystemSecrets,
    iso_time,
    time_of,
    token_digest,
)
from server.service.replay import SNAPSHOT_EVERY, Head, Replay
from server.service.table_links import link_token
from server.service.whole_logs import Logs
from server.store.rows import StoredRow

log = logging.getLogger("small_council.service")


@dataclass(frozen=True, slots=True)
class Outcome:
    version: int
    records: tuple[Record, ...]
    state: CourtState
    events: tuple[Event, ...] = ()
    # The secrets drawn or made for the command: the new token among them goes to its sender.
    secrets: Drawn = field(default_factory=Drawn)

    @property
    def token(self) -> str | None:
        """The seat's new token (a join's, a hand-over's, a new game's host's, a link's)."""
        return self.secrets.one(Secret.TOKEN) or self.secrets.one(Secret.LINK)

    def record_of(self, kind: type[Event]) -> Record:
        """The record of the first event of this kind the command led to."""
        return next(r for e, r in zip(self.events, self.records, strict=True) if type(e) is kind)


class CourtService:
    def __init__(
        self,
        store: EventStore,
        *,
        clock: Callable[[], float] = time.time,
        secret_source: SecretSource | None = None,
        publisher: Publisher | None = None,
        race_seconds: float = 2.0,
        cache_size: int = 1024,
        upcasters: Mapping[codec.UpcasterKey, codec.Upcaster] = codec.UPCASTERS,
        snapshot_every: int = SNAPSHOT_EVERY,
        presence: HostPresence | None = None,
        keys: ServerKeys | None = None,
        database: Outage | None = None,
        rebuild: Rebuilding | None = None,
    ) -> None:
        self.store, self.presence = store, presence
        self.keys = keys or ServerKeys.ephemeral()
        self.database = database or Outage("database")  # reported by the adapters too
        self.clock, self.secrets = clock, secret_source or SystemSecrets()
        self.publishers: list[Publisher] = [publisher] if publisher is not None else []
        self.race_seconds, self.upcasters = race_seconds, upcasters
        self.pause: Callable[[float], None] = time.sleep
        self.timer: Callable[[], float] = time.monotonic
        self._locks = FifoLocks()
        self.replay = Replay(store, upcasters, snapshot_every, cache_size, self.keys.secret)
        self.logs = Logs(store, self.replay, upcasters, cache_size, rebuild)

    # -- reading -----------------------------------------------------------

    def decode(self, record: Record) -> Event:
        return codec.decode(
            record.type, record.schema_version, record.data, record.private, self.upcasters
        )

    def current(self, game_id: str) -> Head:
        """The game's newest state, from the cache when it ends on the stored head's hash."""
        stored = self.store.head(game_id)
        if stored is None:
            raise UnknownGame(game_id)
        cached = self.replay.cached_on(game_id, stored.version, stored.hash)
        if cached is not None:
            return cached
        head = self.replay.fold(game_id, self.replay.start(game_id, stored.version), upto=None)
        self.replay.remember(game_id, head)
        return head

    def latest(self, game_id: str) -> Head:
        """The newest head this process knows, without asking the store when one is cached:
        this process's own appends are cached as they are made, another process's are read
        from the log when it announces them (server/live/relay.py) or when an append of ours
        loses the race to it: the cache holds nothing the database does not."""
        cached = self.replay.cached(game_id)
        return cached if cached is not None else self.current(game_id)

    def newer(self, game_id: str) -> tuple[Head, list[Record]]:
        """The newest state, and the records another process appended after the head cached
        here (one catch-up read: `EventStore.recent`); none for a game not cached here."""
        cached = self.replay.cached(game_id)
        if cached is None:
            return self.current(game_id), []
        records: list[Record] = []
        rows = self.store.recent(game_id, after=cached.version)
        head = self.replay.fold(game_id, cached, None, lambda r, _: records.append(r), rows)
        if records:
            self.replay.remember(game_id, head)
        return head, records

    def state_at(self, game_id: str, version: int, newest: Head | None = None) -> Head:
        """The court as it stood right after `version`; `newest`, the game's head when the
        caller has read it already."""
        newest = newest or self.current(game_id)
        if not 1 <= version <= newest.version:
            raise NotFound(
                "unknown_version",
                f"Game {game_id} has versions 1 to {newest.version}; {version} does not exist.",
            )
        if version == newest.version:
            return newest
        return self.replay.fold(game_id, self.replay.start(game_id, version), upto=version)

    def told(
        self, game_id: str, *, after: int, limit: int, newest: Head | None = None
    ) -> list[tuple[Record, CourtState]]:
        """The records after version `after` (at most `limit`), each with the court as it
        stood right after it: the history's page; `newest`, the head the caller read."""
        if newest is None:
            self.current(game_id)
        page: list[tuple[Record, CourtState]] = []

        def keep(record: Record, state: CourtState) -> None:
            if record.version > after:
                page.append((record, state))

        start = self.replay.start(game_id, after) if after else None
        self.replay.fold(game_id, start, upto=after + limit, visit=keep)
        return page

    def records(
        self, game_id: str, *, after: int = 0, upto: int | None = None, limit: int | None = None
    ) -> list[Record]:
        return self.logs.records(game_id, after=after, upto=upto, limit=limit)

    def log(self, game_id: str, *, upto: int | None = None) -> Iterator[Record]:
        """Every record of the game up to `upto` (a head the caller read: the game is
        there), read from the store a page at a time."""
        if upto is None and self.store.head(game_id) is None:
            raise UnknownGame(game_id)
        return self.logs.pages(game_id, upto=upto)

    def verify(self, game_id: str) -> Verification:
        """Check the stored log deeply from version 1 (server/service/whole_logs.py)."""
        return self.logs.verify(game_id)

    def verify_so_far(self, game_id: str) -> Verification:
        """The same check of the records after the last version this process checked
        (server/service/whole_logs.py says why that is sound); from version 1 the first time."""
        return self.logs.verify_so_far(game_id)

    def chain(self, game_id: str, first: int, last: int) -> tuple[str, list[StoredRow]]:
        """Records `first` to `last` as stored, after the hash of the record before them."""
        return self.logs.chain(game_id, first, last)

    def games(self) -> list[str]:
        return self.store.games()

    def length(self, game_id: str) -> int | None:
        """How many events a game holds (None: no such game), without loading it."""
        head = self.store.head(game_id)
        return None if head is None else head.version

    # -- who is asking -----------------------------------------------------

    def authenticate(self, game_id: str, token: str | None) -> tuple[Actor, Head]:
        """The actor a seat token stands for in this game (no token is a spectator), and the
        head it was read on: a reader renders that head, the store asked once."""
        head = self.current(game_id)
        if not token:
            return SPECTATOR, head
        actor = actor_of(head.state, token_digest(token))
        if actor is None:
            raise BadToken("bad_token", "This token does not belong to any seat of this game.")
        return actor, head

    @staticmethod
    def acting(state: CourtState, actor: Actor) -> Actor:
        """The seat check, the one for every path: the actor as his token stands on `state`
        (the host's powers go with the host role); a seat given up, handed to a new token or
        removed acts no more. An adapter knows the actor of a token, or of a connection, on
        the head it read, which may lag behind the one a command is decided on."""
        acting = still_acting(state, actor)
        if acting is None:
            raise BadToken(
                "bad_token",
                "This seat was given up or handed to a new link; its token opens nothing now.",
            )
        return acting

    # -- writing -----------------------------------------------------------

    def handle(
        self, game_id: str | None, command: Command, actor: Actor, signed: Signature | None = None
    ) -> Outcome:
        """Decide and append one command (`signed` on the sender's device, when it was), one at
        a time per game, deciding again on a lost race for `race_seconds`. The secrets the
        command needs are drawn first, once (court/commands/secrets.py); a command that came
        with them (a signed move's, committed to by its device) gets none. `game_id` is None
        for a new game: its id is one of them."""
        drawn = self._draw(needs(command))
        command = supplied(command, drawn)
        if isinstance(command, CreateGame):
            game_id = command.game_id
        if not game_id:
            raise UnknownGame(str(game_id))
        move = command if signed is None else SignedMove(command=command, signature=signed)
        with self._locks.of(game_id):
            began, attempt = self.timer(), 0
            while attempt == 0 or self.timer() - began < self.race_seconds:
                attempt += 1
                head = self._head_for(game_id, command)
                recorded_at, now = _moment(self.clock())
                decided = filled(
                    move, game_id, head, self.presence, Past(self, game_id), self.keys.secret
                )
                try:
                    acting = self.acting(head.state, actor)
                    events, state = self._decide(game_id, head.state, decided, acting, now)
                except CourtError:
                    if self._stale(game_id, head):
                        continue
                    raise
                records, encoded = chained(
                    game_id, (head.version, head.hash), events, acting.seat, recorded_at
                )
                try:
                    self.store.append(records, head.version, encoded)
                except ConcurrencyError:
                    # Another writer (another process) got there first: fold its records
                    # into the cached head and decide again on that (server/service/locks.py).
                    self.current(game_id)
                    self.pause(pause_after(attempt))
                    continue
                new_head = Head(records[-1].version, records[-1].hash, state)
                self.replay.remember(game_id, new_head)
                if self.replay.due(head.version, new_head.version):
                    self.replay.keep(game_id, new_head)
                self._publish(game_id, records, state)
                secrets = Drawn(drawn.values + self._links(game_id, events))
                return Outcome(new_head.version, tuple(records), state, tuple(events), secrets)
        raise Conflict("busy", "The game changed too often while deciding; please try again.")

    def _draw(self, wanted: Sequence[Secret]) -> Drawn:
        """Each secret from the secret source, in the order the command named them."""
        if not wanted:
            return _NONE_DRAWN
        source: dict[Secret, Callable[[], str]] = {
            Secret.TOKEN: self.secrets.token,
            Secret.MASTER_TOKEN: self.secrets.token,
            Secret.GAME_ID: self.secrets.game_id,
            Secret.DICE_SEED: self.secrets.seed,
            Secret.SALT: self.secrets.salt,
        }
        return Drawn(tuple((kind, source[kind]()) for kind in wanted))

    def _links(self, game_id: str, events: Sequence[Event]) -> tuple[tuple[Secret, str], ...]:
        """The link a table's vote handed a seat to (server/service/table_links.py): made again
        from the instance secret, and told only where it is the token the log gave the seat."""
        found = []
        for event in events:
            if isinstance(event, SeatHanded):
                link = link_token(self.keys.secret, game_id, event.seat, event.at_version)
                if token_digest(link) == event.token_sha256:
                    found.append((Secret.LINK, link))
        return tuple(found)

    def _decide(
        self, game_id: str, state: CourtState, command: Any, actor: Actor, now: float
    ) -> tuple[tuple[Event, ...], CourtState]:
        """Decide, checking every state on the way with the invariants import enforces. A
        failure that is not a rule's refusal is an engine defect: logged with the game and
        the command (secrets left out), refused with a code, and nothing is stored."""
        try:
            return decide_move(state, command, actor, now, check=require_sound)
        except CourtError:
            raise
        except Unsound as exc:
            log.error(
                "engine defect: game %s, %s by %s would break the court: %s",
                game_id,
                describe(command),
                actor,
                "; ".join(exc.problems),
            )
        except Exception:
            log.exception(
                "engine defect: game %s, deciding %s by %s", game_id, describe(command), actor
            )
        raise EngineDefect()

    def _publish(self, game_id: str, records: Sequence[Record], state: CourtState) -> None:
        """Tell every publisher; the records are stored, so one failing never fails the
        command or keeps the others from hearing of it."""
        for publisher in self.publishers:
            try:
                publisher.publish(GameId(game_id), records, state)
            except Exception:
                log.exception("publishing game %s version %s", game_id, records[-1].version)

    def _head_for(self, game_id: str, command: Command) -> Head:
        """The state to decide on: the cached head, trusted optimistically. Another process
        may have appended since; then the append fails on the version and the command is
        decided again on the stored head."""
        if isinstance(command, CreateGame):
            if self.store.head(game_id) is not None:
                raise CourtError("game_exists", "A game with this id already exists.")
            return Head(0, GENESIS, initial(GameId(game_id)))
        return self.latest(game_id)

    def _stale(self, game_id: str, head: Head) -> bool:
        """Whether the log moved past `head` (a refusal may then be based on old news)."""
        if getattr(self.store.head(game_id), "version", 0) == head.version:
            return False
        self.replay.forget(game_id)
        return True

    def lock(self, game_id: str) -> FifoLock:
        """The game's command lock; publishing happens under it (no push slips past)."""
        return self._locks.of(game_id)

    # -- moving whole logs -------------------------------------------------

    def import_log(self, lines: Iterable[dict[str, Any]]) -> Verification:
        """Store a whole exported log as a new game, checked as `verify` checks a stored one
        while it is read (whole_logs.py); refused whole at the first failing version."""
        game_id, result = self.logs.import_log(lines)
        with self._locks.of(game_id):
            self.current(game_id)  # from the snapshot the import kept nearest the head
        return result


_NONE_DRAWN = Drawn()  # what a command that needs no secret draws


def _moment(seconds: float) -> tuple[str, float]:
    """A command's time as its records name it, and as it is decided at: the very time the
    text names, so that deciding it again from its records gives the same records."""
    recorded_at = iso_time(seconds)
    return recorded_at, time_of(recorded_at)
