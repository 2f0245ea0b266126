"""Pushes carry the court view, with several real clients: every connection of the game gets the
change of the sections every audience sees alike, and each audience (a seat, the host without a
seat, the game master, a spectator) the change of its own in a part of its own, which together
bring the view it was welcomed with to exactly what `GET /api/games/<id>` shows it, and nothing
more."""

from __future__ import annotations

from typing import Any

import jsonpatch
from flask import Flask
from flask.testing import FlaskClient

from tests.server.http.court_client import Game, bearer, create_game, join, pass_decrees
from tests.server.http.north_ballot import to_the_ballot
from tests.server.live.live import NAMESPACE, connect, send

HOUSES = ("stark", "lannister", "tyrell")


def seated_without_host(http: FlaskClient, **body: Any) -> Game:
    """A started game of three seats, whose host and game master hold none."""
    created = create_game(http, game_master_name="Maester Aemon", **body)
    tokens, seats = {}, {}
    for house in HOUSES:
        joined = join(http, created["game_id"], house, None, created["invite"])
        tokens[house], seats[house] = joined["token"], joined["seat"]
    game = Game(
        created["game_id"],
        created["host_token"],
        tokens,
        seats,
        game_master_token=created["game_master_token"],
        invite=created["invite"],
    )
    started = http.post(f"/api/games/{game.id}/commands/start", json={}, headers=game.host)
    assert started.status_code == 200, started.get_json()
    pass_decrees(http, game)
    return game


class Page:
    """A client that keeps its court view as a page does (static/pages/court.js): the welcome's,
    changed by each push and by its own part when the push names its audience."""

    def __init__(self, app: Flask, game: Game, token: str | None) -> None:
        self.client = connect(app, game, token)
        self.token = token
        self.court: dict[str, Any] = {}
        self.audience = ""
        self.pushes: list[dict[str, Any]] = []
        self.parts: list[dict[str, Any]] = []  # its own parts of the pushes
        self.awaiting: int | None = None
        self.read()

    def read(self) -> None:
        for message in self.client.get_received(NAMESPACE):
            payload = message["args"][0]
            if message["name"] == "welcome":
                self.court, self.audience = payload["court"], payload["audience"]
                assert self.court["checkpoint"] == payload["checkpoint"]
            elif message["name"] == "events" and "view" in payload:
                self.follow(payload)
            elif message["name"] == "own":
                self.follow_own(payload)
        assert self.awaiting is None, "a push named this page's audience and sent it no part"

    def follow(self, push: dict[str, Any]) -> None:
        self.pushes.append(push)
        view = push["view"]
        assert self.awaiting is None
        assert view["from"] == self.court["game"]["version"]
        self.court = jsonpatch.apply_patch(self.court, view["patch"])
        assert self.court["game"]["version"] == push["version"]
        self.court["checkpoint"] = push["checkpoint"]
        self.awaiting = push["version"] if self.audience in view["own"] else None

    def follow_own(self, part: dict[str, Any]) -> None:
        self.parts.append(part)
        assert part["audience"] == self.audience and part["version"] == self.awaiting
        self.awaiting = None
        self.court = jsonpatch.apply_patch(self.court, part["patch"])

    def records(self) -> list[dict[str, Any]]:
        """The pushed records, each as its own part carries it when it does."""
        mine = {r["version"]: r for p in self.parts for r in p.get("records", ())}
        return [mine.get(r["version"], r) for p in self.pushes for r in p["records"]]


def pages_of(app: Flask, game: Game) -> dict[str, Page]:
    """A page of each audience: two seats, the host without a seat, the game master and a
    spectator."""
    tokens = {
        "stark": game.tokens["stark"],
        "lannister": game.tokens["lannister"],
        "host": game.host_token,
        "master": game.game_master_token,
        "spectator": None,
    }
    return {name: Page(app, game, token) for name, token in tokens.items()}


def shown(http: FlaskClient, game: Game, token: str | None) -> dict[str, Any]:
    answer = http.get(f"/api/games/{game.id}", headers=bearer(token) if token else {})
    assert answer.status_code == 200
    view: dict[str, Any] = answer.get_json()
    return view


def test_each_audience_holds_the_court_the_http_view_shows_it_after_every_push(
    app: Flask,
) -> None:
    """Given a seat, another seat, the host without a seat, the game master and a spectator
    watching, when an election is set up, stood for, voted on and revealed, then after every
    push each page's view is the court view the server gives that viewer, with the push's
    signed checkpoint, and almost every push carries a change, not the whole view."""
    http = app.test_client()
    game = seated_without_host(http)
    pages = pages_of(app, game)
    assert [p.audience for p in pages.values()] == ["seat:0", "seat:1", "host", "master", "public"]

    to_the_ballot(http, game)
    for page in pages.values():
        page.read()
    lannister = [{"kind": "decoy", "candidate": "robb-stark"}]
    assert send(pages["lannister"].client, "place_ballot", {"markers": lannister})["ok"]
    stark = [{"kind": "for", "candidate": "robb-stark"}]
    assert send(pages["stark"].client, "place_ballot", {"markers": stark})["ok"]

    for name, page in pages.items():
        page.read()
        assert len(page.pushes) >= 8, name
        assert page.court == shown(http, game, page.token), name
    # The part every audience sees alike is one packet, the same for every page.
    same = [page.pushes for page in pages.values()]
    assert all(pushes == same[0] for pushes in same)
    # A seat is sent a part of its own when its moves or its markers change, not at every push.
    assert 0 < len(pages["lannister"].parts) < len(pages["lannister"].pushes)
    assert pages["spectator"].parts == []


