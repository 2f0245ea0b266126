"""Table talk and whispers over Socket.IO: the `say` and `whisper` handlers of the court
namespace, the backlog a party gets on connecting, and the pushes of each new line to the
rooms of its parties alone.

A line goes to the seat room of each seat party (`game:<id>:seat:<n>`) and, when the game
master is a party, to his room (`game:<id>:master`): never to the game's room, nor to the
public room where spectators and a host without a seat are. A whisper thus reaches the
connections of its two parties and no room a third party is in. The pushes go through the
message queue when there is one, so each process hands them to its own clients.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask_socketio import SocketIO

from court.commands import Actor
from court.talk import MASTER, TalkLine, speaker
from server.live.pushes import NAMESPACE, master_room, seat_room
from server.messages.talk import TALK
from server.talk import TalkService

# The most lines one backlog message carries; the rest come from GET /api/games/<id>/talk.
TALK_PAGE = 200


def party_room(game_id: str, party: str) -> str:
    if party == MASTER:
        return master_room(game_id)
    return seat_room(game_id, int(party.removeprefix("seat:")))


class TalkPusher:
    """Pushes each line just said, as `talk` {lines: [line]}, to its parties' rooms."""

    def __init__(self, socketio: SocketIO) -> None:
        self.socketio = socketio

    def publish(self, line: TalkLine) -> None:
        rooms = sorted({party_room(line.game_id, p) for p in (line.sender, *line.recipients)})
        self.socketio.emit(
            "talk",
            {"lines": [line.to_json()]},
            to=rooms,  # type: ignore[arg-type]  # the stubs lack a list of rooms
            namespace=NAMESPACE,
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

    talk: Callable[[], TalkService]
    connection: Callable[[], tuple[str, Actor]]

    def on_say(self, payload: Any = None) -> dict[str, Any]:
        """`say` {text} from a seat or the game master: `talk` {lines: [line]} to every seat
        room and the game master's room; the ack is {ok, line}."""
        game_id, actor = self.connection()
        speaker(actor)  # a spectator's talk is refused before its payload is read
        body = TALK["say"].load(payload)
        line = self.talk().say(game_id, actor, body["text"])
        return {"ok": True, "line": line.to_json()}

    def on_whisper(self, payload: Any = None) -> dict[str, Any]:
        """`whisper` {to: seat | "master", text} from a seat or the game master: `talk`
        {lines: [line]} to the rooms of the sender and of `to` alone; the ack is {ok, line}."""
        game_id, actor = self.connection()
        speaker(actor)  # a spectator's talk is refused before its payload is read
        body = TALK["whisper"].load(payload)
        line = self.talk().whisper(game_id, actor, body["to"], body["text"])
        return {"ok": True, "line": line.to_json()}
