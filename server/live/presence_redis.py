"""Presence shared by several server processes in Redis: who is connected to each game,
whichever process holds the connection. Same interface as `server.live.presence.Presence`.

Keys (all under `small-council:presence:`):
- `game:<id>`: a hash of `<process>:<connection id>` -> the connection's actor (JSON);
- `alive:<process>`: set with a time to live and renewed by the process's heartbeat;
- `games:<process>`: the games the process has had connections in;
- `processes`: every process that has not been swept yet;
- `left:<id>`: a hash of the roles a connection is present as (`seat:<n>`, `host` for the host
  without a seat) -> when the last connection of that role closed (its process's clock);
- `since`: when the book began, written by the first heartbeat that finds it missing (Redis
  started, or restarted empty).

A connection counts only while its process's `alive` key stands, so a process killed
without a goodbye drops out of every snapshot after `ttl` seconds. The first process whose
heartbeat then finds it gone removes its entries and reports the games, so their players
are told. A book that began less than `ttl` seconds ago may still miss the connections of
the processes whose heartbeat has not come yet to write them back: until then nobody counts
as gone, and then every process tells its players who is.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import redis
from redis.exceptions import RedisError

from court.commands import Actor
from court.ids import Seat
from server.live.presence import host_key, role_key
from server.outages import Outage

log = logging.getLogger("small_council.presence")

PREFIX = "small-council:presence:"
PROCESSES = PREFIX + "processes"
SINCE = PREFIX + "since"
REWRITES = 2  # heartbeats that write every connection again once they may be missing


def _game(game_id: str) -> str:
    return f"{PREFIX}game:{game_id}"


def _alive(process: str) -> str:
    return f"{PREFIX}alive:{process}"


def _games(process: str) -> str:
    return f"{PREFIX}games:{process}"


def _left(game_id: str) -> str:
    return f"{PREFIX}left:{game_id}"


# How long the times a role left are kept after the last one was written: a role not seen for
# so long counts as gone since this process started, longer than any profile's takeover time.
LEFT_TTL = 30 * 24 * 3600


def _actor_json(actor: Actor) -> str:
    return json.dumps({"seat": actor.seat, "host": actor.host, "master": actor.master})


def _text(value: bytes | str) -> str:
    """A key or member as text: the client answers bytes unless it decodes responses."""
    return value.decode() if isinstance(value, bytes) else value


def _actor(text: bytes | str) -> Actor:
    data = json.loads(text)
    seat = data["seat"]
    return Actor(
        seat=None if seat is None else Seat(seat), host=data["host"], master=data["master"]
    )


def _read_actor(text: bytes | str) -> Actor | None:
    """The actor of an entry, or None when it holds none."""
    try:
        actor = _actor(text)
    except (ValueError, TypeError, KeyError):
        return None
    ok = actor.seat is None or type(actor.seat) is int
    return actor if ok and isinstance(actor.host, bool) and isinstance(actor.master, bool) else None


class RedisPresence:
    """Open connections of every process, by game; this process's own also in memory."""

    def __init__(
        self,
        client: redis.Redis,
        process_id: str,
        ttl: float,
        clock: Callable[[], float] = time.time,
        outage: Outage | None = None,
    ) -> None:
        self.redis = client
        self.outage = outage or Outage("redis")
        self.process_id = process_id
        self.ttl = ttl
        self.clock = clock
        self._mine: dict[str, tuple[str, str]] = {}  # connection id -> (game, actor JSON)
        self._lock = threading.Lock()
        self._stopped = threading.Event()
        self._thread: threading.Thread | None = None
        self._dropped: Callable[[str], None] = lambda game_id: None
        # Heartbeats still to write every connection of this process again (see `beat`).
        self._rewrites = 0
        self._settled: float | None = None  # the start of the book last told as settled

    # -- the Presence interface ------------------------------------------------

    def enter(self, sid: str, game_id: str, actor: Actor) -> None:
        """A connection opens, or stands for another actor from now on: the role it held so
        far is left."""
        # Under the lock, so that a heartbeat never writes back a connection just left.
        with self._lock:
            before = self._mine.get(sid)
            self._mine[sid] = (game_id, _actor_json(actor))
            pipe = self.redis.pipeline(transaction=False)
            if before is not None:
                self._gone(pipe, before[0], _actor(before[1]))
            self._write(pipe, sid, *self._mine[sid])
            self._execute(pipe)

    def leave(self, sid: str) -> str | None:
        """Forget a connection; the game it was in, or None if it was not known."""
        with self._lock:
            found = self._mine.pop(sid, None)
            if found is None:
                return None
            pipe = self.redis.pipeline(transaction=False)
            pipe.hdel(_game(found[0]), f"{self.process_id}:{sid}")
            self._gone(pipe, found[0], _actor(found[1]))
            if all(game_id != found[0] for game_id, _ in self._mine.values()):
                pipe.srem(_games(self.process_id), found[0])
            self._execute(pipe)
        return found[0]

    def _execute(self, pipe: Any) -> None:
        """Write now if Redis answers; otherwise the heartbeat writes this process's
        connections again once it does (a connection left meanwhile is swept with the
        process's other stale entries only if the process dies). Called under the lock."""
        try:
            pipe.execute()
        except RedisError as exc:
            self._rewrites = REWRITES
            self.outage.failed(exc)
            return
        self.outage.passed()

    def _gone(self, pipe: Any, game_id: str, actor: Actor) -> None:
        """Record that a connection of the actor's role closed now."""
        key = role_key(actor)
        if key is not None:
            pipe.hset(_left(game_id), key, repr(self.clock()))
            pipe.expire(_left(game_id), LEFT_TTL)

    def _write(self, pipe: Any, sid: str, game_id: str, actor_json: str) -> None:
        pipe.hset(_game(game_id), f"{self.process_id}:{sid}", actor_json)
        pipe.sadd(_games(self.process_id), game_id)

    def snapshot(self, game_id: str) -> dict[str, Any]:
        """`{seats, spectators, host, game_master}` over the live processes' connections
        (this process's own only, while Redis cannot be reached: its outage is logged)."""
        try:
            actors = self._everyone(game_id)
        except RedisError as exc:
            self.outage.failed(exc)
            actors = self._own(game_id)
        return {
            "seats": sorted({a.seat for a in actors if a.seat is not None}),
            "spectators": sum(1 for a in actors if a.spectator),
            "host": any(a.host for a in actors),
            "game_master": any(a.master for a in actors),
        }

    def _own(self, game_id: str) -> list[Actor]:
        """This process's connections of the game."""
        with self._lock:
            return [_actor(a) for game, a in self._mine.values() if game == game_id]

    def _everyone(self, game_id: str) -> list[Actor]:
        return self._connections(game_id)[0]

    def _connections(self, game_id: str) -> tuple[list[Actor], list[Actor]]:
        """The game's connections on live processes, and those of processes whose mark has
        expired but that nobody has swept yet. This process's own are taken from its memory,
        whatever Redis holds of them (lost in a restart, or removed by someone else), and an
        entry that is no connection's is passed over."""
        entries = self.redis.hgetall(_game(game_id))
        by_process: dict[str, list[Actor]] = {}
        for field, value in entries.items():
            process = _text(field).split(":", 1)[0]
            actor = _read_actor(value)
            if process != self.process_id and actor is not None:
                by_process.setdefault(process, []).append(actor)
        processes = list(by_process)
        marks = self.redis.mget([_alive(p) for p in processes]) if processes else []
        alive = self._own(game_id)
        dead: list[Actor] = []
        for process, mark in zip(processes, marks, strict=True):
            (alive if mark else dead).extend(by_process[process])
        return alive, dead

    def host_away_since(
        self, game_id: str, host_seat: Seat | None, not_before: float
    ) -> float | None:
        """Since when the host has had no connection on any process (never earlier than
        `not_before`); None while he has one, while Redis cannot be reached, and while the
        book is younger than `ttl` (Redis just started empty): nobody is voted out on a
        guess. A connection of a process that stopped answering counts until now; a role
        never seen leaving counts as gone since the book began."""
        key = host_key(host_seat)
        try:
            alive, dead = self._connections(game_id)
            if any(role_key(a) == key for a in alive):
                return None
            pipe = self.redis.pipeline(transaction=False)
            pipe.hget(_left(game_id), key)
            pipe.get(SINCE)
            left, began = pipe.execute()
        except RedisError as exc:
            self.outage.failed(exc)
            return None
        now = self.clock()
        if began is None or now < float(_text(began)) + self.ttl:
            return None
        if any(role_key(a) == key for a in dead):
            return max(now, not_before)
        since = float(_text(began))
        return max(since, float(_text(left)) if left is not None else since, not_before)

    # -- heartbeat ---------------------------------------------------------------

    def start(self, dropped: Callable[[str], None]) -> None:
        """Mark this process alive now and every ttl/3 seconds; `dropped(game)` is called for
        each game that lost connections of a process found dead."""
        self._dropped = dropped
        self.beat()
        self._thread = threading.Thread(target=self._run, name="presence", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stopped.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def beat(self) -> list[str]:
        """Renew this process's mark and sweep the processes whose mark has expired; the
        games that lost connections (or, once the book has settled, this process's games).

        Its own connections are written again when they may be missing: when its mark had
        expired (Redis was out of reach, or restarted, for longer than the ttl, and another
        process may have swept them) or a write of them failed; then on the next heartbeat
        too, in case a sweep raced the first. Otherwise a heartbeat costs four commands in one
        round trip, not two per connection."""
        with self._lock:
            pipe = self.redis.pipeline(transaction=False)
            pipe.set(_alive(self.process_id), "1", px=int(self.ttl * 1000), get=True)
            pipe.sadd(PROCESSES, self.process_id)
            pipe.set(SINCE, repr(self.clock()), nx=True)
            pipe.get(SINCE)
            try:
                previous, _, _, began = pipe.execute()
            except RedisError:
                self._rewrites = REWRITES
                raise
            if previous is None:
                self._rewrites = REWRITES
            if self._rewrites:
                pipe = self.redis.pipeline(transaction=False)
                for sid, (game_id, actor_json) in self._mine.items():
                    self._write(pipe, sid, game_id, actor_json)
                pipe.execute()
                self._rewrites -= 1
        others = [_text(p) for p in self.redis.smembers(PROCESSES)]
        others = [p for p in others if p != self.process_id]
        marks = self.redis.mget([_alive(p) for p in others]) if others else []
        games = self._newly_settled(float(_text(began)))
        for process, mark in zip(others, marks, strict=True):
            # SREM answers 1 to one process only: the sweep of a dead process happens once.
            if mark is None and self.redis.srem(PROCESSES, process) == 1:
                games += self._sweep(process)
        return games

    def _newly_settled(self, began: float) -> list[str]:
        """This process's games, the first time a heartbeat finds the book begun at `began`
        settled: their players learn then who has been gone since it began."""
        if self._settled == began or self.clock() < began + self.ttl:
            return []
        self._settled = began
        with self._lock:
            return sorted({game_id for game_id, _ in self._mine.values()})

    def _sweep(self, process: str) -> list[str]:
        """Remove a dead process's connections; their roles count as left now."""
        games = [_text(g) for g in self.redis.smembers(_games(process))]
        mine = f"{process}:"
        for game_id in games:
            entries = self.redis.hgetall(_game(game_id))
            fields = [f for f in entries if _text(f).startswith(mine)]
            if fields:
                pipe = self.redis.pipeline(transaction=False)
                for field in fields:
                    self._gone(pipe, game_id, _actor(entries[field]))
                pipe.hdel(_game(game_id), *fields)
                pipe.execute()
        self.redis.delete(_games(process))
        log.info(
            "process %s stopped answering; its connections in %d games are gone",
            process,
            len(games),
        )
        return games

    def _run(self) -> None:
        while not self._stopped.wait(self.ttl / 3):
            try:
                games = self.beat()
            except RedisError as exc:
                self.outage.failed(exc)
                continue
            self.outage.passed()
            for game_id in games:
                self._dropped(game_id)
