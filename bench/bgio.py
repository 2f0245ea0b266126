"""The peer side of bench/live.py and bench/load.py: boardgame.io 0.50 (bench/peers/server.js)
driven with the same clients and the same election traffic as the court.

Setup (untimed) goes through boardgame.io's lobby API: `POST /games/warden/create` with six
players, then `POST /games/warden/<match>/join` for each seat, which answers the seat's
credentials. Every seat (and, in the single room, every spectator) is a socketio.Client of
its own on the websocket transport with live_peers.WEBSOCKET_OPTIONS, connected to the
game's namespace `/warden`, where it emits `sync` (matchID, playerID, credentials,
numPlayers) and is answered `sync` (matchID, {state, ...}) with the state rendered for its
player. A move is the `update` event (action, stateID, matchID, playerID), the action a
MAKE_MOVE with the seat's credentials; the server answers nothing to the mover alone: it
broadcasts `update` (matchID, state, deltalog) to every socket of the match, each state
rendered through the game's playerView (other seats' secrets stripped). So a move's "ack"
is the moment its mover receives the update of the new stateID, and its push is all the
room's sockets receiving it; a `Room` follows the stateID each socket has.

The election is the court bench's (live_court.py): the same seats stand or pass, Stark's
and Tyrell's seats put FOR on Stark's Lord and DECOY on another, Lannister's passes, the
winner refuses the title: ten moves an election, each chosen from the state the first
seat was last pushed. Moves are paced per socket as the court's peers are.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import requests
from common import cpu_seconds
from live_court import BALLOT_PASSING, HOUSES, PLAYERS, STANDING
from live_peers import Peer, Room, close_all, connect_all

GAME = "warden"
NAMESPACE = f"/{GAME}"
# seats are the court bench's Houses in their order: 0 Stark, 1 Lannister, ... 5 Martell
STANDING_SEATS = frozenset(i for i, house in enumerate(HOUSES) if house in STANDING)
PASSING_SEATS = frozenset(i for i, house in enumerate(HOUSES) if house in BALLOT_PASSING)
TARGET = "lord-0"  # Stark's Lord, as the court bench's voters back the host's Lord
SYNC_SECONDS = 20.0  # how long a socket may wait for its sync
HTTP_SECONDS = 20.0
SETUP_WORKERS = 16  # matches set up at once over HTTP
MAX_MOVES = 50  # moves an election may take before the script is taken to be lost

Move = tuple[int, str, list[Any]]  # (seat, move, args)


@dataclass
class Match:
    """A match with every seat joined: its id and each seat's credentials."""

    id: str
    credentials: dict[int, str] = field(default_factory=dict)


@dataclass
class PeerRun:
    """What a run of many rooms measured, as load.py's Run, plus the server's CPU."""

    acks: list[float] = field(default_factory=list)  # seconds from emit to the mover's update
    wall: float = 0.0  # seconds from the start of the elections to the end of the last
    cpu: float = 0.0  # the server process's user + system CPU seconds over that window
    client_cpu: float = 0.0  # CPU seconds of the bench's process (the clients) in it
    errors: list[str] = field(default_factory=list)


def start_match(url: str) -> Match:
    """A six-player match with every seat joined, through the lobby API."""
    with requests.Session() as session:
        created = session.post(
            f"{url}/games/{GAME}/create", json={"numPlayers": PLAYERS}, timeout=HTTP_SECONDS
        )
        created.raise_for_status()
        match = Match(str(created.json()["matchID"]))
        for seat in range(PLAYERS):
            joined = session.post(
                f"{url}/games/{GAME}/{match.id}/join",
                json={"playerID": str(seat), "playerName": f"Player of {HOUSES[seat]}"},
                timeout=HTTP_SECONDS,
            )
            joined.raise_for_status()
            match.credentials[seat] = str(joined.json()["playerCredentials"])
    return match


class BgioPeer(Peer):
    """One socket of a match (a seat, or a spectator when `seat` is None), reporting the
    stateID of each state it is sent to its Room."""

    def __init__(self, room: Room, index: int, seat: int | None) -> None:
        super().__init__(room, index)
        self.seat = seat
        self.state: dict[str, Any] = {}
        self._synced = threading.Event()
        self.client.on("sync", self._on_sync, namespace=NAMESPACE)
        self.client.on("update", self._on_update, namespace=NAMESPACE)

    @property
    def player(self) -> str | None:
        return None if self.seat is None else str(self.seat)

    def _take(self, state: dict[str, Any]) -> None:
        self.state = state
        self.room.seen(self.index, int(state["_stateID"]))

    def _on_sync(self, match_id: str, info: dict[str, Any]) -> None:
        self._take(info["state"])
        self._synced.set()

    def _on_update(self, match_id: str, state: dict[str, Any], log: Any = None) -> None:
        self._take(state)

    def connect(self, url: str, auth: dict[str, Any]) -> None:
        """Connect, then sync with the match of `auth` ({match, credentials})."""
        self.client.connect(url, transports=["websocket"], namespaces=[NAMESPACE], wait_timeout=20)
        self.client.emit(
            "sync", (auth["match"], self.player, auth["credentials"], PLAYERS), namespace=NAMESPACE
        )
        if not self._synced.wait(SYNC_SECONDS):
            raise RuntimeError(f"no sync of match {auth['match']} in {SYNC_SECONDS:.0f} s")

    def move(self, match: Match, state_id: int, name: str, args: list[Any]) -> None:
        assert self.seat is not None, "a spectator makes no move"
        payload = {
            "type": name,
            "args": args,
            "playerID": self.player,
            "credentials": match.credentials[self.seat],
        }
        action = {"type": "MAKE_MOVE", "payload": payload}
        self.client.emit("update", (action, state_id, match.id, self.player), namespace=NAMESPACE)


