"""Seats follow the player in the browser: two devices for one seat through the seat link, a
replaced player who does not see the old player's sealed markers, the host role handed over and
taken over by vote only once the host's page has been closed for the game's time, a squatter
removed in the lobby, the seat remembered on a device by default (test_seat_safety.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import requests
from playwright.sync_api import expect

from tests.browser.court_http import HttpCourt, listed_lobby
from tests.browser.players import (
    LANNISTER,
    STARK,
    TYRELL,
    WAIT_MS,
    Person,
    connected,
    host_panel,
    open_person,
    open_seat,
)
from tests.live_server import LiveServer

NORTH = ("winterfell", "white-harbor", "the-dreadfort", "moat-cailin")


def seat_link(person: Person) -> str:
    person.page.locator("#own-seat summary").click()
    expect(person.page.locator("#own-seat")).to_contain_text(
        "Anyone with this link plays your seat"
    )
    return person.page.locator("#seat-link").input_value()


def confirm(person: Person, selector: str) -> None:
    """Clicks a seat action and says yes when it asks first; waits for the server's answer."""
    person.page.locator(selector).click()
    person.send("#confirm-yes")


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

    confirm(host, f"#host-seats li[data-seat='{LANNISTER}'] .hand-seat")

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

    confirm(host, f"#host-seats li[data-seat='{TYRELL}'] .hand-host")

    expect(tyrell.page.locator("#host-panel")).to_be_visible(timeout=WAIT_MS)
    expect(host.page.locator("#host-panel")).to_be_hidden(timeout=WAIT_MS)
    expect(host.page.locator("#feed")).to_contain_text("handed the host role to Player of tyrell")
    expect(host.page.locator("#host-vote")).to_be_visible()


def test_the_seats_take_the_host_role_over_only_after_the_hosts_page_closed_for_long(
    chromium: Any, server: LiveServer
) -> None:
    """Given a game whose seats may take over after the host has had no connection for 3 s,
    while the host's page is open Lannister is told only the host hands the role on and has
    no vote button; once the host's page is closed the page says from when a vote is open,
    then offers it; Lannister's and Tyrell's votes make Tyrell host."""
    game = HttpCourt(server.url, host_role={"takeover_after": 3})
    url = f"{server.url}/games/{game.id}"
    host = open_seat(chromium, "host", url, game.id, game.host)
    lannister = open_seat(chromium, "lannister", url, game.id, game.tokens[LANNISTER])
    tyrell = open_seat(chromium, "tyrell", url, game.id, game.tokens[TYRELL])
    connected(host, "host")
    for person in (lannister, tyrell):
        connected(person, "Connected as")
        person.page.locator("#host-vote summary").click()
    status = lannister.page.locator("#host-vote-status")
    expect(status).to_contain_text("The host is connected")
    expect(lannister.page.locator("#host-vote .vote-host")).to_have_count(0)

    host.context.close()

    expect(status).to_contain_text("may vote a new host in from", timeout=WAIT_MS)
    expect(lannister.page.locator("#host-vote .vote-host")).to_have_count(0)
    vote = f"#host-vote .vote-host[data-seat='{TYRELL}']"
    expect(lannister.page.locator(vote)).to_be_visible(timeout=WAIT_MS)
    expect(status).to_contain_text("2 of the 2 other seats' votes")
    lannister.send(vote)
    expect(tyrell.page.locator("#host-vote")).to_contain_text("(1 vote)", timeout=WAIT_MS)
    tyrell.send(vote)

    expect(tyrell.page.locator("#host-panel")).to_be_visible(timeout=WAIT_MS)
    expect(lannister.page.locator("#feed")).to_contain_text("Player of tyrell became the host")
    assert lannister.errors == [] and tyrell.errors == []


