"""The rooms of a game and the pushes of new records to this process's clients in them.

Each server process pushes to its own clients only. It remembers, per game that has a
client here, the last version it pushed; a push carries every record after it, read from
the log when this process did not append them itself (another process did, or a command
lost a race and was decided again), so its clients get every version once and in order, with
the server's signed checkpoint of the last of them (server/keys/signing.py), and the court
view of that version as the room's audience may see it (server/live/views.py): the page
draws it and never asks for the court again.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from typing import Any

from flask_socketio import SocketIO

from court.commands import SPECTATOR, Actor
from court.ids import GameId, Seat
from court.log.chain import Record
from court.state import CourtState
from server.live.views import HOST, MASTER, SEAT, Views, audiences
from server.messages.views import observe
from server.service.court_service import CourtService, Head

NAMESPACE = "/court"
log = logging.getLogger("small_council.pushes")


def game_room(game_id: str) -> str:
    return f"game:{game_id}"


def seat_room(game_id: str, seat: int) -> str:
    return f"game:{game_id}:seat:{seat}"


def public_room(game_id: str) -> str:
    """The spectators' connections."""
    return f"game:{game_id}:public"


def host_room(game_id: str) -> str:
    """The connections of a host who holds no seat."""
    return f"game:{game_id}:host"


def master_room(game_id: str) -> str:
    """The game master's connections: his court view and his talk (server/live/talk.py)."""
    return f"game:{game_id}:master"


def audience_room(game_id: str, audience: str) -> str:
    """The room of an audience (server/live/views.py): each connection is in one."""
    if audience.startswith(SEAT):
        return seat_room(game_id, int(audience.removeprefix(SEAT)))
    return {HOST: host_room, MASTER: master_room}.get(audience, public_room)(game_id)


# Records after which a token may stand for another audience than it did (a seat handed on or
# left, the host role passed, the host seated, a key's link dropped): the connections that keep
# an actor are moved to their new audience's room, and told, before anything more is pushed.
SEAT_CHANGES = frozenset(
    {
        "SeatLeft",
        "SeatHanded",
        "SeatRemoved",
        "HostHandedOver",
        "HostTakenOver",
        "SeatJoined",
        "SeatLinkDropped",
    }
)

SeatWatcher = Callable[[str, CourtState], object]