def script(G: dict[str, Any]) -> Move:
    """The next move of the election in `G`, as the court bench plays it."""
    seat = int(G["order"][G["cursor"]])
    step = G["step"]
    if step == "candidacy":
        return (seat, "stand", [f"lord-{seat}"]) if seat in STANDING_SEATS else (seat, "pass", [])
    if step == "refuse":
        return (seat, "refuseTitle", [])
    if seat in PASSING_SEATS:
        return (seat, "pass", [])
    candidates = [str(c["noble"]) for c in G["standing"]]
    target = TARGET if TARGET in candidates else candidates[0]
    others = [c for c in candidates if c != target]
    markers = [{"kind": "for", "candidate": target}]
    if others:
        markers.append({"kind": "decoy", "candidate": others[seat % len(others)]})
    return (seat, "placeBallot", [markers])


class BgioTable:
    """One match's sockets (seats, then spectators) and the election they play."""

    def __init__(self, match: Match, spectators: int) -> None:
        self.game = match
        self.room = Room(PLAYERS + spectators)
        self.seats = {seat: BgioPeer(self.room, seat, seat) for seat in range(PLAYERS)}
        self.spectators = [BgioPeer(self.room, PLAYERS + i, None) for i in range(spectators)]
        self.observer = self.seats[0]

    @property
    def peers(self) -> list[BgioPeer]:
        return [*self.seats.values(), *self.spectators]

    def auths(self) -> list[tuple[Peer, dict[str, Any]]]:
        credentials = self.game.credentials
        return [
            (peer, {"match": self.game.id, "credentials": credentials.get(peer.seat)})
            if peer.seat is not None
            else (peer, {"match": self.game.id, "credentials": None})
            for peer in self.peers
        ]

    def command(self) -> tuple[float, float]:
        """One move: (seconds until its mover has the new state, seconds until every socket
        of the room has it)."""
        state = self.observer.state
        seat, name, args = script(state["G"])
        peer = self.seats[seat]
        state_id = int(state["_stateID"])
        peer.pace()
        start = time.perf_counter()
        peer.move(self.game, state_id, name, args)
        last = self.room.wait(state_id + 1)
        return self.room.reached[peer.index] - start, last - start

    def play_election(self) -> list[tuple[float, float]]:
        """Play the open election to its end; each move's (ack, push) seconds."""
        election = self.observer.state["G"]["election"]
        timings: list[tuple[float, float]] = []
        while self.observer.state["G"]["election"] == election:
            if len(timings) >= MAX_MOVES:
                raise RuntimeError(f"election {election} still open after {MAX_MOVES} moves")
            timings.append(self.command())
        return timings


def bgio_single(url: str, commands: int, spectators: int, warmup_elections: int) -> list[float]:
    """Seconds of each of at least `commands` timed moves in one match with 6 seats and
    `spectators` spectators, each from its emit until every socket has the new state;
    `warmup_elections` untimed elections first."""
    table = BgioTable(start_match(url), spectators)
    try:
        connect_all(url, table.auths())
        for _ in range(warmup_elections):
            table.play_election()
        samples: list[float] = []
        while len(samples) < commands:
            samples.extend(push for _, push in table.play_election())
        return samples
    finally:
        close_all(table.peers)


RunRooms = Callable[[Sequence[BgioTable], Callable[[BgioTable], None], list[str]], float]


def bgio_load(url: str, pid: int, rooms: int, elections: int, in_all_rooms: RunRooms) -> PeerRun:
    """`rooms` matches of 6 seats each play `elections` elections at once (`in_all_rooms`
    runs one thread per room, collects errors and answers the wall seconds); every move is
    timed to its mover's update, and the next move of a room waits until its six seats have
    it. The CPU of server process `pid` is read around the timed window."""
    run = PeerRun()
    with ThreadPoolExecutor(SETUP_WORKERS) as pool:
        tables = [BgioTable(match, 0) for match in pool.map(start_match, [url] * rooms)]
    samples: dict[int, list[float]] = {id(table): [] for table in tables}
    try:
        connect_all(url, [pair for table in tables for pair in table.auths()])

        def play(table: BgioTable) -> None:
            for _ in range(elections):
                samples[id(table)].extend(ack for ack, _ in table.play_election())

        before, client_before = cpu_seconds([pid]), time.process_time()
        run.wall = in_all_rooms(tables, play, run.errors)
        run.cpu = cpu_seconds([pid]) - before
        run.client_cpu = time.process_time() - client_before
        run.acks = [s for table in tables for s in samples[id(table)]]
        return run
    finally:
        close_all([peer for table in tables for peer in table.peers])