def test_a_replacement_link_does_not_show_the_old_players_for_marker(
    chromium: Any, server: LiveServer
) -> None:
    """R-7.1 step 3: Lannister placed a FOR and a DECOY; the host hands his seat to Eve. Eve's
    page shows the markers face down like anyone's, says what a handed seat does not show,
    and nothing that reached her browser tells the FOR from the DECOY."""
    game = HttpCourt(server.url)
    for village, house in zip(NORTH, ("stark", "stark", "lannister", "tyrell"), strict=True):
        body = {"village": village, "house": house, "cause": "battle"}
        game.play("record_village", body, game.host)
    view = game.advance_until(lambda view: (view["election"] or {}).get("id") == "warden-north")
    lords = {STARK: "robb-stark", LANNISTER: "jaime-lannister"}
    while view["election"]["stage"] == "candidacy":
        current = view["election"]["current"]
        stand = {"noble": lords[current]} if current in lords else None
        game.play("stand" if stand else "pass", stand or {}, game.tokens[current])
        view = game.view()
    while view["election"]["current"] != LANNISTER:
        game.play("place_ballot", {"markers": []}, game.tokens[view["election"]["current"]])
        view = game.view()
    markers = [
        {"kind": "for", "candidate": "jaime-lannister"},
        {"kind": "decoy", "candidate": "robb-stark"},
    ]
    game.play("place_ballot", {"markers": markers}, game.tokens[LANNISTER])
    url = f"{server.url}/games/{game.id}"
    bob = open_seat(chromium, "bob", url, game.id, game.tokens[LANNISTER])
    expect(bob.page.locator("[data-testid=my-markers]")).to_contain_text("Jaime")
    host = open_seat(chromium, "host", url, game.id, game.host)
    connected(host, "host")
    host_panel(host)
    host.page.fill(f"#hand-name-{LANNISTER}", "Eve")
    confirm(host, f"#host-seats li[data-seat='{LANNISTER}'] .hand-seat")
    link = host.page.locator(f"#handed-link-{LANNISTER}").input_value()

    eve = open_person(chromium, "eve", link)

    connected(eve, "Connected as Eve")
    expect(eve.page.locator("#handed-over")).to_contain_text("not what the seat held sealed")
    expect(eve.page.locator("#election-panel .token.face-down")).to_have_count(2)
    expect(eve.page.locator("[data-testid=my-markers]")).to_have_count(0)
    expect(eve.page.locator("#election-panel .token.face-up")).to_have_count(0)
    seen = eve.received()
    assert "decoy" not in seen.lower() and "DECOY" not in seen
    assert eve.errors == []


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

    confirm(host, f"#host-seats li[data-seat='{squat.json()['seat']}'] .remove-seat")

    connected(squatter, "Connected as a spectator")
    expect(squatter.page.locator("#join-form")).to_be_visible()
    expect(host.page.locator("#feed")).to_contain_text("The host removed Squatter from the table")


def test_a_push_while_the_host_types_his_name_keeps_his_selection_and_caret(
    chromium: Any, server: LiveServer
) -> None:
    # Given the host's page in the lobby, his name selected in the join form to type over it
    created = listed_lobby(server.url)
    game_id = created["game_id"]
    host = open_seat(
        chromium, "stark", f"{server.url}/games/{game_id}", game_id, created["host_token"]
    )
    connected(host, "Connected as the host")
    name = host.page.locator("#join-name")
    expect(name).to_have_value("Eddard")
    name.focus()
    name.evaluate("el => el.select()")

    def someone_joins(house: str, player: str) -> None:
        body = {"house": house, "player_name": player}
        answer = requests.post(
            f"{server.url}/api/games/{game_id}/commands/join", json=body, timeout=5
        )
        assert answer.ok, answer.text
        expect(host.page.locator("#seating")).to_contain_text(player, timeout=WAIT_MS)

    # When another player joins (the seating is drawn again) and he types
    someone_joins("lannister", "Cersei")
    host.page.keyboard.type("Ned")
    # Then what he typed replaced the selected name
    expect(name).to_have_value("Ned")

    # And a caret inside the name stays where it stood across the next push
    name.evaluate("el => el.setSelectionRange(1, 1)")
    someone_joins("tyrell", "Olenna")
    host.page.keyboard.type("x")
    expect(name).to_have_value("Nxed")
    assert host.errors == []