def test_a_seats_markers_go_to_its_own_pages_alone_until_the_reveal(app: Flask) -> None:
    """Given every audience watching, when Lannister places a decoy, then only Lannister's
    pushes carry its kind; the spectator, the host, the game master and Stark see none."""
    http = app.test_client()
    game = seated_without_host(http)
    to_the_ballot(http, game)
    pages = {
        "lannister": Page(app, game, game.tokens["lannister"]),
        "stark": Page(app, game, game.tokens["stark"]),
        "host": Page(app, game, game.host_token),
        "master": Page(app, game, game.game_master_token),
        "spectator": Page(app, game, None),
    }
    markers = [{"kind": "decoy", "candidate": "robb-stark"}]
    assert send(pages["lannister"].client, "place_ballot", {"markers": markers})["ok"]

    for name, page in pages.items():
        page.read()
        owner = name == "lannister"
        placed = [r for r in page.records() if r["type"] == "BallotPlaced"]
        assert placed and all((r["private"] is not None) is owner for r in placed), name
        assert all(r["private"] is None for p in page.pushes for r in p["records"])
        theirs = [
            op
            for p in [*(p["view"] for p in page.pushes), *page.parts]
            for op in p["patch"]
            if "my_markers" in op["path"] and op.get("value")
        ]
        assert bool(theirs) is owner, name
        mine = page.court["election"]["my_markers"]
        assert [m["kind"] for m in mine] == (["decoy"] if owner else []), name


def test_a_host_who_hands_his_role_on_is_pushed_a_spectators_view(app: Flask) -> None:
    """Given the host without a seat watching, when he hands the host role to Tyrell, then
    his connection is pushed the spectators' view from then on: no facts to record, no
    moves."""
    http = app.test_client()
    game = seated_without_host(http)
    host = Page(app, game, game.host_token)
    assert host.court["facts"] and host.court["viewer"]["role"] == "host"

    assert send(host.client, "hand_host", {"seat": game.seats["tyrell"]})["ok"]
    body = {"village": "winterfell", "house": "stark", "cause": "battle"}
    answer = http.post(
        f"/api/games/{game.id}/commands/record_village", json=body, headers=game.auth("tyrell")
    )
    assert answer.status_code == 200, answer.get_json()

    received = host.client.get_received(NAMESPACE)
    pushes = [m["args"][0] for m in received if m["name"] == "events"]
    parts = [m["args"][0] for m in received if m["name"] == "own"]
    assert len(pushes) >= 2 and parts and all(p["audience"] == "public" for p in parts)
    court = {op["path"]: op["value"] for op in parts[0]["patch"]}
    assert court["/viewer"]["role"] == "spectator"
    assert court["/facts"] is None and court["/moves"] == []
    assert all(op["value"] is None for p in parts for op in p["patch"] if op["path"] == "/facts")
    assert all(op["path"] != "/facts" for p in pushes for op in p["view"]["patch"])


def test_a_seat_handed_to_a_new_player_is_pushed_none_of_its_earlier_markers(
    app: Flask,
) -> None:
    """Given Lannister's placement, when the host hands the seat to Eve and the game goes on,
    then neither Eve's welcome nor any push to the seat's room from then on carries the old
    markers: her view's own markers stay empty until the reveal."""
    http = app.test_client()
    game = seated_without_host(http)
    to_the_ballot(http, game)
    bob = Page(app, game, game.tokens["lannister"])
    markers = [{"kind": "decoy", "candidate": "robb-stark"}]
    assert send(bob.client, "place_ballot", {"markers": markers})["ok"]
    bob.read()
    assert [m["kind"] for m in bob.court["election"]["my_markers"]] == ["decoy"]

    host = Page(app, game, game.host_token)
    handed = send(host.client, "hand_seat", {"seat": game.seats["lannister"], "player_name": "Eve"})
    assert handed["ok"], handed
    eve = Page(app, game, handed["token"])
    body = {"village": "moat-cailin", "house": "stark", "cause": "battle"}
    answer = http.post(
        f"/api/games/{game.id}/commands/record_village", json=body, headers=game.host
    )
    assert answer.status_code == 200, answer.get_json()
    eve.read()

    assert eve.pushes and eve.court["election"]["my_markers"] == []
    assert "decoy" not in str([p["view"] for p in eve.pushes]) + str(eve.parts)
    assert eve.court == shown(http, game, handed["token"])
