"""The election on the table (R-7.1): candidates as cards; each marker drawn face down on the card
it lies on as soon as it is placed, its kind on its owner's page alone until the reveal turns the
markers over; the tally and the winner offered his title, named on the offer's buttons."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.browser.court_http import HttpCourt, to_warden_of_the_north
from tests.browser.players import (
    Person,
    assert_shown_no_markers,
    court,
    open_person,
    open_seat,
    place,
    tokens,
    wait_version,
)
from tests.live_server import LiveServer

# Whether a chip's word lies clear of its left stripe (an inset shadow) and of its borders.
CLEAR = """(chip) => {
  const range = document.createRange();
  range.selectNodeContents(chip);
  const word = range.getBoundingClientRect(), box = chip.getBoundingClientRect();
  const style = getComputedStyle(chip);
  const stripe = parseFloat(style.boxShadow.match(/(-?[\\d.]+)px/)?.[1] ?? '0');
  return word.left >= box.left + parseFloat(style.borderLeftWidth) + stripe
    && word.right <= box.right - parseFloat(style.borderRightWidth);
}"""


def shoot(person: Person, shots: Path, name: str) -> None:
    person.page.locator("#election-panel").screenshot(path=str(shots / f"{name}.png"))


def test_markers_lie_face_down_on_candidate_cards_and_turn_over_at_the_reveal(
    chromium: Any, server: LiveServer, shots: Path
) -> None:
    # given round 2's Warden of the North election, every seat and a spectator at the table
    game = HttpCourt(server.url)
    view = to_warden_of_the_north(game)
    assert view["election"]["id"] == "warden-north"
    url = f"{server.url}/games/{game.id}"
    people = {s: open_seat(chromium, f"seat {s}", url, game.id, t) for s, t in game.tokens.items()}
    watcher = open_person(chromium, "spectator", "about:blank")
    watcher.page.emulate_media(reduced_motion="reduce")
    watcher.page.goto(url)
    everyone = [*people.values(), watcher]
    for person in everyone:
        wait_version(person, view["game"]["version"])

    # then during candidacy the step names the title and no player shows a vote count yet
    panel = watcher.page.locator("#election-panel")
    expect(watcher.page.locator("[data-testid=step]")).to_have_text(
        "1.3 Warden of the North election"
    )
    expect(panel.locator("table.weights th", has_text="Votes")).to_have_count(0)
    expect(panel.locator("[data-testid=votes-later]")).to_be_visible()

    # when Lannister and Stark put a Lord forward and Tyrell passes
    game.play("stand", {"noble": "tywin-lannister"}, game.tokens[1])
    game.play("pass", {}, game.tokens[2])
    game.play("stand", {"noble": "eddard-stark"}, game.tokens[0])
    ballot = court(server.url, game.id)
    assert ballot["election"]["stage"] == "ballot" and ballot["election"]["current"] == 1
    for person in everyone:
        wait_version(person, ballot["game"]["version"])

    # then the candidates are cards and the votes of the ballot are shown
    expect(panel.locator(".candidate[data-noble=tywin-lannister]")).to_contain_text(
        "House Lannister"
    )
    expect(panel.locator(".candidate[data-noble=eddard-stark]")).to_contain_text(
        "Put forward by Player of stark (House Stark)"
    )
    expect(panel.locator("[data-testid=weight-0]")).to_have_text("4")

    # when Lannister places FOR Tywin and DECOY Eddard
    place(people[1], "tywin-lannister", "eddard-stark")
    receipt = json.loads(people[1].page.evaluate(f"localStorage.getItem('receipt:{game.id}:1')"))[
        "markers"
    ]

    # then everyone sees one face-down token on each card; only Lannister sees their kinds
    for other in (people[0], people[2], watcher):
        expect(tokens(other, "tywin-lannister", "face-down")).to_have_count(1)
        expect(tokens(other, "eddard-stark", "face-down")).to_have_count(1)
        expect(other.page.locator("#election-panel .token.face-up")).to_have_count(0)
        assert_shown_no_markers(other, [m["salt"] for m in receipt])
    expect(tokens(people[1], "tywin-lannister", "face-up.for")).to_have_text("FOR")
    expect(tokens(people[1], "eddard-stark", "face-up.decoy")).to_have_text("DECOY")
    # ... whole: the word clear of the chip's coloured stripe and of its border
    front = tokens(people[1], "eddard-stark", "face-up.decoy").locator(".token-front")
    assert front.evaluate(CLEAR), front.inner_html()
    shoot(people[1], shots, "01-ballot-own-markers")
    shoot(watcher, shots, "02-ballot-face-down")

    # when Stark places FOR Eddard: the ballot is over and the markers are revealed
    place(people[0], "eddard-stark", "tywin-lannister")
    for person in everyone:
        reveal = person.page.locator("[data-testid=reveal]")
        expect(reveal).to_contain_text("Eddard Stark elected with 4 votes")
        expect(reveal.locator(".candidate.winner")).to_contain_text("4 votes")
        expect(
            reveal.locator("[data-testid=tokens-eddard-stark] .token.face-up.for")
        ).to_have_count(1)
        expect(reveal.locator("[data-testid=tokens-tywin-lannister] .token.face-up")).to_have_count(
            2
        )
        expect(reveal.locator("[data-testid=winner]")).to_contain_text(
            "Eddard Stark is offered Warden of the North"
        )
        # the winner has still to accept: the panel says so, not that nothing is under way
        expect(person.page.locator("#election-panel")).not_to_contain_text(
            "No election is under way"
        )
        expect(person.page.locator("[data-testid=offer]")).to_contain_text(
            "Eddard Stark is offered"
        )

    # then the reveal turns the markers over, except on a page that asks for reduced motion
    front = "[data-testid=reveal] .token.turning .token-front"
    turning = people[2].page.locator(front).first
    assert turning.evaluate("e => getComputedStyle(e).animationName") == "token-front-turn"
    still = watcher.page.locator(front).first
    assert still.evaluate("e => getComputedStyle(e).animationName") == "none"

    shoot(people[2], shots, "03-reveal")
    # and the offer names the title and the Noble, on the button and in the turn
    stark = people[0].page
    accept = stark.locator("#move-accept_title")
    expect(accept).to_have_text("Accept Warden of the North for Eddard Stark")
    expect(stark.locator("#move-refuse_title")).to_have_text(
        "Refuse Warden of the North for Eddard Stark"
    )
    expect(stark.locator("[data-testid=turn]")).to_have_text(
        "Your turn: accept or refuse Warden of the North for Eddard Stark"
    )
    expect(people[1].page.locator("[data-testid=turn]")).to_have_text(
        "Player of stark (House Stark) accepts or refuses Warden of the North for Eddard Stark"
    )

    # when Stark accepts, his receipt still names the election by its title
    people[0].send("#move-accept_title")
    expect(people[0].page.locator("[data-testid=receipt] summary")).to_contain_text(
        "Your receipt for Warden of the North"
    )
    for person in everyone:
        assert person.errors == [], (person.name, person.errors)


def test_sealed_markers_wait_face_down_beside_the_cards_without_their_candidate(
    chromium: Any, server: LiveServer
) -> None:
    # given the Warden of the North's ballot in a game with sealed ballots
    game = HttpCourt(server.url, variants={"sealed_ballots": True})
    to_warden_of_the_north(game)
    game.play("stand", {"noble": "tywin-lannister"}, game.tokens[1])
    game.play("pass", {}, game.tokens[2])
    game.play("stand", {"noble": "eddard-stark"}, game.tokens[0])
    url = f"{server.url}/games/{game.id}"
    lannister = open_seat(chromium, "lannister", url, game.id, game.tokens[1])
    watcher = open_person(chromium, "spectator", url)
    wait_version(lannister, court(server.url, game.id)["game"]["version"])

    # when Lannister places both markers
    place(lannister, "tywin-lannister", "eddard-stark")

    # then the others see two face-down markers beside the cards, on no card
    tray = watcher.page.locator("[data-testid=sealed-tray]")
    expect(tray.locator(".token.face-down")).to_have_count(2)
    expect(watcher.page.locator("[data-testid=candidates] .token")).to_have_count(0)
    # and Lannister sees his own, face up, with the Lord each lies on
    own = lannister.page.locator("[data-testid=sealed-tray]")
    expect(own.locator(".token.face-up")).to_have_count(2)
    expect(own).to_contain_text("on Tywin Lannister")
