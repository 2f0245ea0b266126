"""Seats follow the player in the browser: two devices for one seat through the seat link, a
replaced player, the host role handed over and taken over by vote, a squatter removed in the lobby,
and a seat remembered or forgotten on a device."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import requests
from playwright.sync_api import expect

from tests.browser.court_http import HttpCourt, listed_lobby
from tests.browser.players import WAIT_MS, Person, open_person, open_seat
from tests.live_server import LiveServer

LANNISTER, TYRELL = 1, 2


def connected(person: Person, text: str) -> None:
    expect(person.page.locator("#connection")).to_contain_text(text, timeout=WAIT_MS)


def seat_link(person: Person) -> str:
    person.page.locator("#own-seat summary").click()
    expect(person.page.locator("#own-seat")).to_contain_text(
        "Anyone with this link plays your seat"
    )
    return person.page.locator("#seat-link").input_value()


def host_panel(person: Person) -> None:
    person.page.locator("#host-seats summary").click()


def test_a_seat_link_opens_the_same_seat_on_a_second_device(
    chromium: Any, server: LiveServer
) -> None:
    game = HttpCourt(server.url)
    url = f"{server.url}/games/{game.id}"
    laptop = open_seat(chromium, "laptop", url, game.id, game.tokens[LANNISTER])
    connected(laptop, "Connected as Player of lannister")
    link = seat_link(laptop)
    assert link.startswith(f"{url}#token=")

    phone = open_person(chromium, "phone", link, width=400)

    connected(phone, "Connected as Player of lannister")
    assert "#token" not in phone.page.url
    assert phone.page.evaluate(f"localStorage.getItem('seats:{game.id}')") is None
    connected(laptop, "Connected as Player of lannister")
    assert phone.errors == [] and laptop.errors == []


def test_the_host_hands_a_seat_to_a_new_player_and_the_old_device_loses_it(
    chromium: Any, server: LiveServer, shots: Path
) -> None:
    game = HttpCourt(server.url)
    url = f"{server.url}/games/{game.id}"
    host = open_seat(chromium, "host", url, game.id, game.host)
    bob = open_seat(chromium, "bob", url, game.id, game.tokens[LANNISTER])
    connected(bob, "Connected as Player of lannister")
    connected(host, "host")
    host_panel(host)
    host.page.fill(f"#hand-name-{LANNISTER}", "Eve")

    host.send(f"#host-seats li[data-seat='{LANNISTER}'] .hand-seat")

    link = host.page.locator(f"#handed-link-{LANNISTER}").input_value()
    assert "#token=" in link
    host.shot(shots, "host-seat-panel")
    expect(bob.page.locator("#notice")).to_contain_text("handed to a new link", timeout=WAIT_MS)
    connected(bob, "Connected as a spectator")
    assert link.split("#token=")[1] not in bob.received()
    eve = open_person(chromium, "eve", link)
    connected(eve, "Connected as Eve")
    expect(eve.page.locator("#feed")).to_contain_text(
        "Player of lannister's seat was handed to Eve."
    )


def test_the_host_hands_the_host_role_to_another_seat(chromium: Any, server: LiveServer) -> None:
    game = HttpCourt(server.url)
    url = f"{server.url}/games/{game.id}"
    host = open_seat(chromium, "host", url, game.id, game.host)
    tyrell = open_seat(chromium, "tyrell", url, game.id, game.tokens[TYRELL])
    connected(host, "host")
    connected(tyrell, "Connected as Player of tyrell")
    expect(tyrell.page.locator("#host-panel")).to_be_hidden()
    host_panel(host)

    host.send(f"#host-seats li[data-seat='{TYRELL}'] .hand-host")

    expect(tyrell.page.locator("#host-panel")).to_be_visible(timeout=WAIT_MS)
    expect(host.page.locator("#host-panel")).to_be_hidden(timeout=WAIT_MS)
    expect(host.page.locator("#feed")).to_contain_text("handed the host role to Player of tyrell")
    expect(host.page.locator("#host-vote")).to_be_visible()


def test_a_majority_of_the_seats_takes_the_host_role_over(
    chromium: Any, server: LiveServer
) -> None:
    game = HttpCourt(server.url)
    url = f"{server.url}/games/{game.id}"
    lannister = open_seat(chromium, "lannister", url, game.id, game.tokens[LANNISTER])
    tyrell = open_seat(chromium, "tyrell", url, game.id, game.tokens[TYRELL])
    for person in (lannister, tyrell):
        connected(person, "Connected as")
        person.page.locator("#host-vote summary").click()

    lannister.send(f"#host-vote .vote-host[data-seat='{TYRELL}']")
    expect(tyrell.page.locator("#host-vote")).to_contain_text("(1 vote)", timeout=WAIT_MS)
    tyrell.send(f"#host-vote .vote-host[data-seat='{TYRELL}']")

    expect(tyrell.page.locator("#host-panel")).to_be_visible(timeout=WAIT_MS)
    expect(lannister.page.locator("#feed")).to_contain_text("Player of tyrell became the host")


def test_the_host_removes_a_squatter_in_the_lobby(chromium: Any, server: LiveServer) -> None:
    created = listed_lobby(server.url)
    game_id, host_token = created["game_id"], created["host_token"]
    join = f"{server.url}/api/games/{game_id}/commands/join"
    auth = {"Authorization": f"Bearer {host_token}"}
    requests.post(join, json={"house": "stark", "player_name": "Eddard"}, headers=auth, timeout=5)
    squat = requests.post(join, json={"house": "lannister", "player_name": "Squatter"}, timeout=5)
    url = f"{server.url}/games/{game_id}"
    host = open_seat(chromium, "host", url, game_id, host_token)
    squatter = open_seat(chromium, "squatter", url, game_id, squat.json()["token"])
    connected(squatter, "Connected as Squatter")
    connected(host, "host")
    host_panel(host)

    host.send(f"#host-seats li[data-seat='{squat.json()['seat']}'] .remove-seat")

    connected(squatter, "Connected as a spectator")
    expect(squatter.page.locator("#join-form")).to_be_visible()
    expect(host.page.locator("#feed")).to_contain_text("The host removed Squatter from the table")


def test_a_seat_is_kept_for_the_tab_unless_the_device_is_asked_to_remember_it(
    chromium: Any, server: LiveServer
) -> None:
    created = listed_lobby(server.url)
    url = f"{server.url}/games/{created['game_id']}"
    player = open_person(chromium, "player", url)
    connected(player, "spectator")
    player.page.fill("#join-name", "Arya")
    player.page.locator("#join-form button[type=submit]").click()
    connected(player, "Connected as Arya")

    other_tab = player.context.new_page()
    other_tab.goto(url)
    expect(other_tab.locator("#connection")).to_contain_text("spectator", timeout=WAIT_MS)
    expect(other_tab.locator(".resume")).to_have_count(0)

    player.page.locator("#remember-seat").check()
    third_tab = player.context.new_page()
    third_tab.goto(url)
    expect(third_tab.locator(".resume button")).to_contain_text("Resume as Arya")

    player.page.locator("#forget-seat").click()
    connected(player, "Connected as a spectator")
    stored = player.page.evaluate("JSON.stringify([{...localStorage}, {...sessionStorage}])")
    assert "Arya" not in stored
