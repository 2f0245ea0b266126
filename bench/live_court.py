"""Court side of bench/live.py: games set up over HTTP, Warden elections played over Socket.IO.

Setup (untimed) goes through the HTTP API with one requests.Session per game: create a
6-player game, seat six Houses (the host with his host token), start, give the four
North villages to Stark, Lannister and Tyrell, and play on until the "warden-north"
election opens. An election is then played from the records the host's peer is pushed:
candidacy in turn order (Stark, Baratheon and Tyrell stand, the others pass), a ballot in
which Lannister passes and every other voter puts FOR on Stark's candidate and DECOY on
another, and the winner refuses the title so that the same election comes back next round.

Between elections (untimed, over HTTP) the table plays what the game waits for, from the
`moves` of each seat's court view: the server runs phases 1, 3, 4 and 8 and ends each when
its last step is done (R-4.1), so every seat passes the decree steps and the other
elections, passes in a council seat sale and ends its purchases, and the host closes the
phases played at the table.
"""

from __future__ import annotations

import base64
import time
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import requests
from live_peers import Room, timed_command
from page_client import CourtPage, ThreadPagePeer
from page_keys import PageKey

PLAYERS = 6
SPECTATORS = 2  # the pages watching each room of bench/load.py beside its seats
PAGES = PLAYERS + SPECTATORS
HOUSES = ("stark", "lannister", "baratheon", "targaryen", "tyrell", "martell")
STANDING = frozenset({"stark", "baratheon", "tyrell"})  # put forward a Lord; the others pass
BALLOT_PASSING = frozenset({"lannister"})  # pass in the ballot; the other voters place
# winterfell is the principal village: Stark 3 votes, Lannister 1, Tyrell 1
VILLAGES = (
    ("winterfell", "stark"),
    ("white-harbor", "lannister"),
    ("the-dreadfort", "tyrell"),
    ("moat-cailin", "stark"),
)
ELECTION = "warden-north"
MAX_ADVANCES = 40  # moves played between two elections (a round takes a dozen)
HTTP_SECONDS = 60.0  # setup requests wait behind 1,600 pages connecting and catching up
# A connection left idle longer is not used again: the court's gunicorn closes a kept-alive
# connection after 5 s (server/tools/serve.py), and a request sent as it closes is reset.
IDLE_SECONDS = 1.0
# The moves that keep the game going and change nothing else: a pass (decree step, election,
# council seat sale), the end of one's purchases, a title refused, the host closing a phase.
GOING_ON = ("pass", "pass_bid", "end_purchases", "refuse_title", "advance_phase")

Move = tuple[int, str, dict[str, Any]]  # (seat, message, payload)


@dataclass
class Game:
    """A started game: its id, the host's token, each seat's token, House and first Lord."""

    id: str
    host_token: str
    version: int = 0  # the version the start answered
    tokens: dict[int, str] = field(default_factory=dict)
    houses: dict[int, str] = field(default_factory=dict)
    lords: dict[str, str] = field(default_factory=dict)


