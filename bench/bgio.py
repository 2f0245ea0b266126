"""The peer side of bench/live.py and bench/load.py: boardgame.io 0.50 (bench/peers/server.js)
driven with the same clients and the same election traffic as the court.

Setup (untimed) goes through boardgame.io's lobby API: `POST /games/warden/create` with six
players, then `POST /games/warden/<match>/join` for each seat, which answers the seat's
credentials. Every seat (and, in the single room, every spectator) is a socket of its
own connected to the game's namespace `/warden`, where it emits `sync` (matchID, playerID,
credentials, numPlayers) and is answered `sync` (matchID, {state, ...}) with the state
rendered for its player. A move is the `update` event (action, stateID, matchID,
playerID), the action a MAKE_MOVE with the seat's credentials; the server answers nothing to
the mover alone: it broadcasts `update` (matchID, state, deltalog) to every socket of the
match, each state rendered through the game's playerView (other seats' secrets stripped).
So a move's "ack" is the moment its mover receives the update of the new stateID, and its
push is all the room's sockets receiving it; a `Room` follows the stateID each socket has.

The election is the court bench's (live_court.py): the same seats stand or pass, Stark's
and Tyrell's seats put FOR on Stark's Lord and DECOY on another, Lannister's passes, the
winner refuses the title: ten moves an election, each chosen from the state the first
seat was last pushed. Moves are paced per socket as the court's peers are.

Here, `bgio_single` (bench/live.py's one room with ten spectators) plays with python-socketio
clients on the websocket transport (live_peers.WEBSOCKET_OPTIONS), as the court's single room
does; bench/load.py's many rooms play on the bench's asyncio loop (bench/bgio_loop.py).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any

import common  # noqa: F401 - the repo root on sys.path
import requests
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


class Seat:
    """What a socket of a match knows, whatever its client: its seat (None for a spectator)
    and the last state it was sent, whose stateID it reports to its Room."""

    room: Room
    index: int
    seat: int | None
    state: dict[str, Any]

    @property
    def player(self) -> str | None:
        return None if self.seat is None else str(self.seat)

    def _take(self, state: dict[str, Any]) -> None:
        self.state = state
        self.room.seen(self.index, int(state["_stateID"]))

    def sync_args(self, match: Match) -> tuple[str, str | None, str | None, int]:
        """The arguments of `sync`: (matchID, playerID, credentials, numPlayers)."""
        credentials = None if self.seat is None else match.credentials[self.seat]
        return (match.id, self.player, credentials, PLAYERS)

    def move_args(
        self, match: Match, state_id: int, name: str, args: list[Any]
    ) -> tuple[dict[str, Any], int, str, str | None]:
        """The arguments of the `update` that makes move `name`: (action, stateID, matchID,
        playerID), the action a MAKE_MOVE with the seat's credentials."""
        assert self.seat is not None, "a spectator makes no move"
        payload = {
            "type": name,
            "args": args,
            "playerID": self.player,
            "credentials": match.credentials[self.seat],
        }
        return ({"type": "MAKE_MOVE", "payload": payload}, state_id, match.id, self.player)


class BgioPeer(Seat, Peer):
    """One socketio.Client of a match (a seat, or a spectator when `seat` is None)."""

    def __init__(self, room: Room, index: int, seat: int | None) -> None:
        super().__init__(room, index)
        self.seat = seat
        self.state = {}
        self._synced = threading.Event()
        self.client.on("sync", self._on_sync, namespace=NAMESPACE)
        self.client.on("update", self._on_update, namespace=NAMESPACE)

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
        self.client.emit("update", self.move_args(match, state_id, name, args), namespace=NAMESPACE)


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


def next_move(state: dict[str, Any]) -> tuple[int, int, str, list[Any]]:
    """(seat, stateID it is made on, move, args) of the next move from `state`."""
    seat, name, args = script(state["G"])
    return seat, int(state["_stateID"]), name, args


def still_open(state: dict[str, Any], election: int, moves: int) -> bool:
    """Whether `state` is still in `election` after `moves` of its moves; an error once it
    has taken MAX_MOVES."""
    if state["G"]["election"] != election:
        return False
    if moves >= MAX_MOVES:
        raise RuntimeError(f"election {election} still open after {MAX_MOVES} moves")
    return True


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
        seat, state_id, name, args = next_move(self.observer.state)
        peer = self.seats[seat]
        peer.pace()
        start = time.perf_counter()
        peer.move(self.game, state_id, name, args)
        last = self.room.wait(state_id + 1)
        return self.room.reached[peer.index] - start, last - start

    def play_election(self) -> list[tuple[float, float]]:
        """Play the open election to its end; each move's (ack, push) seconds."""
        election = self.observer.state["G"]["election"]
        timings: list[tuple[float, float]] = []
        while still_open(self.observer.state, election, len(timings)):
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
