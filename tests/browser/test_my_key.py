"""A game's name and a person's key in the browser: the host names the game on its page and
every page's heading and title follow; Ann, with seats in two games on her laptop, makes her
key, opens its link in a fresh browser and finds both seats in Your games and plays them;
revoked, the link says so and the other browser holds her seats no more while the laptop plays
on; the key reaches no other browser and no push. Mallory's key link, opened by Ann, adds his
seat to her browser and takes none of hers: her browser sends nothing to his key."""

from __future__ import annotations

import json
import re
from typing import Any

import requests
from playwright.sync_api import expect

from tests.browser.court_http import HttpCourt
from tests.browser.players import Person, connected, open_person
from tests.live_server import LiveServer

STARK, LANNISTER, TYRELL = 0, 1, 2


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
    expect(phone.page.locator("#notice")).to_contain_text("This device now holds the key's 2 seats")
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

    # the phone played with the key's own links, never the laptop's tokens
    phone_tokens = phone.page.evaluate("JSON.stringify({...localStorage})")
    assert first.host not in phone_tokens and second.tokens[LANNISTER] not in phone_tokens
    assert "mykey" not in phone.page.evaluate("Object.keys(localStorage)")

    # revoked on the laptop, the link opens nothing, and says why; the phone holds the seats
    # no more, and the laptop plays on
    laptop.page.goto(f"{server.url}/")
    laptop.page.click("#revoke-key")
    laptop.page.click("#confirm-yes")
    expect(laptop.page.locator("#key-panel")).to_contain_text("Your key is revoked")
    late = open_person(chromium, "late", link)
    expect(late.page.locator("#notice")).to_contain_text("revoked")
    expect(late.page.locator("#key-seats li")).to_have_count(0)
    assert late.page.evaluate("localStorage.length") == 0
    phone.page.goto(f"{server.url}/")
    expect(phone.page.locator("#my-games")).to_contain_text("This browser holds no seat yet")
    # the front page asked the server about each link it held, and was refused: the browser
    # logs each refusal, which is the page working as it should
    refused = [e for e in phone.errors if "status of 401" in e]
    assert refused
    phone.errors = [e for e in phone.errors if e not in refused]
    laptop.page.goto(f"{server.url}/")
    expect(laptop.page.locator("#my-games li[data-game]")).to_have_count(2)

    # the key travelled in no push and was stored by no other browser
    for person in (laptop, phone):
        assert key not in "\n".join(person.frames)
    assert key not in late.received()
    assert laptop.errors == [] and phone.errors == []


def test_a_key_link_from_someone_else_takes_no_seat_of_this_browser(
    chromium: Any, server: LiveServer
) -> None:
    """Ann holds the host's seat of one game and Lannister's of another; Mallory, Tyrell in the
    first, makes his key and sends her its link. Opening it, her browser takes Mallory's seat
    and keeps his key as no key of its own: her front page sends nothing to his key, and his
    key gives him no token of hers. With a key of her own, her front page adds seats to hers
    alone. Her seats stay hers, her key opens them."""
    first, second = HttpCourt(server.url), HttpCourt(server.url)
    seats = {
        first.id: (first.host, "Ann, House Stark, host"),
        second.id: (second.tokens[LANNISTER], "Ann, House Lannister"),
    }
    ann = remembering(chromium, "ann", f"{server.url}/", seats)
    expect(ann.page.locator("#my-games li[data-game]")).to_have_count(2)
    mallory = remembering(
        chromium, "mallory", f"{server.url}/", {first.id: (first.tokens[TYRELL], "Mallory")}
    )
    mallory.page.click("#make-key")
    expect(mallory.page.locator("#key-panel")).to_contain_text("Your key gathers 1 seat")
    mallory.page.click("#my-key summary")
    link = mallory.page.locator("#my-key-link").input_value()
    mallorys_key = link.partition("#")[2]

    def mallory_holds() -> list[dict[str, Any]]:
        answer = requests.get(
            f"{server.url}/api/keys/mine",
            headers={"Authorization": f"Bearer {mallorys_key}"},
            timeout=5,
        )
        assert answer.status_code == 200, answer.text
        held: list[dict[str, Any]] = answer.json()["seats"]
        return held

    # Ann, without a key of her own, opens Mallory's link, then her front page
    ann.page.goto(link)
    expect(ann.page.locator("#key-seats li")).to_have_count(1)
    expect(ann.page.locator("#key-seats li")).to_contain_text("as Player of tyrell, House Tyrell")
    expect(ann.page.locator("#notice")).to_contain_text("Nothing this browser held was sent")
    ann.page.goto(f"{server.url}/")
    expect(ann.page.locator("#my-games li[data-game]")).to_have_count(2)
    expect(ann.page.locator("#make-key")).to_be_visible()
    assert "mykey" not in ann.page.evaluate("Object.keys(localStorage)")
    assert [m for m, url in ann.requests if url.endswith("/api/keys/mine") and m != "GET"] == []
    held = mallory_holds()
    assert [s["label"] for s in held] == ["Player of tyrell, House Tyrell"]
    for seat in held:
        assert seat["token"] not in (first.host, second.tokens[LANNISTER])
        court = requests.get(
            f"{server.url}/api/games/{seat['game_id']}",
            headers={"Authorization": f"Bearer {seat['token']}"},
            timeout=5,
        ).json()
        assert court["viewer"]["seat"] == TYRELL and court["viewer"]["host"] is False

    # with a key of her own, Mallory's link opened again changes nothing of hers or his
    ann.page.click("#make-key")
    expect(ann.page.locator("#key-panel")).to_contain_text("Your key gathers 3 seats")
    own = ann.page.evaluate("localStorage.getItem('mykey')")
    ann.page.goto(link)
    expect(ann.page.locator("#key-seats li")).to_have_count(1)
    ann.page.goto(f"{server.url}/")
    expect(ann.page.locator("#my-games li[data-game]")).to_have_count(2)
    assert ann.page.evaluate("localStorage.getItem('mykey')") == own
    assert [s["label"] for s in mallory_holds()] == ["Player of tyrell, House Tyrell"]
    ann.page.click("#my-key summary")
    ann_link = ann.page.locator("#my-key-link").input_value()
    assert ann_link != link
    answer = requests.get(
        f"{server.url}/api/keys/mine",
        headers={"Authorization": f"Bearer {ann_link.partition('#')[2]}"},
        timeout=5,
    )
    assert answer.status_code == 200, answer.text
    # her key gathers her seats and the one Mallory's link brought her, with links of its own
    assert sorted(s["label"] for s in answer.json()["seats"]) == [
        "Player of lannister, House Lannister",
        "Player of stark, House Stark, host",
        "Player of tyrell, House Tyrell",
    ]
    # her seats stay hers
    for game, token in ((first, first.host), (second, second.tokens[LANNISTER])):
        viewer = requests.get(
            f"{server.url}/api/games/{game.id}",
            headers={"Authorization": f"Bearer {token}"},
            timeout=5,
        ).json()["viewer"]
        assert viewer["seat"] is not None
    assert ann.errors == [] and mallory.errors == []