class CourtHttp:
    """The few HTTP calls of the setup, on one kept-alive connection while it is busy. `keyed`:
    each seat's page keys its device once the game has started and signs every move from
    then on, as the court page does (bench/page_keys.py); `keys` holds them by token."""

    def __init__(self, url: str, *, keyed: bool = False) -> None:
        self.url = url
        self.keyed = keyed
        self.keys: dict[str, PageKey] = {}
        self.session = requests.Session()
        self._answered = time.monotonic()  # when the last answer came

    def _request(
        self, method: str, path: str, body: dict[str, Any] | None, token: str | None
    ) -> requests.Response:
        if time.monotonic() - self._answered > IDLE_SECONDS:
            self.session.close()  # the next request opens a new connection
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        response = self.session.request(
            method, f"{self.url}/api{path}", json=body, headers=headers, timeout=HTTP_SECONDS
        )
        self._answered = time.monotonic()
        return response

    def signing_keys(self) -> dict[str, bytes]:
        """The server's public keys by id, as a page keeps them at its first visit to check
        the checkpoints it is pushed."""
        served = self._request("GET", "/signing-key", None, None).json()
        return {k["key_id"]: base64.b64decode(k["public_key"]) for k in served["keys"]}

    def _post(self, path: str, body: dict[str, Any], token: str | None = None) -> dict[str, Any]:
        response = self._request("POST", path, body, token)
        if response.status_code not in (200, 201):
            raise RuntimeError(f"POST {path}: {response.status_code} {response.text[:300]}")
        return response.json()

    def start_game(self) -> Game:
        """A 6-player game with every seat taken (the host's first), started."""
        created = self._post("/games", {"players": PLAYERS, "host_name": "Bench Host"})
        game = Game(created["game_id"], created["host_token"])
        for index, house in enumerate(HOUSES):
            joined = self._post(
                f"/games/{game.id}/commands/join",
                {
                    "house": house,
                    "player_name": f"Player of {house}",
                    "invite": created["invite"],
                },
                game.host_token if index == 0 else None,
            )
            game.tokens[joined["seat"]] = joined["token"]
            game.houses[joined["seat"]] = house
        game.version = self._post(f"/games/{game.id}/commands/start", {}, game.host_token)[
            "version"
        ]
        if self.keyed:
            game.version = self._key_seats(game)
        game.lords = self._first_lords(game)
        return game

    def _key_seats(self, game: Game) -> int:
        """Each seat's page registers its device's key with its token (the host's seat with
        either of his); the version the last ends at."""
        version = game.version
        for seat, token in sorted(game.tokens.items()):
            key = PageKey(game.id, f"seat:{seat}")
            path = f"/games/{game.id}/commands/add_device_key"
            version = int(self._post(path, key.registration(), token)["version"])
            self.keys[token] = key
            if seat == min(game.tokens):
                self.keys[game.host_token] = key
        return version

    def command(
        self,
        game: Game,
        message: str,
        payload: dict[str, Any],
        token: str,
        view: dict[str, Any] | None = None,
    ) -> int:
        """Send a move for `token`, signed by its page's key on the head of `view` (read now
        when not given) once the seat is keyed; the version it ends at."""
        key = self.keys.get(token)
        if key is not None:
            view = view or self.view(game, token)
            sealed = bool(view["game"]["variants"]["sealed_ballots"])
            payload = key.signed(message, payload, view["checkpoint"], sealed)
        return int(self._post(f"/games/{game.id}/commands/{message}", payload, token)["version"])

    def _first_lords(self, game: Game) -> dict[str, str]:
        return {
            house["id"]: next(n["id"] for n in house["nobles"] if n["gender"] == "lord")
            for house in self.view(game, None)["houses"]
            if house["id"] in HOUSES
        }

    def record_villages(self, game: Game) -> int:
        version = 0
        for village, house in VILLAGES:
            body = {"village": village, "house": house, "cause": "bench"}
            version = self.command(game, "record_village", body, game.host_token)
        return version

    def view(self, game: Game, token: str | None) -> dict[str, Any]:
        """The court as the holder of `token` (a spectator without) sees it, with the moves
        he may send."""
        response = self._request("GET", f"/games/{game.id}", None, token)
        response.raise_for_status()
        return response.json()

    def go_on(self, game: Game) -> int:
        """Play one move that keeps the game going (see GOING_ON), by the host or by the
        first seat that has one, the seats the court names as acting asked first; the
        version it ends at."""
        host = self.view(game, game.host_token)
        for token in [game.host_token, *(game.tokens[s] for s in acting_first(host, game))]:
            view = host if token == game.host_token else self.view(game, token)
            move = going_on(view["moves"])
            if move is not None:
                return self.command(game, move["message"], move["payload"], token, view)
        where = host["game"]
        raise RuntimeError(
            f"game {game.id}: no seat has a move that goes on in round {where['round']}, "
            f"phase {where['phase']}"
        )

    def close(self) -> None:
        self.session.close()


