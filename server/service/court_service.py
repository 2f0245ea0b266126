"""The court service: load a game, decide, append with the expected version, publish.

Adapters (HTTP, Socket.IO, CLI) call only this module. It owns the per-game lock that applies
one game's commands one at a time and the retry on a concurrent append, bounded in time; its
replay path (server/service/replay.py) keeps the cached current states and the snapshots."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from court.audit import Rebuilding
from court.commands import (
    SPECTATOR,
    Actor,
    Command,
    CreateGame,
    JoinSeat,
    MarkerChoice,
    PlaceBallot,
    PlaceBid,
    Signature,
    SignedMove,
    describe,
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
from court.events import BallotPlaced, BidPlaced, Event
from court.evolve import initial
from court.ids import GameId, HouseId, NobleId
from court.log import codec
from court.log.chain import GENESIS, Record, Verification
from court.log.receipts import ballot_receipt, bid_receipt
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
    GameMaster,
    HostPresence,
    Publisher,
    SecretSource,
    SystemSecrets,
    iso_time,
    log_moment,
    token_digest,
)
from server.service.replay import SNAPSHOT_EVERY, Head, Replay
from server.service.whole_logs import Logs
from server.store.rows import StoredRow

log = logging.getLogger("small_council.service")


@dataclass(frozen=True, slots=True)
class Outcome:
    version: int
    records: tuple[Record, ...]
    state: CourtState
    events: tuple[Event, ...] = ()

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

    def state_at(self, game_id: str, version: int) -> Head:
        """The court as it stood right after `version`."""
        newest = self.current(game_id)
        if not 1 <= version <= newest.version:
            raise NotFound(
                "unknown_version",
                f"Game {game_id} has versions 1 to {newest.version}; {version} does not exist.",
            )
        if version == newest.version:
            return newest
        return self.replay.fold(game_id, self.replay.start(game_id, version), upto=version)

    def told(self, game_id: str, *, after: int, limit: int) -> list[tuple[Record, CourtState]]:
        """The records after version `after` (at most `limit`), each with the court as it
        stood right after it: the history's page."""
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
        """Every record of the game up to `upto`, read from the store a page at a time."""
        if self.store.head(game_id) is None:
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

    def authenticate(self, game_id: str, token: str | None) -> Actor:
        """The actor a seat token stands for in this game; no token is a spectator."""
        state = self.current(game_id).state
        if not token:
            return SPECTATOR
        actor = actor_of(state, token_digest(token))
        if actor is None:
            raise BadToken("bad_token", "This token does not belong to any seat of this game.")
        return actor

    # -- writing -----------------------------------------------------------

    def create_game(
        self,
        *,
        ruleset: dict[str, Any],
        players: int,
        host_name: str,
        game_master: GameMaster | None = None,
        **choices: Any,
    ) -> tuple[GameId, str, Outcome]:
        """Create a game; returns its id, the host's secret token and the outcome. `game_master`
        records facts without playing (section 9); `choices` are the host's (CreateGame's
        variants, deadlines, clocks, host_role, table_votes, first_player_seat, last_round,
        listed)."""
        token = self.secrets.token()
        game_id = GameId(self.secrets.game_id())
        command = CreateGame(
            game_id=game_id,
            ruleset=ruleset,
            players=players,
            host_name=host_name,
            host_token_sha256=token_digest(token),
            dice_seed=self.secrets.seed(),
            game_master_name=game_master.name if game_master else None,
            game_master_token_sha256=token_digest(game_master.token) if game_master else None,
            **{name: value for name, value in choices.items() if value is not None},
        )
        return game_id, token, self.handle(game_id, command, Actor(host=True))

    def join(
        self, game_id: str, actor: Actor, *, house: str, player_name: str, invite: str | None = None
    ) -> tuple[str, Outcome]:
        """Take a seat (an unlisted game's with its invite); the seat's token, the outcome."""
        joined = partial(JoinSeat, house=HouseId(house), player_name=player_name, invite=invite)
        return self.with_new_token(game_id, actor, lambda digest: joined(token_sha256=digest))

    def with_new_token(
        self, game_id: str, actor: Actor, command: Callable[[str], Command], **signed: Any
    ) -> tuple[str, Outcome]:
        """Send the command made with a fresh token's digest; the token and the outcome."""
        token = self.secrets.token()
        return token, self.handle(game_id, command(token_digest(token)), actor, **signed)

    def place_ballot(
        self, game_id: str, actor: Actor, markers: Sequence[tuple[str, str]]
    ) -> tuple[Outcome, dict[str, Any]]:
        """Place (kind, candidate) markers with fresh salts; returns the outcome and the
        placing player's receipt (court/log/receipts.py)."""
        command = PlaceBallot(
            markers=tuple(
                MarkerChoice(kind=kind, candidate=NobleId(candidate), salt=self.secrets.salt())
                for kind, candidate in markers
            )
        )
        outcome = self.handle(game_id, command, actor)
        return outcome, ballot_receipt(outcome.record_of(BallotPlaced))

    def place_bid(self, game_id: str, actor: Actor, amount: int) -> tuple[Outcome, dict[str, Any]]:
        """Place a sealed bid for the fourth council seat with a fresh salt (R-4.6); returns the
        outcome and the bidder's receipt (court/log/receipts.py)."""
        outcome = self.handle(game_id, PlaceBid(amount=amount, salt=self.secrets.salt()), actor)
        return outcome, bid_receipt(outcome.record_of(BidPlaced))

    def handle(
        self, game_id: str, command: Command, actor: Actor, signed: Signature | None = None
    ) -> Outcome:
        """Decide and append one command (`signed` on the sender's device, when it was), one at
        a time per game, deciding again on a lost race for `race_seconds`."""
        move = command if signed is None else SignedMove(command=command, signature=signed)
        with self._locks.of(game_id):
            began, attempt = self.timer(), 0
            while attempt == 0 or self.timer() - began < self.race_seconds:
                attempt += 1
                head = self._head_for(game_id, command)
                now = log_moment(self.clock())
                decided = filled(
                    move, game_id, head, self.presence, Past.of(self, game_id), self.keys.secret
                )
                try:
                    acting = self._acting(head.state, actor)
                    events, state = self._decide(game_id, head.state, decided, acting, now)
                except CourtError:
                    if self._stale(game_id, head):
                        continue
                    raise
                records, encoded = chained(
                    game_id, (head.version, head.hash), events, acting.seat, iso_time(now)
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
                return Outcome(new_head.version, tuple(records), state, tuple(events))
        raise Conflict("busy", "The game changed too often while deciding; please try again.")

    @staticmethod
    def _acting(state: CourtState, actor: Actor) -> Actor:
        """The actor on the state the command is decided on: the adapters check a seat on
        the head they know, which may lag behind another process's appends."""
        acting = still_acting(state, actor)
        if acting is None:
            raise BadToken("bad_token", "This seat was given up; its token opens nothing now.")
        return acting

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
