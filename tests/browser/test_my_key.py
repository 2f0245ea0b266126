"""A game's name and a person's key in the browser: the host names the game on its page and
every page's heading and title follow; Ann, with seats in two games on her laptop, makes her
key, opens its link in a fresh browser and finds both seats in Your games and plays them;
revoked, the link says so; the key reaches no other browser and no push."""

from __future__ import annotations

import json
import re
from typing import Any

import requests
from playwright.sync_api import expect

from tests.browser.court_http import HttpCourt
from tests.browser.players import WAIT_MS, Person, open_person
from tests.live_server import LiveServer

STARK, LANNISTER = 0, 1


def connected(person: Person, text: str) -> None:
    expect(person.page.locator("#connection")).to_contain_text(text, timeout=WAIT_MS)


def remembering(chromium: Any, name: str, url: str, seats: dict[str, tuple[str, str]]) -> Person:
    """A browser that remembers these seats ({game: (token, label)}), as after joining."""
    person = open_person(chromium, name, "about:blank")
    for game_id, (token, label) in seats.items():
        kept = json.dumps([{"token": token, "label": label}])
        person.context.add_init_script(
            f"if (!localStorage.getItem('seats:{game_id}'))"
            f" localStorage.setItem('seats:{game_id}', {kept!r})"
        )
    person.page.goto(url)
    return person


def test_the_host_names_the_game_and_every_page_shows_it(chromium: Any, server: LiveServer) -> None:
    game = HttpCourt(server.url)
    url = f"{server.url}/games/{game.id}"
    host = remembering(chromium, "host", url, {game.id: (game.tokens[STARK], "Host")})
    bob = remembering(chromium, "bob", url, {game.id: (game.tokens[LANNISTER], "Bob")})
    connected(host, "host")
    connected(bob, "Player of lannister")
    expect(bob.page.locator("h1")).to_contain_text(f"Game {game.id}")

    host.page.click("#host-seats summary")  # in play, the name is among the host's seat tools
    host.page.fill("#game-name-input", "  <b>Saturday</b> at Ann's ")
    host.send("#rename-game button[type=submit]")

    for person in (host, bob):
        expect(person.page.locator("#game-name")).to_have_text("<b>Saturday</b> at Ann's")
        expect(person.page).to_have_title(
            re.compile(r"Round 1 · <b>Saturday</b> at Ann's · Small Council$")
        )
        assert person.page.locator("h1 b").count() == 0  # shown as typed, never as markup
    bob.page.goto(f"{server.url}/games/{game.id}/history")
    expect(bob.page.locator("h1")).to_contain_text("History of <b>Saturday</b> at Ann's")
    expect(bob.page.locator("body")).to_contain_text("named the game “<b>Saturday</b> at Ann's”")
    assert host.errors == [] and bob.errors == []


def test_my_key_brings_every_seat_to_a_fresh_browser_and_revoked_opens_nothing(
    chromium: Any, server: LiveServer
) -> None:
    # Ann hosts the first game (Stark) and plays Lannister in the second
    first, second = HttpCourt(server.url), HttpCourt(server.url)
    requests.post(
        f"{server.url}/api/games/{first.id}/commands/rename_game",
        json={"name": "Saturday"},
        headers={"Authorization": f"Bearer {first.host}"},
        timeout=5,
    ).raise_for_status()
    seats = {
        first.id: (first.tokens[STARK], "Ann, House Stark, host"),
        second.id: (second.tokens[LANNISTER], "Ann, House Lannister"),
    }
    laptop = remembering(chromium, "laptop", f"{server.url}/", seats)
    expect(laptop.page.locator("#my-games li[data-game]")).to_have_count(2)

    laptop.page.click("#make-key")
    expect(laptop.page.locator("#key-panel")).to_contain_text("Your key gathers 2 seats")
    laptop.page.click("#my-key summary")
    link = laptop.page.locator("#my-key-link").input_value()
    key = link.partition("#")[2]
    assert link == f"{server.url}/key#{key}" and len(key) >= 40

    # a fresh browser opens the link: both seats, the key gone from the address bar
    phone = open_person(chromium, "phone", link, width=400)
    expect(phone.page.locator("#notice")).to_contain_text("This device now holds your 2 seats")
    expect(phone.page.locator("#key-seats li")).to_have_count(2)
    expect(phone.page.locator(f"#key-seats li[data-game='{first.id}']")).to_contain_text(
        "Saturday · as Player of stark, House Stark, host"
    )
    assert "#" not in phone.page.url
    phone.page.goto(f"{server.url}/")
    expect(phone.page.locator("#my-games li[data-game]")).to_have_count(2)
    expect(phone.page.locator(f"#my-games li[data-game='{first.id}']")).to_contain_text("Saturday")

    # and plays them: Lannister's seat in the second game, and Stark's in the first, whose
    # turn it is in the Marriages decree step
    phone.page.click(f"#my-games li[data-game='{second.id}'] a")
    connected(phone, "Connected as Player of lannister")
    phone.page.goto(f"{server.url}/games/{first.id}")
    connected(phone, "Connected as Player of stark")
    before = first.view()["game"]["version"]
    phone.send("#move-pass")
    assert first.view()["game"]["version"] > before

    # revoked on the laptop, the link opens nothing, and says why
    laptop.page.goto(f"{server.url}/")
    laptop.page.click("#revoke-key")
    laptop.page.click("#confirm-yes")
    expect(laptop.page.locator("#key-panel")).to_contain_text("Your key is revoked")
    late = open_person(chromium, "late", link)
    expect(late.page.locator("#notice")).to_contain_text("revoked")
    expect(late.page.locator("#key-seats li")).to_have_count(0)
    assert late.page.evaluate("localStorage.length") == 0

    # the key travelled in no push and was stored by no other browser
    for person in (laptop, phone):
        assert key not in "\n".join(person.frames)
    assert key not in late.received()
    assert laptop.errors == [] and phone.errors == []
