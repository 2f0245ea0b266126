"""Who is at the table: open Socket.IO connections per game and seat, pushed as `presence`.

`Presence` only counts connections (no framework), in this process's memory: enough for one
server process (several share `server.live.presence_redis.RedisPresence` instead); it also says
since when a game's host (or any seat) has had no connection, which the service asks before a
vote for a new host or to replace a player (server/service/ports.py `HostPresence`). Neither book
guesses: for a full period after it starts empty, while the connections that were open before
come back, nobody counts as gone;
`PresenceNamespace` is the `/court` namespace with presence pushes added on connect, join
and disconnect, and the server's clock so a page can count a step's deadline down without
trusting its own.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any, Protocol

from court.commands import SPECTATOR, Actor
from court.ids import Seat
from court.state import CourtState, GameStatus
from server.live.sockets import CourtNamespace, connection_sid, game_room


class PresenceBook(Protocol):
    """Where the open connections are kept: this process's memory or Redis."""

    def enter(self, sid: str, game_id: str, actor: Actor) -> None: ...
    def leave(self, sid: str) -> str | None: ...
    def snapshot(self, game_id: str) -> dict[str, Any]: ...
    def host_away_since(
        self, game_id: str, host_seat: Seat | None, not_before: float
    ) -> float | None: ...
    def start(self, dropped: Callable[[str], None]) -> None: ...


def role_key(actor: Actor) -> str | None:
    """What a connection is present as, for the host's absence: its seat ("seat:N"), "host"
    for the host's connection without a seat, or None (a spectator, the game master)."""
    if actor.seat is not None:
        return f"seat:{actor.seat}"
    return "host" if actor.host else None


def host_key(host_seat: Seat | None) -> str:
    """The role the host is present as: his seat's, or the seatless host connection's."""
    return "host" if host_seat is None else f"seat:{host_seat}"


class Presence:
    """Open connections by id: which game, which seat (None for a spectator), host or not;
    and when each seat, and the host without a seat, last had its last connection close.

    The book starts empty with this process, while the pages of the connections open before
    it are still reconnecting: for `settle` seconds nobody counts as gone. After them, a role
    never seen leaving counts as gone since the book started: whatever came before, the book
    cannot tell."""

    def __init__(self, clock: Callable[[], float] = time.time, settle: float = 0.0) -> None:
        self.clock = clock
        self.started = clock()
        self.settle = settle
        self._dropped: Callable[[str], None] = lambda game_id: None
        self._open: dict[str, tuple[str, Actor]] = {}
        self._left: dict[tuple[str, str], float] = {}  # (game, role) -> when it last left
        self._lock = threading.Lock()

    def enter(self, sid: str, game_id: str, actor: Actor) -> None:
        """A connection opens, or stands for another actor from now on (a seat taken or
        given up): the role it held so far is left."""
        with self._lock:
            before = self._open.get(sid)
            self._open[sid] = (game_id, actor)
            if before is not None:
                self._gone(*before)

    def leave(self, sid: str) -> str | None:
        """Forget a connection; the game it was in, or None if it was not known."""
        with self._lock:
            found = self._open.pop(sid, None)
            if found is not None:
                self._gone(*found)
        return found[0] if found else None

    def _gone(self, game_id: str, actor: Actor) -> None:
        key = role_key(actor)
        if key is not None:
            self._left[(game_id, key)] = self.clock()

    def host_away_since(
        self, game_id: str, host_seat: Seat | None, not_before: float
    ) -> float | None:
        """Since when the host has had no connection (never earlier than `not_before`, the
        game's start); None while one is open, and while the book settles."""
        key = host_key(host_seat)
        if self.clock() < self.started + self.settle:
            return None
        with self._lock:
            if any(g == game_id and role_key(a) == key for g, a in self._open.values()):
                return None
            left = self._left.get((game_id, key), self.started)
        return max(left, not_before)

    def start(self, dropped: Callable[[str], None]) -> None:
        """Call `dropped(game)` for every game with a connection once the book has settled:
        their pages learn then who has been gone all along."""
        if self.settle <= 0:
            return
        self._dropped = dropped
        timer = threading.Timer(max(0.0, self.started + self.settle - self.clock()), self._settled)
        timer.daemon = True
        timer.start()

    def _settled(self) -> None:
        with self._lock:
            games = sorted({game for game, _ in self._open.values()})
        for game_id in games:
            self._dropped(game_id)

    def snapshot(self, game_id: str) -> dict[str, Any]:
        """`{seats: [seat…] with at least one connection, spectators: n, host: bool,
        game_master: bool}`."""
        with self._lock:
            actors = [actor for game, actor in self._open.values() if game == game_id]
        seats = Counter(a.seat for a in actors if a.seat is not None)
        return {
            "seats": sorted(seats),
            "spectators": sum(1 for a in actors if a.spectator),
            "host": any(a.host for a in actors),
            "game_master": any(a.master for a in actors),
        }


