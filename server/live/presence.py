"""Who is at the table: open Socket.IO connections per game and seat, pushed as `presence`.

`Presence` only counts connections (no framework), in this process's memory: enough for one
server process (several share `server.live.presence_redis.RedisPresence` instead);
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
from court.state import CourtState
from server.live.sockets import CourtNamespace, connection_sid, game_room


class PresenceBook(Protocol):
    """Where the open connections are kept: this process's memory or Redis."""

    def enter(self, sid: str, game_id: str, actor: Actor) -> None: ...
    def leave(self, sid: str) -> str | None: ...
    def snapshot(self, game_id: str) -> dict[str, Any]: ...


class Presence:
    """Open connections by id: which game, which seat (None for a spectator), host or not."""

    def __init__(self) -> None:
        self._open: dict[str, tuple[str, Actor]] = {}
        self._lock = threading.Lock()

    def enter(self, sid: str, game_id: str, actor: Actor) -> None:
        with self._lock:
            self._open[sid] = (game_id, actor)

    def leave(self, sid: str) -> str | None:
        """Forget a connection; the game it was in, or None if it was not known."""
        with self._lock:
            found = self._open.pop(sid, None)
        return found[0] if found else None

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
        """Connections whose token holds its seat no more count as spectators at once."""
        ended = super().reseat(game_id, state)
        for sid in ended:
            self.presence.enter(sid, game_id, SPECTATOR)
        if ended:
            self._push(game_id)
        return ended

    def _push(self, game_id: str) -> None:
        """To every client of the game, whichever process holds its connection: this
        process's own here, the others' by their processes once told (`announce`)."""
        self.push_here(game_id)
        self.announce(game_id)

    def push_here(self, game_id: str) -> None:
        """To this process's clients of the game alone."""
        payload = {**self.presence.snapshot(game_id), "server_time": self.clock()}
        self.emit("presence", payload, room=game_room(game_id))

    push_presence = _push  # for a process that finds another one's connections gone
