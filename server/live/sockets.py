"""The live court over Socket.IO: one namespace, a room per game and a private room per seat.

Clients connect with `auth = {"game": id, "token": seat token or null, "last_version": n}`.
Every command answers with an ack `{ok, version}` or `{ok: false, code, message}`; every
new event is pushed to each room rendered for that room's viewer. docs/protocol.md lists
every message. Connections and messages are limited per client address (server/clients/limits.py),
and a spectator's seat or host command is refused before its payload is read.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any, NoReturn

from flask import has_request_context, request
from flask_socketio import Namespace, emit, join_room
from marshmallow import Schema, ValidationError
from marshmallow.validate import Range
from socketio.exceptions import ConnectionRefusedError as Refused

from court.commands import Actor
from court.errors import BadToken, CourtError
from court.ids import Seat
from court.state import CourtState
from server.clients.addresses import client_address
from server.clients.limits import Limits, RateLimited
from server.live.bots import taken_back
from server.live.pushes import (
    NAMESPACE,
    RoomPusher,
    audience_room,
    game_room,
    public_room,
    seat_room,
)
from server.live.talk import TalkHandlers, TalkPusher
from server.live.views import PUBLIC, audience_of, regroup, seat_ended
from server.messages import fields as f
from server.messages.catalogue import CATALOGUE
from server.messages.message import Message, Sender, schema_of
from server.messages.views import observe, signed
from server.service.court_service import CourtService, Head
from server.service.ports import token_digest
from server.service.talk import TalkService
from server.store.failures import DATABASE_ERRORS, log_failure, refusal

log = logging.getLogger("small_council.sockets")

# The most records one catch-up message carries (the `events` after `welcome`, a `sync`
# ack); a client asks for the rest with `sync` from `next_after` (docs/protocol.md).
SYNC_PAGE = 200
__all__ = ["NAMESPACE", "CourtNamespace", "game_room", "public_room", "seat_room"]


# The connection whose message is being handled, outside a Flask request context (see
# CourtNamespace._handle).
_handled_sid: ContextVar[str | None] = ContextVar("handled_sid", default=None)


def connection_sid() -> str:
    """The id of the connection whose message is being handled: set by the namespace for
    a message, and by Flask-SocketIO on the request for connect and disconnect (Flask's own
    request type has no such field)."""
    sid = _handled_sid.get()
    if sid is not None:
        return sid
    sid = getattr(request, "sid", None) if has_request_context() else None
    if not isinstance(sid, str):
        raise RuntimeError("no Socket.IO message is being handled")
    return sid


def _to_this_connection(event: str, data: dict[str, Any]) -> None:
    """To the connection being handled, which is on this process: nothing for the message
    queue to carry to the other processes (ignore_queue)."""
    emit(event, data, ignore_queue=True)  # type: ignore[call-arg]  # stubs lack ignore_queue


def _error(code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"ok": False, "code": code, "message": message, **extra}


def _refuse(error: dict[str, Any]) -> NoReturn:
    """Refuse a connection: the client's `connect_error` carries the message and, as `data`,
    the whole `{ok: false, code, message}` (docs/protocol.md)."""
    raise Refused(error["message"], error) from None


class ConnectSchema(f.Shape):
    game = f.Id()
    token = f.String(max_length=f.TOKEN_MAX, load_default=None, allow_none=True)
    last_version = f.Int(load_default=None, allow_none=True, validate=Range(0, f.VERSION_MAX))
    # The position of the last talk line the client holds (server/live/talk.py).
    talk_after = f.Int(load_default=0, validate=Range(0, 2**63 - 1))


class SyncSchema(Schema):
    last_version = f.Int(required=True, validate=Range(0, f.VERSION_MAX))


class CourtNamespace(TalkHandlers, Namespace):
    """Socket.IO handlers; each one is short and calls the service (talk: the talk service)."""

    server: Any  # python-socketio's server, set when the namespace is registered (untyped)

    def __init__(
        self,
        service: CourtService,
        limits: Limits,
        pusher: RoomPusher,
        talk: TalkService,
        talk_pusher: TalkPusher,
    ) -> None:
        super().__init__(NAMESPACE)
        self.service = service
        self.talk = talk
        self.limits = limits
        self.pusher = pusher
        self.talk_pusher = talk_pusher
        self._sessions: dict[str, tuple[str, Actor]] = {}
        self._addresses: dict[str, str] = {}  # the client address of each open connection
        self._audiences: dict[str, str] = {}  # the audience whose room each connection is in
        self._sessions_lock = threading.Lock()

    # -- connection --------------------------------------------------------

    def on_connect(self, auth: Any = None) -> None:
        """A client opens the game: seat token (or none for a spectator), last version seen.

        Sends `welcome` {version, court, checkpoint} to the client, then `events` with the
        records after `last_version` rendered for it, at most SYNC_PAGE (nothing when it is
        None); each with the server's signed checkpoint of the head it shows. Too many
        connections from the client's address are refused with `rate_limited` before anything
        is read."""
        address = client_address()
        try:
            self.limits.open(address)
        except RateLimited as exc:
            _refuse(_error(exc.code, exc.message, retry_after=exc.retry_after))
        try:
            self._open(auth)
        except BaseException:
            self.limits.close(address, connection_sid())
            raise
        with self._sessions_lock:
            self._addresses[connection_sid()] = address

    def _open(self, auth: Any) -> None:
        try:
            data = schema_of(ConnectSchema).load(auth if isinstance(auth, dict) else {})
            actor, _ = self.service.authenticate(data["game"], data["token"])
            taken_back(self.service, data["game"], actor)
            self._enter(data["game"], actor, data["last_version"])
            try:
                self._talk_backlog(data["game"], actor, data["talk_after"])
            except BaseException:
                self.pusher.unfollow(data["game"])
                raise
        except ValidationError as exc:
            _refuse(
                _error(
                    "bad_request",
                    "Connect with auth {game, token, last_version}.",
                    fields=f.capped(exc.messages),
                )
            )
        except CourtError as exc:
            _refuse(_error(exc.code, exc.message))
        except DATABASE_ERRORS as exc:
            log_failure(log, "on connect", exc, self.service.database)
            _refuse(_error(*refusal(exc)))
        with self._sessions_lock:
            self._sessions[connection_sid()] = (data["game"], actor)

    def _enter(self, game_id: str, actor: Actor, last_version: int | None) -> None:
        """Join the rooms and catch up under the game's lock, so no push slips between.

        This process's other clients of the game are first brought up to the same head
        (`RoomPusher.follow`), so that no client is pushed a record twice. Then the log is
        looked at once more: another process may have appended after the head was read
        and announced it before this process followed the game (server/live/relay.py
        passes over announcements of games nobody here follows)."""
        service = self.service
        with service.lock(game_id):
            head = service.current(game_id)
            self.pusher.follow(game_id, head)
            try:
                self._welcome(game_id, actor, last_version, head)
            except BaseException:
                self.pusher.unfollow(game_id)
                raise
        self.pusher.catch_up(game_id)

    def _welcome(self, game_id: str, actor: Actor, last_version: int | None, head: Head) -> None:
        audience = audience_of(actor)
        join_room(game_room(game_id))
        join_room(audience_room(game_id, audience))
        with self._sessions_lock:
            self._audiences[connection_sid()] = audience
        checkpoint = signed(self.service, head)
        # The next push to the game changes this view: the page holds it.
        court = self.pusher.views.welcome(game_id, head.state, head.version, actor)
        court_now = {**court, "checkpoint": checkpoint}
        welcome = {"version": head.version, "checkpoint": checkpoint, "audience": audience}
        _to_this_connection("welcome", {**welcome, "court": court_now})
        if last_version is not None and last_version < head.version:
            _to_this_connection("events", self._page(game_id, actor, head, last_version))

    def on_disconnect(self, reason: Any = None) -> None:
        sid = connection_sid()
        with self._sessions_lock:
            session = self._sessions.pop(sid, None)
            address = self._addresses.pop(sid, None)
            self._audiences.pop(sid, None)
        if address is not None:
            self.limits.close(address, sid)
        if session is not None:
            self.pusher.unfollow(session[0])
            self.talk_pusher.unfollow(session[0])

    def connection(self) -> tuple[str, Actor]:
        """The game and actor of this connection, as its token was read when it connected (or
        took a seat). A command's seat is checked by the service, on the state it decides
        on; what reads the game without a command asks `acting`."""
        with self._sessions_lock:
            return self._sessions[connection_sid()]

    def acting(self, state: CourtState | None = None) -> tuple[str, Actor]:
        """The game and actor of this connection as its token stands on `state` (the head
        this process knows when None), checked by the service (`CourtService.acting`): a seat
        given up, handed to a new token or removed since acts no more, and the host's powers
        go with the host role."""
        game_id, actor = self.connection()
        if actor.seat is None and actor.token_sha256 is None:
            return game_id, actor
        now = state if state is not None else self.service.latest(game_id).state
        acting = self.service.acting(now, actor)
        if acting != actor:
            with self._sessions_lock:
                self._sessions[connection_sid()] = (game_id, acting)
        return game_id, acting

    def reseat(self, game_id: str, state: CourtState) -> list[str]:
        """After a seat was taken, handed, removed or given up, or the host role moved: each
        of this process's connections of the game whose token now stands for another
        audience is moved to that audience's room before anything more is pushed; one whose
        token holds its seat no more is told so (`seat_ended`), watches as a spectator, and
        its next command is refused with `bad_token`. The connections whose seat ended."""
        with self._sessions_lock:
            kept = [
                (sid, a, self._audiences.get(sid, PUBLIC))
                for sid, (g, a) in self._sessions.items()
                if g == game_id
            ]
        ended = []
        for sid, was, now, lost in regroup(state, kept):
            self.server.leave_room(sid, audience_room(game_id, was), namespace=self.namespace)
            self.server.enter_room(sid, audience_room(game_id, now), namespace=self.namespace)
            with self._sessions_lock:
                self._audiences[sid] = now
            if lost is not None:
                told = {"game": game_id, "seat": lost, "message": seat_ended(state, lost)}
                self.server.emit(
                    "seat_ended", told, to=sid, namespace=self.namespace, ignore_queue=True
                )
                ended.append(sid)
        return ended

    # -- commands ----------------------------------------------------------

    def trigger_event(self, event: str, *args: Any) -> Any:
        """Every client message passes the rate limit and lands in one error mapping."""
        sid = str(args[0] if args else "")
        if event in ("connect", "disconnect") and self._from_server(event, sid):
            return super().trigger_event(event, *args)
        with self._sessions_lock:
            address = self._addresses.get(sid, sid)  # as the connection came
        try:
            self.limits.message(address, sid)
        except RateLimited as exc:
            return _error(exc.code, exc.message, retry_after=exc.retry_after)
        if event in ("connect", "disconnect") or not hasattr(self, f"on_{event}"):
            return _error("unknown_message", f"There is no message {event!r}.")
        try:
            return self._handle(event, sid, args[1:])
        except ValidationError as exc:
            return _error(
                "bad_request",
                "The message has the wrong shape; see fields.",
                fields=f.capped(exc.messages),
            )
        except CourtError as exc:
            return _error(exc.code, exc.message)
        except DATABASE_ERRORS as exc:
            log_failure(log, f"handling {event}", exc, self.service.database)
            return _error(*refusal(exc))
        except TypeError:
            log.warning("message %s with unexpected arguments", event, exc_info=True)
            return _error("bad_request", "Send one JSON object with the message.")
        except Exception:
            log.exception("unexpected error handling %s", event)
            return _error("internal_error", "Something went wrong on the server.")

    def _handle(self, event: str, sid: str, args: tuple[Any, ...]) -> Any:
        """Run a message's handler for connection `sid`. Not in a Flask request context as
        Flask-SocketIO would (a request built from the handshake's environ, and the user
        session opened, for every message): the handlers read only the connection id, and
        join rooms through the server (`_enter_room`)."""
        if len(args) > 1:
            raise TypeError(f"{event} takes one payload, not {len(args)}")
        handler = getattr(self, f"on_{event}")
        token = _handled_sid.set(sid)
        try:
            return handler(*args)
        finally:
            _handled_sid.reset(token)

    def _enter_room(self, room: str, *, leave: str | None = None) -> None:
        """Move the connection being handled into `room` (out of `leave`)."""
        server = self.server
        if leave is not None:
            server.leave_room(connection_sid(), leave, namespace=self.namespace)
        server.enter_room(connection_sid(), room, namespace=self.namespace)

    def _from_server(self, event: str, sid: str) -> bool:
        """Whether `connect` or `disconnect` is the server opening or closing the connection.

        A client can send a message of either name too; it must not open a second session
        nor close its own while the connection stays up. The server connects a sid that has
        no session yet, and disconnects one it no longer counts as connected."""
        if event == "connect":
            with self._sessions_lock:
                return sid not in self._sessions
        return not self.server.manager.is_connected(sid, self.namespace)

    def __getattr__(self, name: str) -> Callable[..., dict[str, Any]]:
        """`on_<message>` for every message of the catalogue (server/messages/), where each
        is declared: the payload is checked, the command sent as this connection's actor,
        and the ack is the message's answer; pushes go to every room."""
        message = CATALOGUE.get(name.removeprefix("on_")) if name.startswith("on_") else None
        if message is None:
            raise AttributeError(name)
        return lambda payload=None: self._command(message, payload)

    def _command(self, message: Message, payload: Any) -> dict[str, Any]:
        """Who sends it is known before the payload is read: a spectator's seat or host
        command is refused unread, as HTTP refuses it without a token."""
        game_id, actor = self.connection()
        if actor.spectator and message.sender is not Sender.ANYONE:
            raise BadToken("token_required", "This needs a seat: connect with your seat token.")
        body = message.load(payload)
        return message.send(self.service, game_id, actor, body)

    def on_join(self, payload: Any) -> dict[str, Any]:
        """`join` (declared in server/messages/game.py), then the connection moves to the
        seat's room and acts as the seat."""
        answer = self._command(CATALOGUE["join"], payload)
        game_id, actor = self.connection()
        seat = answer["seat"]
        # The connection stands for the token it came with (the host's), or for the new one.
        token = actor.token_sha256 or token_digest(answer["token"])
        new_actor = Actor(seat=Seat(seat), host=actor.host, token_sha256=token)
        with self._sessions_lock:
            self._sessions[connection_sid()] = (game_id, new_actor)
            was = self._audiences.get(connection_sid(), PUBLIC)
            self._audiences[connection_sid()] = audience_of(new_actor)
        self._enter_room(seat_room(game_id, seat), leave=audience_room(game_id, was))
        return answer

    def on_sync(self, payload: Any) -> dict[str, Any]:
        """Ask again for the records after `last_version`, rendered for this connection: at
        most SYNC_PAGE of them; `more` says whether to ask again from `next_after`."""
        if not isinstance(payload, dict):
            raise ValidationError({"_payload": ["Send a JSON object."]})
        body = schema_of(SyncSchema).load(payload)
        game_id, _ = self.connection()
        head = self.service.current(game_id)
        _, actor = self.acting(head.state)
        return {"ok": True, **self._page(game_id, actor, head, body["last_version"])}

    def _page(self, game_id: str, actor: Actor, head: Head, after: int) -> dict[str, Any]:
        """A page of the catch-up: the records after `after` up to `head`, at most
        SYNC_PAGE, each rendered for `actor` with the court at the head."""
        records = self.service.records(game_id, after=after, upto=head.version, limit=SYNC_PAGE)
        last = records[-1].version if records else head.version
        observer = observe(actor, head.state)
        return {
            "version": head.version,
            "records": [observer.told(r, head.state) for r in records],
            "more": last < head.version,
            "next_after": last if last < head.version else None,
            "checkpoint": signed(self.service, head),
        }