class PresenceNamespace(CourtNamespace):
    """The court namespace, telling every room who is connected whenever that changes."""

    def __init__(
        self,
        *args: Any,
        clock: Callable[[], float] = time.time,
        presence: PresenceBook | None = None,
        announce: Callable[[str], object] = lambda game_id: None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.presence: PresenceBook = presence if presence is not None else Presence()
        self.clock = clock
        self.announce = announce

    def on_connect(self, auth: Any = None) -> None:
        """After `welcome` and the catch-up, everyone in the game gets `presence`."""
        super().on_connect(auth)
        game_id, actor = self.connection()
        self.presence.enter(connection_sid(), game_id, actor)
        self._push(game_id)

    def on_disconnect(self, reason: Any = None) -> None:
        """Everyone left in the game gets `presence` without this connection."""
        game_id = self.presence.leave(connection_sid())
        super().on_disconnect(reason)
        if game_id is not None:
            self._push(game_id)

    def on_join(self, payload: Any) -> dict[str, Any]:
        """A spectator connection took a seat: the seat shows as connected at once."""
        ack = super().on_join(payload)
        game_id, actor = self.connection()
        self.presence.enter(connection_sid(), game_id, actor)
        self._push(game_id)
        return ack

    def reseat(self, game_id: str, state: CourtState) -> list[str]:
        """Connections whose token holds its seat no more count as spectators at once; the
        host may be another seat now, present or not."""
        ended = super().reseat(game_id, state)
        for sid in ended:
            self.presence.enter(sid, game_id, SPECTATOR)
        self._push(game_id, state)
        return ended

    def _push(self, game_id: str, state: CourtState | None = None) -> None:
        """To every client of the game, whichever process holds its connection: this
        process's own here, the others' by their processes once told (`announce`)."""
        self.push_here(game_id, state)
        self.announce(game_id)

    def push_here(self, game_id: str, state: CourtState | None = None) -> None:
        """To this process's clients of the game alone: who is connected, whether the host is
        and since when he has had no connection."""
        state = state if state is not None else self.service.latest(game_id).state
        away = self.presence.host_away_since(game_id, state.host_seat(), state.started_at)
        here = self.presence.snapshot(game_id)
        payload = {
            **here,
            "host": away is None,
            "host_away_since": away,
            "seats_away_since": self._seats_away(game_id, state, here["seats"]),
            "server_time": self.clock(),
        }
        self.emit("presence", payload, room=game_room(game_id))

    def _seats_away(
        self, game_id: str, state: CourtState, here: list[Seat]
    ) -> dict[str, float | None]:
        """Since when each seat without a connection has had none, in a game being played
        (the other seats may vote to replace its player, court/decide/table_votes.py)."""
        if state.status is not GameStatus.PLAYING:
            return {}
        book = self.presence
        return {
            str(seat): book.host_away_since(game_id, seat, state.started_at)
            for seat in sorted(state.seats)
            if seat not in here
        }

    def push_presence(self, game_id: str) -> None:
        """For a process that finds another one's connections gone."""
        self._push(game_id)