class RoomPusher:
    """A publisher for the service, and the catch-up of games other processes appended to.

    Every method that moves a game's cursor runs under that game's service lock, so pushes
    of one game never interleave; `follow` and `unfollow` count this process's clients."""

    def __init__(self, socketio: SocketIO, service: CourtService) -> None:
        self.socketio = socketio
        self.service = service
        self._cursors: dict[str, int] = {}  # game -> last version pushed here
        self._clients: dict[str, int] = {}  # game -> clients connected here
        self._guard = threading.Lock()
        self._seat_watchers: list[SeatWatcher] = []
        self.views = Views()
        # Per game: the seats its audiences were listed for, and those audiences' rooms.
        self._audiences: dict[str, tuple[object, list[tuple[str, str]]]] = {}

    def watch_seats(self, watcher: SeatWatcher) -> None:
        """Call `watcher(game, state)` before pushing records that may end what a token
        stands for, so a replaced token's connections leave the seat's room first."""
        self._seat_watchers.append(watcher)

    # -- who is here -----------------------------------------------------------

    def follow(self, game_id: str, head: Head) -> None:
        """A client of the game connects here (call under the game's lock, before it joins
        the rooms): the clients already here are first brought up to `head`."""
        with self._guard:
            last = self._cursors.get(game_id)
            self._clients[game_id] = self._clients.get(game_id, 0) + 1
            if last is None:
                self._cursors[game_id] = head.version
        if last is not None and last < head.version:
            self._push(game_id, self._read(game_id, last, head.version), head.state)

    def unfollow(self, game_id: str) -> None:
        with self._guard:
            left = self._clients.get(game_id, 0) - 1
            if left > 0:
                self._clients[game_id] = left
            else:
                self._clients.pop(game_id, None)
                self._cursors.pop(game_id, None)
                self._audiences.pop(game_id, None)
                self.views.forget(game_id)

    def games(self) -> list[str]:
        """The games with a client connected here."""
        with self._guard:
            return list(self._cursors)

    # -- pushing -----------------------------------------------------------------

    def publish(self, game_id: GameId, records: Sequence[Record], state: CourtState) -> None:
        """Records this process just appended (the service calls this under the game's lock)."""
        with self._guard:
            last = self._cursors.get(game_id)
        if last is None:
            return
        fresh = [r for r in records if r.version > last]
        if not fresh:
            return
        head = Head(records[-1].version, records[-1].hash, state)
        self._push(game_id, self._after(game_id, last, fresh, head), state)

    def catch_up(self, game_id: str, announced: tuple[int, str] | None = None) -> int:
        """Push whatever the log holds beyond this process's cursor (another process
        appended it), read from the database: what another process announces only says
        that there is something to read. The number of records pushed. `announced`: the
        version and hash an announcement named; a record of the log at that version that
        ends on another hash is logged (someone else writes on the channel)."""
        if game_id not in self.games():
            return 0
        service = self.service
        with service.lock(game_id):
            with self._guard:
                last = self._cursors.get(game_id)
            if last is None:
                return 0
            head, newer = service.newer(game_id)
            if announced is not None:
                _bear_out(game_id, announced, newer)
            if head.version <= last:
                return 0
            records = self._after(game_id, last, [r for r in newer if r.version > last], head)
            self._push(game_id, records, head.state)
            return len(records)

    def _after(self, game_id: str, last: int, fresh: list[Record], head: Head) -> list[Record]:
        """Every record after `last` up to `head`: `fresh` (the newest of them, in order),
        with the ones before it read from the log."""
        first = fresh[0].version if fresh else head.version + 1
        if first > last + 1:
            return self._read(game_id, last, first - 1) + fresh
        return fresh

    def _read(self, game_id: str, after: int, upto: int) -> list[Record]:
        return self.service.records(game_id, after=after, upto=upto)

    def _push(self, game_id: str, records: Sequence[Record], state: CourtState) -> None:
        """To the game's room: the records as a spectator may see them and the change of
        the court view's sections every audience sees alike; then to each audience with a
        connection here (server/live/views.py) whose own sections changed, or that owns a
        private record of the batch, that change and those records as it may see them. Only
        to this process's clients: every other process pushes to its own."""
        if not records:
            return
        if any(r.type in SEAT_CHANGES for r in records):
            for watcher in self._seat_watchers:
                watcher(game_id, state)
            self.views.regrouped(game_id)
        last = records[-1]
        version = last.version
        # One signature for every room: each shows the log up to the same record.
        signed = self.service.keys.signing.checkpoint(game_id, version, last.hash)
        with self._guard:
            held = self._cursors.get(game_id)
        rooms = self._rooms()
        here = [a for a, room in self._audience_rooms(game_id, state) if rooms.get(room)]
        change = self.views.changes(game_id, state, version, held, here)
        # The seats whose private parts the batch holds: each is sent those records as its own.
        owners = {f"{SEAT}{r.seat}" for r in records if r.private is not None}
        own = {
            a: {"version": version, "audience": a, "patch": change.own.get(a, [])}
            for a in here
            if a in owners or a in change.own
        }
        view = {"from": change.start, "patch": change.shared, "own": sorted(own)}
        told = _told(records, SPECTATOR, state)
        self._emit(
            "events",
            {"version": version, "records": told, "checkpoint": signed, "view": view},
            game_room(game_id),
        )
        for audience, payload in own.items():
            if audience in owners:
                theirs = [r for r in records if r.private is not None and r.seat == _seat(audience)]
                payload["records"] = _told(theirs, Actor(seat=_seat(audience)), state)
            self._emit("own", payload, audience_room(game_id, audience))
        with self._guard:
            if game_id in self._cursors:
                self._cursors[game_id] = max(self._cursors[game_id], version)

    def _audience_rooms(self, game_id: str, state: CourtState) -> list[tuple[str, str]]:
        """Every audience the game can have as it stands, with its room: made again only
        when the seats changed."""
        kept = self._audiences.get(game_id)
        if kept is None or kept[0] is not state.seats:
            rooms = [(a, audience_room(game_id, a)) for a in audiences(state)]
            kept = self._audiences[game_id] = (state.seats, rooms)
        return kept[1]

    def _rooms(self) -> dict[str, Any]:
        """The rooms of this process's connections, each with its connections."""
        rooms = self.socketio.server.manager.rooms  # type: ignore[attr-defined]  # untyped
        found: dict[str, Any] = rooms.get(NAMESPACE, {})
        return found

    def _emit(self, event: str, payload: dict[str, Any], to: str | list[str]) -> None:
        # SocketIO.emit passes a list of rooms and ignore_queue on to python-socketio.
        self.socketio.emit(  # type: ignore[call-arg]  # the stubs lack ignore_queue
            event,
            payload,
            to=to,  # type: ignore[arg-type]  # the stubs lack a list of rooms
            namespace=NAMESPACE,
            ignore_queue=True,
        )


def _bear_out(game_id: str, announced: tuple[int, str], read: Sequence[Record]) -> None:
    version, hashed = announced
    for record in read:
        if record.version == version and record.hash != hashed:
            log.warning(
                "game %s: an announcement named version %s with a hash the log does not "
                "hold; only the log's record is pushed (is something else publishing on "
                "the servers' Redis?)",
                game_id,
                version,
            )


def _seat(audience: str) -> Seat | None:
    return Seat(int(audience.removeprefix(SEAT))) if audience.startswith(SEAT) else None


def _told(records: Sequence[Record], viewer: Actor, state: CourtState) -> list[dict[str, Any]]:
    observer = observe(viewer, state)
    return [observer.told(r, state) for r in records]
