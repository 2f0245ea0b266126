"""The page draws the court from its pushes: four seats and two spectators play a whole election
in Chromium, and no page asks the server for the court over HTTP, nor its witness for the
chain of a push (the check of the whole chain in the background aside); each still shows what
its viewer may see (a seat its own markers, a spectator none) and, at the end, the revealed
tally."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import expect

from tests.browser.court_http import HttpCourt, to_warden_of_the_north
from tests.browser.players import Person, court, open_person, open_seat, place, tokens, wait_version
from tests.live_server import LiveServer

FOUR = ("stark", "lannister", "tyrell", "martell")


def court_gets(person: Person, game_id: str) -> list[str]:
    """The requests for the court view (`GET /api/games/<id>`) or for a part of its chain (the
    witness's `GET /api/games/<id>/chain?from=…&to=…`, made when pushed records do not chain)
    this person's page sent; not the check of the whole chain in the background, which reads
    it from the last version the device checked (`?from=…` alone) once the page has opened."""
    court_path = re.compile(rf"^/api/games/{game_id}(/chain)?/?$")
    return [
        url
        for method, url in person.requests
        if method == "GET"
        and court_path.match(urlsplit(url).path)
        and not (urlsplit(url).path.endswith("/chain") and "to=" not in urlsplit(url).query)
    ]


def test_six_pages_play_an_election_without_fetching_the_court(
    chromium: Any, server: LiveServer
) -> None:
    # given the Warden of the North election of a four-seat game, each seat's page and two
    # spectators' open
    game = HttpCourt(server.url, houses=FOUR)
    view = to_warden_of_the_north(game)
    url = f"{server.url}/games/{game.id}"
    seats = {s: open_seat(chromium, f"seat {s}", url, game.id, t) for s, t in game.tokens.items()}
    spectators = [open_person(chromium, f"spectator {n}", url) for n in (1, 2)]
    everyone = [*seats.values(), *spectators]
    for person in everyone:
        wait_version(person, view["game"]["version"])

    # when the candidates stand (Lannister and Stark) and the others pass, over HTTP, and the
    # two voters place their markers on their pages
    game.play("stand", {"noble": "tywin-lannister"}, game.tokens[1])
    game.play("pass", {}, game.tokens[2])
    game.play("pass", {}, game.tokens[3])
    game.play("stand", {"noble": "eddard-stark"}, game.tokens[0])
    ballot = court(server.url, game.id)
    assert ballot["election"]["stage"] == "ballot", ballot["election"]
    for person in everyone:
        wait_version(person, ballot["game"]["version"])
    place(seats[1], "tywin-lannister", "eddard-stark")

    # then each page draws the placed markers: Lannister's face up on its own page alone
    expect(tokens(seats[1], "tywin-lannister", "face-up.for")).to_have_text("FOR")
    expect(tokens(seats[1], "eddard-stark", "face-up.decoy")).to_have_text("DECOY")
    for other in (seats[0], seats[2], seats[3], *spectators):
        expect(tokens(other, "tywin-lannister", "face-down")).to_have_count(1)
        expect(other.page.locator("#election-panel .token.face-up")).to_have_count(0)

    # when Stark places too: the ballot ends and the markers are revealed
    place(seats[0], "eddard-stark", "tywin-lannister")
    end = court(server.url, game.id)
    for person in everyone:
        wait_version(person, end["game"]["version"])
        expect(person.page.locator("[data-testid=reveal]")).to_contain_text(
            "Eddard Stark elected with 4 votes"
        )

    # then no page ever fetched the court, nor the chain (its witness recomputed the hashes of
    # the pushed records), and none met an error
    for person in everyone:
        assert court_gets(person, game.id) == [], person.name
        assert person.errors == [], (person.name, person.errors)
