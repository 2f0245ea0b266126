"""Several server processes: each append, each talk line and each change of who is connected
is announced on a Redis channel; every other process then pushes what is new to its own
clients of that game, read from the database (presence: from Redis), and watches the game's
next deadline.

An announcement is a notice, never a fact: "game G stands at version N, ending on hash H, its
open step is due at D", "game G has a talk line at position P", "game G's presence changed".
Whoever can publish on the channel can make a process look at the database for nothing, never
put a record, a line or a checkpoint into a page: what a process pushes, signs and decides on
is read from the database (or is its own append), and a deadline only says when to look
whether the step is overdue, which the stored state decides. So a lost or late announcement
costs a delay, never a record or a line: the next one (or a client's catch-up on reconnect)
brings everything after the process's cursor; announcements that could not be sent are sent
once Redis answers again, and a process that lost the channel catches up every game it
follows once it has it back.
"""

from __future__ import annotations

import json
import logging
import math
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlsplit

import redis
from redis.backoff import NoBackoff
from redis.exceptions import RedisError
from redis.retry import Retry

from court.decide.rounds import next_deadline
from court.ids import GameId
from court.log.chain import Record
from court.state import CourtState
from court.talk import TalkLine
from server.live.deadlines import DeadlineWatcher
from server.live.pushes import RoomPusher
from server.live.talk import TalkPusher
from server.outages import Outage
from server.store.failures import DATABASE_ERRORS, log_failure
from server.store.group_commit import GroupCommit, Item

log = logging.getLogger("small_council.relay")

CHANNEL = "small-council:appended"
WORKERS = 4  # threads pushing other processes' news to this process's clients
POLL_SECONDS = 1.0  # how often the listener looks whether it was stopped
RETRY_SECONDS = 1.0  # before a failed catch-up is tried again
BACKOFF_SECONDS = (0.1, 0.5, 1.0, 2.0, 5.0)  # between attempts to reach Redis again
ANNOUNCE_MOST = 256  # announcements sent in one round trip at most
# What an announcement is of; each kind has its catch-up (`Relay.catch_ups`).
COURT, TALK, PRESENCE = "court", "talk", "presence"


def without_password(url: str) -> bool:
    """Whether a Redis URL names no password (in its user part or as `?password=`): whoever
    reaches that Redis may then write on the channel and into the presence book."""
    parts = urlsplit(url)
    return not parts.password and not parse_qs(parts.query).get("password")


def redis_client(url: str) -> redis.Redis:
    """The client every part of a process shares (thread-safe, pooled). It gives up fast
    when Redis is away: a connect or a presence write must not hold a request for long."""
    return redis.Redis.from_url(
        url, socket_connect_timeout=1.0, socket_timeout=5.0, retry=Retry(NoBackoff(), 1)
    )