class Table:
    """One game's peers (seats, then spectators) and the election script they play."""

    def __init__(self, http: CourtHttp, game: Game, room: Room, spectators: int) -> None:
        self.http = http
        self.game = game
        self.room = room
        self.keys = http.signing_keys()
        self.seats = {
            seat: self.peer(room, i, keep_records=i == 0)
            for i, seat in enumerate(sorted(game.tokens))
        }
        first = len(self.seats)
        self.spectators = [self.peer(room, first + i) for i in range(spectators)]
        self.observer = self.seats[min(self.seats)]
        self.read_upto = 0  # records up to this version have been turned into moves
        self.moves: deque[Move] = deque()
        self.stood: dict[str, int] = {}  # noble -> seat, in the election under way

    def peer(self, room: Room, index: int, *, keep_records: bool = False) -> ThreadPagePeer:
        """One page of the room, a python-socketio client reading and signing as the page
        does."""
        page = CourtPage(self.keys)
        return ThreadPagePeer(room, index, page, self.key_of(index), keep_records=keep_records)

    def key_of(self, index: int) -> PageKey | None:
        """The device key of the room's `index`th page: a seat's, when keyed (None: a
        spectator's page, or an unkeyed seat's)."""
        seats = sorted(self.game.tokens)
        return self.http.keys.get(self.game.tokens[seats[index]]) if index < len(seats) else None

    @property
    def peers(self) -> list[ThreadPagePeer]:
        return [*self.seats.values(), *self.spectators]

    def faults(self) -> int:
        """What the room's pages could not follow: views they could not apply, records that
        did not chain, signed moves they could not believe (each must be 0)."""
        return sum(p.page.stale + p.page.unchained + p.page.moves.unbelieved for p in self.peers)

    def page_cpu_ms_per_push(self) -> float:
        """The thread CPU the room's pages together spent reading a push and its own part."""
        pushes = max(p.pushes for p in self.peers)
        return sum(p.cpu_ns for p in self.peers) / 1e6 / max(1, pushes)

    def auths(self) -> list[tuple[ThreadPagePeer, dict[str, Any]]]:
        game = self.game
        seated = [
            (peer, {"game": game.id, "token": game.tokens[seat], "last_version": None})
            for seat, peer in self.seats.items()
        ]
        watching = [
            (peer, {"game": game.id, "token": None, "last_version": None})
            for peer in self.spectators
        ]
        return seated + watching

    # -- untimed setup -------------------------------------------------------

    def to_first_election(self) -> None:
        """Once every peer is welcomed: record the North villages, then advance to the
        first Warden election."""
        self.room.wait(self.game.version)
        self.read_upto = self.game.version
        self.room.wait(self.http.record_villages(self.game))
        self._read_new()
        self.to_next_election()

    def to_next_election(self) -> None:
        """Play (untimed, over HTTP) what the game waits for until the election's candidacy
        is open: the decree steps and other elections passed, purchases ended, the phases
        played at the table closed by the host (R-4.1, R-4.2)."""
        for _ in range(MAX_ADVANCES):
            if self.moves:
                return
            self.room.wait(self.http.go_on(self.game))
            self._read_new()
        if self.moves:
            return
        raise RuntimeError(
            f"game {self.game.id}: no {ELECTION} election after {MAX_ADVANCES} moves"
        )

    # -- the timed election --------------------------------------------------

    def play_election(self, samples: list[float]) -> None:
        """Play the open election to its end; each command's seconds go to `samples`."""
        if not self.moves:
            raise RuntimeError("no election is open")
        while self.moves:
            seat, event, payload = self.moves.popleft()
            _, seconds = timed_command(self.seats[seat], event, payload)
            samples.append(seconds)
            self._read_new()

    def _read_new(self) -> None:
        """Turn the records pushed since the last read into the moves they call for."""
        upto = min(self.room.versions)
        records = [self.observer.records[v] for v in range(self.read_upto + 1, upto + 1)]
        self.read_upto = upto
        self.moves.extend(self._moves(records))

    def _moves(self, records: Iterable[dict[str, Any]]) -> Iterable[Move]:
        for record in records:
            data = record["data"]
            if data.get("election") != ELECTION:
                continue
            match record["type"]:
                case "ElectionOpened":
                    self.stood = {}
                    yield from (self._candidacy(seat) for seat in data["order"])
                case "CandidateStood":
                    self.stood[data["noble"]] = data["seat"]
                case "BallotOpened":
                    yield from self._ballot(data["order"], data["candidates"])
                case "BallotsRevealed" if data["winner"] is not None:
                    yield (self.stood[data["winner"]], "refuse_title", {})

    def _candidacy(self, seat: int) -> Move:
        house = self.game.houses[seat]
        if house in STANDING:
            return (seat, "stand", {"noble": self.game.lords[house]})
        return (seat, "pass", {})

    def _ballot(self, order: list[int], candidates: list[str]) -> Iterable[Move]:
        host_lord = self.game.lords[self.game.houses[min(self.seats)]]
        target = host_lord if host_lord in candidates else candidates[0]
        others = [c for c in candidates if c != target]
        for seat in order:
            if self.game.houses[seat] in BALLOT_PASSING:
                yield (seat, "pass", {})
                continue
            markers = [{"kind": "for", "candidate": target}]
            if others:
                markers.append({"kind": "decoy", "candidate": others[seat % len(others)]})
            yield (seat, "place_ballot", {"markers": markers})


def going_on(moves: Iterable[dict[str, Any]]) -> dict[str, Any] | None:
    """The first of `moves` (a court view's) that keeps the game going, or None: a move of
    GOING_ON, or a marriage proposal declined."""
    for move in moves:
        if move["message"] in GOING_ON:
            return move
        if move["message"] == "answer_marriage" and not move["payload"]["accept"]:
            return move
    return None


def acting_first(view: dict[str, Any], game: Game) -> list[int]:
    """Every seat of `game`, those the court `view` names as acting first: the decree
    step's turn or the proposal's answer, the election's turn, the winner's choice, the
    council seat sale's bidders, the purchase turn."""
    decree, election = view["decree"] or {}, view["election"] or {}
    proposal, pending = decree.get("proposal") or {}, view["pending"] or {}
    auction, purchases = view["auction"] or {}, view["purchases"] or {}
    named = [
        proposal.get("to_seat"),
        decree.get("current"),
        election.get("current"),
        pending.get("seat"),
        *auction.get("waiting", ()),
        purchases.get("current"),
    ]
    return list(dict.fromkeys([s for s in named if s in game.tokens] + sorted(game.tokens)))
