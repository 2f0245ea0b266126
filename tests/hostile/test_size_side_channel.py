"""No size side channel: a placement's kind and candidate, and a sealed bid's amount, never
show in the length of what travels on the wire (court/views/padding.py).

Real python-socketio clients over WebSocket to a real server record every Socket.IO packet
exactly as it crossed the connection. The same game is played several times, each time with
another secret; the owner's ack, and what each seat and a spectator are pushed about the
placement, must have one length in every game.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
import socketio
from flask.testing import FlaskClient

from server.live.sockets import NAMESPACE
from tests.live_server import LiveServer, close_all
from tests.server.http.council_seat_sale import court, to_the_sale
from tests.server.http.court_client import Game, lobby_game, next_round, start

WAIT_SECONDS = 15.0
VILLAGES = {"winterfell": "stark", "white-harbor": "stark", "the-dreadfort": "stark"}
VILLAGES |= {"moat-cailin": "lannister"}


class Wiretap(socketio.Client):
    """A client that keeps every Socket.IO packet it receives, as the text that arrived
    (each WebSocket frame is that text after Engine.IO's one-character message type)."""

    def __init__(self) -> None:
        super().__init__(reconnection=False)
        self.frames: list[str] = []

    def _handle_eio_message(self, data: Any) -> None:
        self.frames.append(data)
        super()._handle_eio_message(data)

    def pushes(self) -> list[str]:
        return [f for f in self.frames if f.startswith(f'2{NAMESPACE},["events"')]

    def acks(self) -> list[str]:
        return [f for f in self.frames if f.startswith(f"3{NAMESPACE},")]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("wire") / "t.db", deadlines=False) as live:
        yield live


def tap(server: LiveServer, game: Game, token: str | None) -> Wiretap:
    client = Wiretap()
    auth = {"game": game.id, "token": token}
    client.connect(server.url, namespaces=[NAMESPACE], transports=["websocket"], auth=auth)
    return client


def lengths(server: LiveServer, game: Game, mover: str, message: str, payload: dict) -> dict:
    """The byte lengths of the mover's ack and of the push each watcher got about it."""
    watchers = {h: tap(server, game, game.tokens[h]) for h in game.tokens}
    watchers["spectator"] = tap(server, game, None)
    try:
        for client in watchers.values():
            client.frames.clear()
        ack = watchers[mover].call(message, payload, namespace=NAMESPACE, timeout=WAIT_SECONDS)
        assert ack["ok"], ack
        deadline = time.monotonic() + WAIT_SECONDS
        while not all(c.pushes() for c in watchers.values()):
            assert time.monotonic() < deadline, "a watcher was pushed nothing"
            time.sleep(0.02)
        seen = {name: [len(p.encode()) for p in c.pushes()] for name, c in watchers.items()}
        return {"ack": [len(a.encode()) for a in watchers[mover].acks()], **seen}
    finally:
        close_all(list(watchers.values()))


def to_the_ballot(http: FlaskClient) -> Game:
    """A game with sealed ballots at the ballot of the Warden of the North: Jaime and Robb
    stand, and Lannister places first."""
    game = lobby_game(http, variants={"sealed_ballots": True})
    start(http, game)
    for village, house in VILLAGES.items():
        body = {"village": village, "house": house, "cause": "battle"}
        answer = http.post(
            f"/api/games/{game.id}/commands/record_village", json=body, headers=game.host
        )
        assert answer.status_code == 200, answer.get_json()
    next_round(http, game)
    for house, body in (
        ("lannister", {"noble": "jaime-lannister"}),
        ("tyrell", None),
        ("stark", {"noble": "robb-stark"}),
    ):
        path = "stand" if body else "pass"
        answer = http.post(
            f"/api/games/{game.id}/commands/{path}", json=body or {}, headers=game.auth(house)
        )
        assert answer.status_code == 200, answer.get_json()
    return game


def marker(kind: str, candidate: str) -> dict[str, str]:
    return {"kind": kind, "candidate": candidate}


ONE_MARKER = [
    [marker("for", "robb-stark")],
    [marker("decoy", "robb-stark")],
    [marker("for", "jaime-lannister")],
    [marker("decoy", "jaime-lannister")],
]
TWO_MARKERS = [
    [marker("for", "robb-stark"), marker("decoy", "jaime-lannister")],
    [marker("decoy", "robb-stark"), marker("for", "jaime-lannister")],
    [marker("for", "jaime-lannister"), marker("decoy", "jaime-lannister")],
]


@pytest.mark.parametrize("ballots", [ONE_MARKER, TWO_MARKERS], ids=["one", "two"])
def test_a_placement_has_one_length_whatever_its_kinds_and_candidates(
    server: LiveServer, ballots: list[list[dict[str, str]]]
) -> None:
    """Given the same sealed ballot in several games, when Lannister places FOR or DECOY on
    a short or a long id, then his ack and every watcher's push have the same byte length."""
    http = server.app.test_client()
    seen = [
        lengths(server, to_the_ballot(http), "lannister", "place_ballot", {"markers": markers})
        for markers in ballots
    ]
    assert all(s == seen[0] for s in seen), json.dumps(seen)
    assert len(seen[0]["ack"]) == 1 and len(seen[0]["lannister"]) == 1


def test_a_sealed_bid_has_one_length_whatever_its_amount(server: LiveServer) -> None:
    """Given the sale of the fourth council seat in several games, when Stark bids 0, a
    one-digit or a two-digit amount, then his ack and every watcher's push have one length."""
    http = server.app.test_client()
    seen = []
    for amount in (0, 7, 10):
        game = lobby_game(http)
        start(http, game)
        to_the_sale(http, game)
        stark = next(h for h in court(http, game)["houses"] if h["id"] == "stark")
        assert stark["treasury"] >= amount
        seen.append(lengths(server, game, "stark", "place_bid", {"amount": amount}))
    assert all(s == seen[0] for s in seen), json.dumps(seen)


def test_a_padded_request_is_accepted_and_padding_must_be_spaces(server: LiveServer) -> None:
    """The web client pads its placements (static/lib/padding.js); the server takes the pad over
    Socket.IO and HTTP alike, and refuses one that is not spaces or too long."""
    http = server.app.test_client()
    game = to_the_ballot(http)
    url = f"/api/games/{game.id}/commands/place_ballot"
    body: dict[str, Any] = {"markers": [marker("for", "robb-stark")]}
    for pad, status in (("x", 400), (" " * 1025, 400), (" " * 40, 200)):
        answer = http.post(url, json={**body, "pad": pad}, headers=game.auth("lannister"))
        assert answer.status_code == status, answer.get_json()
    assert set(answer.get_json()) == {"ok", "version", "receipt", "pad"}
