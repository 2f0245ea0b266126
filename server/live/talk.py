"""Table talk and whispers over Socket.IO: the `say` and `whisper` handlers of the court
namespace, the backlog a party gets on connecting, and the pushes of each new line to the
rooms of its parties alone.

A line goes to the seat room of each seat party (`game:<id>:seat:<n>`) and, when the game
master is a party, to his room (`game:<id>:master`): never to the game's room, nor to the
public room where spectators and a host without a seat are. A whisper thus reaches the
connections of its two parties and no room a third party is in. Each process pushes to its
own clients alone, lines read from the talk table: another process only announces that a
line was said (server/live/relay.py), never what it says.
"""

from __future__ import annotations

import threading
import zlib
from collections.abc import Callable
from typing import Any

from flask_socketio import SocketIO, emit

from court.commands import Actor
from court.talk import MASTER, TalkLine, speaker
from server.live.pushes import NAMESPACE, master_room, seat_room
from server.messages.talk import TALK
from server.service.talk import TalkService

# The most lines one backlog message carries; the rest come from GET /api/games/<id>/talk.
TALK_PAGE = 200
GAME_LOCKS = 64


def party_room(game_id: str, party: str) -> str:
    if party == MASTER:
        return master_room(game_id)
    return seat_room(game_id, int(party.removeprefix("seat:")))


class TalkPusher:
    """Pushes each line, as `talk` {lines: [line]}, to its parties' rooms on this process.

    Per game with a client here it keeps a cursor, the position of the last line pushed here;
    each push reads every line after it from the talk table, so a line said here, on another
    process or while Redis was away comes once and in the order of positions (in commit
    order: server/store/talk.py)."""

    def __init__(self, socketio: SocketIO, talk: TalkService) -> None:
        self.socketio = socketio
        self.talk = talk
        self._cursors: dict[str, int] = {}  # game -> position of the last line pushed here
        self._clients: dict[str, int] = {}  # game -> clients connected here
        self._guard = threading.Lock()
        # The pushes of one game never interleave; of two games, seldom wait for each other.
        self._game_locks = [threading.Lock() for _ in range(GAME_LOCKS)]

    def follow(self, game_id: str) -> None:
        """A client of the game connects here, before its backlog is read: the lines after
        the talk's position now will be pushed to it, the ones before are in its backlog.
        Every `follow` that returns is matched by one `unfollow`."""
        with self._lock_of(game_id):
            with self._guard:
                known = game_id in self._cursors
            position = 0 if known else self.talk.last_position(game_id)
            with self._guard:
                self._cursors.setdefault(game_id, position)
                self._clients[game_id] = self._clients.get(game_id, 0) + 1

    def unfollow(self, game_id: str) -> None:
        with self._guard:
            left = self._clients.get(game_id, 0) - 1
            if left > 0:
                self._clients[game_id] = left
            else:
                self._clients.pop(game_id, None)
                self._cursors.pop(game_id, None)

    def games(self) -> list[str]:
        """The games with a client connected here."""
        with self._guard:
            return list(self._cursors)

    def publish(self, line: TalkLine) -> None:
        """A line just said on this process (the talk service calls this)."""
        self.catch_up(line.game_id)

    def catch_up(self, game_id: str) -> int:
        """Push every line of the game after this process's cursor; how many were pushed."""
        pushed = 0
        with self._lock_of(game_id):
            while True:
                with self._guard:
                    cursor = self._cursors.get(game_id)
                if cursor is None:
                    return pushed
                lines = self.talk.said_after(game_id, cursor, TALK_PAGE)
                for line in lines:
                    self._push(line)
                if lines:
                    with self._guard:
                        if game_id in self._cursors:
                            self._cursors[game_id] = lines[-1].position
                pushed += len(lines)
                if len(lines) < TALK_PAGE:
                    return pushed

    def _lock_of(self, game_id: str) -> threading.Lock:
        return self._game_locks[zlib.crc32(game_id.encode()) % GAME_LOCKS]

    def _push(self, line: TalkLine) -> None:
        rooms = sorted({party_room(line.game_id, p) for p in (line.sender, *line.recipients)})
        # SocketIO.emit passes a list of rooms and ignore_queue on to python-socketio.
        self.socketio.emit(  # type: ignore[call-arg]  # the stubs lack ignore_queue
            "talk",
            {"lines": [line.to_json()]},
            to=rooms,  # type: ignore[arg-type]  # the stubs lack a list of rooms
            namespace=NAMESPACE,
            ignore_queue=True,
        )


def backlog(talk: TalkService, game_id: str, actor: Actor, after: int) -> dict[str, Any] | None:
    """The `talk` message sent on connecting: the party's lines after position `after`, at
    most TALK_PAGE; None for one who reads no talk."""
    if not talk.channels(game_id, actor):
        return None
    lines = talk.lines(game_id, actor, after=after, limit=TALK_PAGE + 1)
    more = len(lines) > TALK_PAGE
    lines = lines[:TALK_PAGE]
    return {
        "lines": [line.to_json() for line in lines],
        "more": more,
        "next_after": lines[-1].position if more else None,
    }


class TalkHandlers:
    """The talk handlers of the court namespace (server/live/sockets.py)."""

    talk: TalkService
    talk_pusher: TalkPusher
    acting: Callable[[], tuple[str, Actor]]

    def _talk_backlog(self, game_id: str, actor: Actor, after: int) -> None:
        """A connection opens, its rooms joined: this process follows the game's talk, then
        sends `talk` with the lines of the party's channels after `after`, so a line said
        meanwhile comes at least once; nothing to one who reads none."""
        self.talk_pusher.follow(game_id)
        try:
            found = backlog(self.talk, game_id, actor, after)
        except BaseException:
            self.talk_pusher.unfollow(game_id)
            raise
        if found is not None:
            # To this connection alone: python-socketio hands it to its own client.
            emit("talk", found)

    def on_say(self, payload: Any = None) -> dict[str, Any]:
        """`say` {text} from a seat or the game master: `talk` {lines: [line]} to every seat
        room and the game master's room; the ack is {ok, line}."""
        game_id, actor = self.acting()
        speaker(actor)  # a spectator's talk is refused before its payload is read
        body = TALK["say"].load(payload)
        line = self.talk.say(game_id, actor, body["text"])
        return {"ok": True, "line": line.to_json()}

    def on_whisper(self, payload: Any = None) -> dict[str, Any]:
        """`whisper` {to: seat | "master", text} from a seat or the game master: `talk`
        {lines: [line]} to the rooms of the sender and of `to` alone; the ack is {ok, line}."""
        game_id, actor = self.acting()
        speaker(actor)  # a spectator's talk is refused before its payload is read
        body = TALK["whisper"].load(payload)
        line = self.talk.whisper(game_id, actor, body["to"], body["text"])
        return {"ok": True, "line": line.to_json()}
