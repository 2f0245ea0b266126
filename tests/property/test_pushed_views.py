"""Pushes keep every page's court view: Hypothesis plays games (tests/property/machine.py) while a
page of every audience follows them through the pushes (server/live/pushes.py), each read as the
court page reads it (bench/page_client.py `CourtPage`, static/pages/court.js). Pages leave and
come back, the host hands his role on and seats to new tokens (whose pages then watch as
spectators) at random moments. After every push, each page holds exactly the court view a full
render (court/views/made.py `court_view`, no section kept) gives its audience at that version,
no page ever had to connect again, and every pushed record chained to the one before.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import orjson
from hypothesis import strategies as st
from hypothesis.stateful import invariant, precondition, rule

from court.commands import SPECTATOR, Actor, HandHost, HandSeat
from court.ids import GameId
from court.model.tokens import still_acting
from court.state import CourtState, GameStatus
from court.views.made import court_view
from server.live.pushes import NAMESPACE, RoomPusher, audience_room, game_room
from server.live.views import audience_of, handed_at, regroup, viewer_of
from server.messages.views import named, signed
from server.service.ports import token_digest
from tests.property.machine import CourtMachine, machine_settings

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from page_client import CourtPage  # bench/ is no package

EXAMPLES = int(os.environ.get("PUSHED_VIEWS_EXAMPLES", "12"))
STEPS = int(os.environ.get("PUSHED_VIEWS_STEPS", "120"))


class Rooms:
    """Flask-SocketIO as RoomPusher uses it, with pages for connections: who is in which room,
    and each emit delivered at once, as JSON, to every page in its room, in order."""

    def __init__(self) -> None:
        self.rooms: dict[str, dict[str, str]] = {}
        self.server = _Server(self.rooms)
        self.pages: dict[str, CourtPage] = {}

    def enter(self, sid: str, room: str) -> None:
        self.rooms.setdefault(room, {})[sid] = sid

    def leave(self, sid: str, room: str | None = None) -> None:
        for name in [room] if room is not None else list(self.rooms):
            members = self.rooms.get(name, {})
            members.pop(sid, None)
            if not members:
                self.rooms.pop(name, None)

    def emit(self, event: str, payload: dict[str, Any], to: str, **_options: Any) -> None:
        wire = orjson.loads(orjson.dumps(payload))  # nothing the server holds reaches a page
        for sid in list(self.rooms.get(to, {})):
            page = self.pages[sid]
            if event == "events":
                page.events(orjson.loads(orjson.dumps(wire)))
            elif event == "own":
                page.own(orjson.loads(orjson.dumps(wire)))


class _Server:
    def __init__(self, rooms: dict[str, dict[str, str]]) -> None:
        self.manager = _Manager({NAMESPACE: rooms})


class _Manager:
    def __init__(self, rooms: dict[str, dict[str, dict[str, str]]]) -> None:
        self.rooms = rooms


class PushedMachine(CourtMachine):
    """The court machine with pages of every audience following the game by its pushes."""

    def __init__(self) -> None:
        super().__init__()
        self.sockets = Rooms()
        self.pusher = RoomPusher(self.sockets, self.service)  # type: ignore[arg-type]
        self.pusher.watch_seats(self._reseat)
        self.service.publishers += [self.pusher, _Checker(self)]
        self.actors_of: dict[str, Actor] = {}  # each connected page's actor
        self.audience_of: dict[str, str] = {}  # the audience whose room each page is in
        self.away: dict[str, Actor] = {}  # pages that left, and whom they stood for
        self.opened = False
        self.moved: set[str] = set()  # pages moved to another audience by the last push
        self.failures: list[str] = []  # what the checks at each push found

    # -- pages -------------------------------------------------------------------------------

    def connect(self, sid: str, actor: Actor) -> None:
        """As server/live/sockets.py `_enter`: under the game's lock, the pages here brought
        up to the head, then the rooms joined and the page welcomed."""
        service, game_id = self.service, self.game_id
        with service.lock(game_id):
            head = service.current(game_id)
            self.pusher.follow(game_id, head)
            audience = audience_of(actor)
            self.sockets.enter(sid, game_room(game_id))
            self.sockets.enter(sid, audience_room(game_id, audience))
            self.actors_of[sid], self.audience_of[sid] = actor, audience
            checkpoint = signed(service, head)
            court = self.pusher.views.welcome(game_id, head.state, head.version, actor)
            page = self.sockets.pages.setdefault(sid, CourtPage())
            welcome = {"court": {**court, "checkpoint": checkpoint}, "audience": audience}
            page.welcome(orjson.loads(orjson.dumps({**welcome, "checkpoint": checkpoint})))
        self.pusher.catch_up(game_id)

    def disconnect(self, sid: str) -> None:
        self.sockets.leave(sid)
        self.away[sid] = self.actors_of.pop(sid)
        self.audience_of.pop(sid)
        self.pusher.unfollow(self.game_id)

    def _reseat(self, game_id: str, state: CourtState) -> None:
        """As server/live/sockets.py `reseat`: each page whose token stands for another
        audience now moves to its room; one whose seat ended watches as a spectator."""
        kept = [(sid, actor, self.audience_of[sid]) for sid, actor in self.actors_of.items()]
        for sid, was, now, _lost in regroup(state, kept):
            self.sockets.leave(sid, audience_room(game_id, was))
            self.sockets.enter(sid, audience_room(game_id, now))
            self.audience_of[sid] = now
            self.actors_of[sid] = still_acting(state, self.actors_of[sid]) or SPECTATOR
            self.moved.add(sid)

    def welcome_the_moved(self) -> None:
        """A page moved to another audience learns it from the push's own part, which names
        that audience, and connects again (as static/pages/court.js does): it is welcomed anew."""
        for sid in sorted(self.moved):
            page = self.sockets.pages[sid]
            assert page.stale == 1 and page.court is None, f"{sid} kept a view not its own"
            self.disconnect(sid)
            actor = self.away.pop(sid)
            self.sockets.pages[sid] = CourtPage()
            self.connect(sid, actor)
        self.moved.clear()

    def _tokened(self) -> list[tuple[str, Actor]]:
        """A page for every audience of the game as it stands, by the tokens of its seats."""
        state = self.state
        master = Actor(master=True, token_sha256=state.game_master_token_sha256)
        seats = [
            (f"seat{s}", Actor(seat=s, host=info.host, token_sha256=info.token_sha256))
            for s, info in sorted(state.seats.items())
        ]
        return [("spectator", SPECTATOR), ("master", master), *seats]

    @precondition(lambda self: bool(self.actors_of))
    @rule(data=st.data())
    def a_page_leaves(self, data: st.DataObject) -> None:
        self.disconnect(data.draw(st.sampled_from(sorted(self.actors_of)), label="leaves"))

    @precondition(lambda self: bool(self.away))
    @rule(data=st.data())
    def a_page_comes_back(self, data: st.DataObject) -> None:
        """A page connects again with its token: it is welcomed as whatever it stands for."""
        sid = data.draw(st.sampled_from(sorted(self.away)), label="back")
        actor = still_acting(self.state, self.away.pop(sid)) or SPECTATOR
        self.sockets.pages[sid] = CourtPage()
        self.connect(sid, actor)

    @precondition(lambda self: self.game_id and self.state.status is GameStatus.PLAYING)
    @rule(data=st.data())
    def the_host_hands_on(self, data: st.DataObject) -> None:
        """The host hands his role to another seat, or a seat to a new token (its old pages
        then watch as spectators; a page opens with the new token)."""
        state = self.state
        host = state.host_seat()
        assert host is not None
        actor = Actor(seat=host, host=True)
        seat = data.draw(st.sampled_from(sorted(state.seats)), label="seat")
        if data.draw(st.booleans(), label="role") and seat != host:
            self.service.handle(self.game_id, HandHost(seat=seat), actor)
            self._absorb()
            self.welcome_the_moved()
            return
        token = self.service.handle(
            self.game_id, HandSeat(seat=seat, player_name="Eve"), actor
        ).token
        self._absorb()
        self.welcome_the_moved()
        info = self.state.seats[seat]
        new = Actor(seat=seat, host=info.host, token_sha256=token_digest(token))
        self.connect(f"seat{seat}-{token}", new)

    # -- checks ----------------------------------------------------------------------------

    def check(self, state: CourtState, version: int) -> None:
        """Every connected page holds the view its audience is shown at `version` (but those
        the push moved to another audience, which connect again)."""
        for sid, audience in self.audience_of.items():
            if sid in self.moved:
                continue
            page = self.sockets.pages[sid]
            assert page.stale == 0, f"{sid} could not keep its view"
            assert page.unchained == 0, f"{sid}: pushed records did not chain"
            assert page.awaiting is None, f"{sid} waits for its own part"
            viewer = viewer_of(state, audience)
            assert viewer is not None, audience
            court = page.court
            assert court is not None and court.pop("checkpoint")["version"] == version
            try:
                full = court_view(state, version, viewer, handed_at(state, viewer))
                full["moves"] = named(full["moves"])
                assert court == orjson.loads(orjson.dumps(full)), f"{sid} ({audience}) differs"
            finally:
                court["checkpoint"] = {"version": version}

    @invariant()
    def every_page_holds_its_view(self) -> None:
        """Checked at every push (`_Checker`), and between steps; the pages of every audience
        open once the game is set up (the machine's first step)."""
        if not self.game_id:
            return
        if not self.opened:
            self.opened = True
            for sid, actor in self._tokened():
                self.connect(sid, actor)
        assert not self.failures, self.failures[0]
        head = self.service.current(self.game_id)
        self.check(head.state, head.version)


class _Checker:
    """A publisher after the pusher: checks every page at each push."""

    def __init__(self, machine: PushedMachine) -> None:
        self.machine = machine

    def publish(self, game_id: GameId, records: Any, state: CourtState) -> None:
        """A failure is kept for the invariant to raise: the service logs a publisher's and
        goes on."""
        try:
            self.machine.check(state, records[-1].version)
        except AssertionError as exc:
            self.machine.failures.append(f"at version {records[-1].version}: {exc}")


TestPushedViews = PushedMachine.TestCase
TestPushedViews.settings = machine_settings(EXAMPLES, STEPS)
