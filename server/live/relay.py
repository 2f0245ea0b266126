"""Several server processes: each append is announced on a Redis channel; every other process
then pushes the new records to its own clients of that game, read from the log, and watches
the game's next deadline.

An announcement only says "game G stands at version N, its open step is due at D". The
records come from the database, so a lost or late announcement costs a delay, never a
record: the next one (or a client's catch-up on reconnect) brings everything after the
process's cursor.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Sequence
from typing import Any

import redis
from redis.backoff import NoBackoff
from redis.exceptions import RedisError
from redis.retry import Retry

from court.chain import Record
from court.decide.rounds import next_deadline
from court.ids import GameId
from court.state import CourtState
from server.batching import GroupCommit, Item
from server.live.deadlines import DeadlineWatcher
from server.live.pushes import RoomPusher
from server.store.failures import DATABASE_ERRORS

log = logging.getLogger("small_council.relay")

CHANNEL = "small-council:appended"
WORKERS = 4  # threads pushing other processes' records to this process's clients
POLL_SECONDS = 1.0  # how often the listener looks whether it was stopped
RETRY_SECONDS = 1.0  # before a failed catch-up is tried again
BACKOFF_SECONDS = (0.1, 0.5, 1.0, 2.0, 5.0)  # between attempts to reach Redis again
ANNOUNCE_MOST = 256  # announcements sent in one round trip at most


def redis_client(url: str) -> redis.Redis:
    """The client every part of a process shares (thread-safe, pooled). It gives up fast
    when Redis is away: a connect or a presence write must not hold a request for long."""
    return redis.Redis.from_url(
        url, socket_connect_timeout=1.0, socket_timeout=5.0, retry=Retry(NoBackoff(), 1)
    )


class Relay:
    """A publisher for the service (announce) and the listener of the other processes'
    announcements (catch up, watch deadlines)."""

    def __init__(
        self,
        client: redis.Redis,
        process_id: str,
        pusher: RoomPusher,
        watcher: DeadlineWatcher,
        *,
        workers: int = WORKERS,
    ) -> None:
        self.redis = client
        self.process_id = process_id
        self.pusher = pusher
        self.watcher = watcher
        self._workers = workers
        self._dirty: dict[str, None] = {}  # games to catch up, oldest first
        self._wake = threading.Condition()
        self._stopped = threading.Event()
        self._threads: list[threading.Thread] = []
        self._announcements: GroupCommit[str] = GroupCommit(self._announce, ANNOUNCE_MOST)

    # -- announcing --------------------------------------------------------------

    def publish(self, game_id: GameId, records: Sequence[Record], state: CourtState) -> None:
        """Announce an append (the service calls this under the game's lock, after the
        commit); announcements made while Redis answers an earlier one go in one round
        trip (server/batching.py). Without Redis the command still stands: the other
        processes' clients get its records with the game's next announcement or when they
        reconnect."""
        message = {
            "game": game_id,
            "version": records[-1].version,
            "deadline": next_deadline(state),
            "origin": self.process_id,
        }
        self._announcements.submit(json.dumps(message))

    def _announce(self, group: Sequence[Item[str]]) -> None:
        pipe = self.redis.pipeline(transaction=False)
        for item in group:
            pipe.publish(CHANNEL, item.work)
        try:
            pipe.execute()
        except RedisError:
            log.warning(
                "could not announce %d appends to the other processes: %s",
                len(group),
                ", ".join(item.work for item in group[:3]),
                exc_info=True,
            )

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
        """One announcement from the channel."""
        try:
            message: dict[str, Any] = json.loads(data)
            game_id, origin = str(message["game"]), message.get("origin")
            deadline = message.get("deadline")
        except (ValueError, TypeError, KeyError):
            log.warning("ignored a malformed announcement: %r", data)
            return
        if origin == self.process_id:
            return
        if deadline is not None:
            self.watcher.watch_deadline(game_id, float(deadline))
        if game_id in self.pusher.games():
            self.mark(game_id)

    def mark(self, game_id: str) -> None:
        """Catch the game up soon; a game already waiting is caught up once."""
        with self._wake:
            self._dirty[game_id] = None
            self._wake.notify()

    def _listen(self) -> None:
        failures = 0
        while not self._stopped.is_set():
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                pubsub.subscribe(CHANNEL)
                if failures:
                    log.info("listening to the other processes again")
                    # Announcements made while the channel was out of reach are lost.
                    for game_id in self.pusher.games():
                        self.mark(game_id)
                failures = 0
                while not self._stopped.is_set():
                    message = pubsub.get_message(timeout=POLL_SECONDS)
                    if message is not None and message.get("type") == "message":
                        self.received(message["data"])
            except RedisError:
                pause = BACKOFF_SECONDS[min(failures, len(BACKOFF_SECONDS) - 1)]
                failures += 1
                log.warning("lost the other processes' announcements; again in %.1f s", pause)
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
                game_id = next(iter(self._dirty))
                del self._dirty[game_id]
            try:
                self.pusher.catch_up(game_id)
            except DATABASE_ERRORS:
                log.warning("could not catch up game %s; trying again", game_id, exc_info=True)
                self._stopped.wait(RETRY_SECONDS)
                self.mark(game_id)
            except Exception:
                log.exception("could not catch up game %s", game_id)