class Relay:
    """A publisher for the service and the talk service (announce), and the listener of the
    other processes' announcements (catch up, watch deadlines). `outage` is Redis's."""

    def __init__(
        self,
        client: redis.Redis,
        process_id: str,
        pusher: RoomPusher,
        watcher: DeadlineWatcher,
        talk: TalkPusher,
        outage: Outage,
        *,
        workers: int = WORKERS,
    ) -> None:
        self.redis = client
        self.process_id = process_id
        self.pusher = pusher
        self.watcher = watcher
        self.talk = talk
        self.outage = outage
        # The presence of a game to this process's clients: set once the namespace exists.
        self.push_presence: Callable[[str], object] = lambda game_id: None
        self._workers = workers
        # (kind, game) to catch up, oldest first -> the version and hash last announced
        self._dirty: dict[tuple[str, str], tuple[int, str] | None] = {}
        self._unsent: dict[tuple[str, str], str] = {}  # (kind, game) -> its latest announcement
        self._wake = threading.Condition()
        self._stopped = threading.Event()
        self._threads: list[threading.Thread] = []
        self._announcements: GroupCommit[tuple[tuple[str, str], str]] = GroupCommit(
            self._announce, ANNOUNCE_MOST
        )

    def catch_ups(self) -> dict[str, Callable[[str], object]]:
        return {COURT: self.pusher.catch_up, TALK: self.talk.catch_up, PRESENCE: self.push_presence}

    def followed(self, kind: str) -> list[str]:
        """The games with a client here, for whom announcements of this kind matter."""
        return self.talk.games() if kind == TALK else self.pusher.games()

    # -- announcing --------------------------------------------------------------

    def publish(self, game_id: GameId, records: Sequence[Record], state: CourtState) -> None:
        """Announce an append (the service calls this under the game's lock, after the
        commit). Without Redis the command still stands: the other processes' clients get
        its records once Redis answers again, or when they reconnect."""
        last = records[-1]
        notice = {"version": last.version, "hash": last.hash, "deadline": next_deadline(state)}
        self._submit(COURT, game_id, notice)

    def publish_talk(self, line: TalkLine) -> None:
        """Announce a line just stored: its position alone, neither its text nor its parties."""
        self._submit(TALK, line.game_id, {"talk": line.position})

    def publish_presence(self, game_id: str) -> None:
        """Announce that someone came or went: each process reads the presence from Redis."""
        self._submit(PRESENCE, game_id, {"presence": True})

    def _submit(self, kind: str, game_id: str, fields: dict[str, Any]) -> None:
        """Announcements made while Redis answers an earlier one go in one round trip
        (server/store/group_commit.py); while Redis is known to be away they wait for it."""
        message = json.dumps({"game": game_id, **fields, "origin": self.process_id})
        if self.outage.down:
            with self._wake:
                self._unsent[(kind, game_id)] = message
            return
        self._announcements.submit(((kind, game_id), message))

    def _announce(self, group: Sequence[Item[tuple[tuple[str, str], str]]]) -> None:
        pipe = self.redis.pipeline(transaction=False)
        for item in group:
            pipe.publish(CHANNEL, item.work[1])
        try:
            pipe.execute()
        except RedisError as exc:
            self.outage.failed(exc)
            with self._wake:
                self._unsent.update(item.work for item in group)
            return
        self.outage.passed()

    def _send_unsent(self) -> None:
        """The announcements kept while Redis was away (only a game's latest of each kind:
        it brings everything before it)."""
        with self._wake:
            unsent, self._unsent = self._unsent, {}
        if not unsent:
            return
        pipe = self.redis.pipeline(transaction=False)
        for message in unsent.values():
            pipe.publish(CHANNEL, message)
        try:
            pipe.execute()
        except RedisError:
            with self._wake:
                self._unsent = {**unsent, **self._unsent}
            raise
        self.outage.passed()

    # -- listening ---------------------------------------------------------------

    def start(self) -> None:
        self._threads = [threading.Thread(target=self._listen, name="relay-listen", daemon=True)]
        self._threads += [
            threading.Thread(target=self._work, name=f"relay-push-{i}", daemon=True)
            for i in range(self._workers)
        ]
        for thread in self._threads:
            thread.start()

    def stop(self) -> None:
        self._stopped.set()
        with self._wake:
            self._wake.notify_all()
        for thread in self._threads:
            thread.join(timeout=POLL_SECONDS * 5)

    def received(self, data: bytes | str) -> None:
        """One announcement from the channel: whatever it holds, at most a look at the
        database (or at Redis's presence) for a game followed here, and a deadline watched."""
        notice = Notice.read(data)
        if notice is None:
            log.warning("ignored a malformed announcement: %r", data[:200])
            return
        if notice.origin == self.process_id:
            return
        if notice.deadline is not None:
            self.watcher.watch_deadline(notice.game_id, notice.deadline)
        if notice.game_id in self.followed(notice.kind):
            self.mark(notice.kind, notice.game_id, notice.head)

    def mark(self, kind: str, game_id: str, head: tuple[int, str] | None = None) -> None:
        """Catch the game up soon; a game already waiting is caught up once. `head`: the
        version and hash an announcement named, which the database should bear out."""
        with self._wake:
            self._dirty[(kind, game_id)] = head
            self._wake.notify()

    def _listen(self) -> None:
        failures = 0
        while not self._stopped.is_set():
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                pubsub.subscribe(CHANNEL)
                self.outage.passed()
                if failures:
                    # Announcements made while the channel was out of reach are lost: look
                    # at the database (and Redis's presence) for every game followed here.
                    for kind in (COURT, TALK, PRESENCE):
                        for game_id in self.followed(kind):
                            self.mark(kind, game_id)
                failures = 0
                while not self._stopped.is_set():
                    self._send_unsent()
                    message = pubsub.get_message(timeout=POLL_SECONDS)
                    if message is not None and message.get("type") == "message":
                        self.received(message["data"])
            except RedisError as exc:
                self.outage.failed(exc)
                pause = BACKOFF_SECONDS[min(failures, len(BACKOFF_SECONDS) - 1)]
                failures += 1
                self._stopped.wait(pause)
            finally:
                pubsub.close()

    def _work(self) -> None:
        while True:
            with self._wake:
                while not self._dirty and not self._stopped.is_set():
                    self._wake.wait()
                if self._stopped.is_set():
                    return
                (kind, game_id), head = next(iter(self._dirty.items()))
                del self._dirty[(kind, game_id)]
            try:
                if kind == COURT:
                    self.pusher.catch_up(game_id, head)
                else:
                    self.catch_ups()[kind](game_id)
            except DATABASE_ERRORS as exc:
                log_failure(log, f"catching up game {game_id}", exc, self.database)
                self._stopped.wait(RETRY_SECONDS)
                self.mark(kind, game_id)
            except RedisError as exc:  # presence is read from Redis
                self.outage.failed(exc)
            except Exception:
                log.exception("could not catch up the %s of game %s", kind, game_id)

    @property
    def database(self) -> Outage:
        return self.pusher.service.database


@dataclass(frozen=True, slots=True)
class Notice:
    """An announcement as read from the channel: which game, of what kind, from which
    process; a court announcement's version and hash, and a deadline, when it names them."""

    game_id: str
    kind: str
    origin: object
    head: tuple[int, str] | None
    deadline: float | None

    @classmethod
    def read(cls, data: bytes | str) -> Notice | None:
        """The notice, or None for anything but an announcement of this shape."""
        try:
            message = json.loads(data)
        except ValueError:
            return None
        if not isinstance(message, dict) or not isinstance(message.get("game"), str):
            return None
        deadline, version, hashed = (message.get(k) for k in ("deadline", "version", "hash"))
        if deadline is not None and not _finite(deadline):
            return None
        kind = TALK if "talk" in message else PRESENCE if "presence" in message else COURT
        head: tuple[int, str] | None = None
        if type(version) is int and isinstance(hashed, str):
            head = (version, hashed)
        due = None if deadline is None else float(deadline)
        return cls(message["game"], kind, message.get("origin"), head, due)


def _finite(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
