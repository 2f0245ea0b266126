"""What the court page says about the connection, the notices and whose turn it is: a stopped or
unreachable server, a wrong game link, presence while offline, notices that do not linger, a
House taken by someone else while one fills the join form, and the turn said to and of a player."""

from __future__ import annotations

from typing import Any

import requests
from playwright.sync_api import expect

from tests.browser.court_http import HttpCourt, listed_lobby
from tests.browser.players import (
    WAIT_MS,
    Person,
    court,
    open_person,
    open_seat,
    wait_version,
)
from tests.live_server import LiveServer


def test_a_wrong_game_link_says_there_is_no_such_game_and_links_the_front_page(
    chromium: Any, server: LiveServer
) -> None:
    # given a game id that no game has
    missing = requests.get(f"{server.url}/api/games/nosuchgame0", timeout=5)
    assert missing.status_code == 404 and missing.json()["code"] == "unknown_game"

    # when a browser opens its page
    person = open_person(chromium, "lost", f"{server.url}/games/nosuchgame0")

    # then the page says there is no such game and how to find one
    connection = person.page.locator("#connection")
    expect(connection).to_contain_text("There is no such game")
    expect(connection).not_to_contain_text("refused")
    expect(connection.locator("a[href='/']")).to_have_text("go to the front page")


def offline_seat(chromium: Any, server: LiveServer) -> tuple[Person, int]:
    """The page of the seat whose decree turn it is, connected, then cut off from the server."""
    game = HttpCourt(server.url)
    seat = court(server.url, game.id)["decree"]["current"]
    url = f"{server.url}/games/{game.id}"
    player = open_seat(chromium, "player", url, game.id, game.tokens[seat])
    expect(player.page.locator("#connection")).to_contain_text("Connected as")
    expect(player.page.locator(f"[data-testid=presence-{seat}]")).to_have_text("● connected")
    player.context.set_offline(True)
    return player, seat


def back_online(player: Person) -> None:
    player.context.set_offline(False)
    expect(player.page.locator("#connection")).to_contain_text("Connected as", timeout=3 * WAIT_MS)


def test_an_unreachable_server_is_said_to_be_unreachable_and_retried(
    chromium: Any, server: LiveServer
) -> None:
    # given a connected page, when it can no longer reach the server
    player, _ = offline_seat(chromium, server)

    # then it says the server cannot be reached and that it keeps trying, not that it refused
    connection = player.page.locator("#connection")
    expect(connection).to_contain_text("cannot be reached", timeout=3 * WAIT_MS)
    expect(connection).to_contain_text("keeps trying")
    expect(connection).not_to_contain_text("refused")


def test_presence_is_not_shown_as_connected_while_the_page_is_offline(
    chromium: Any, server: LiveServer
) -> None:
    # given a connected page, when it can no longer reach the server
    player, seat = offline_seat(chromium, server)
    page = player.page

    # then its own seat is not shown as connected, and the others' presence as unknown
    own = page.locator(f"[data-testid=presence-{seat}]")
    expect(own).to_have_text("○ not connected (this page is offline)")
    other = (seat + 1) % 3
    expect(page.locator(f"[data-testid=presence-{other}]")).to_contain_text("unknown")
    # and once back, as connected again
    back_online(player)
    expect(own).to_have_text("● connected")


def test_an_offline_notice_goes_once_the_page_is_connected_again(
    chromium: Any, server: LiveServer
) -> None:
    # given a page cut off from the server, where a move was tried
    player, _ = offline_seat(chromium, server)
    page = player.page
    expect(page.locator("#connection")).not_to_contain_text("Connected as")
    page.locator("#moves-panel [data-message=pass]").click()
    notice = page.locator("#notice")
    expect(notice).to_contain_text("[offline]")

    # when the connection is back
    back_online(player)

    # then the notice about being offline is gone
    expect(notice).to_be_hidden()


def test_a_success_notice_clears_itself_after_a_few_seconds(
    chromium: Any, server: LiveServer
) -> None:
    # given the page of the seat whose decree turn it is
    game = HttpCourt(server.url)
    view = court(server.url, game.id)
    seat = view["decree"]["current"]
    player = open_seat(
        chromium, "player", f"{server.url}/games/{game.id}", game.id, game.tokens[seat]
    )
    wait_version(player, view["game"]["version"])

    # when he passes
    player.send("#moves-panel [data-message=pass]")

    # then "Done." is said, and goes by itself
    notice = player.page.locator("#notice")
    expect(notice).to_have_text("Done.")
    expect(notice).to_be_hidden(timeout=WAIT_MS)


def test_the_join_form_keeps_a_house_someone_else_took_and_seats_nobody_elsewhere(
    chromium: Any, server: LiveServer
) -> None:
    # given a listed game in the lobby, and a visitor filling the join form with House Stark
    created = listed_lobby(server.url)
    game_id = created["game_id"]
    visitor = open_person(chromium, "visitor", f"{server.url}/games/{game_id}")
    page = visitor.page
    page.fill("#join-name", "Dan")
    expect(page.locator("#join-house")).to_have_value("stark")

    # when someone else takes House Stark first
    taken = requests.post(
        f"{server.url}/api/games/{game_id}/commands/join",
        json={"house": "stark", "player_name": "Rival"},
        timeout=5,
    )
    assert taken.ok, taken.text
    expect(page.locator("[data-testid=status]")).to_contain_text("1 of 3 seats taken")

    # then the form says so and offers no House in its place; joining seats nobody
    expect(page.locator("#join-house-taken")).to_contain_text("House Stark was taken by Rival")
    expect(page.locator("#join-house")).to_have_value("")
    page.click("#join-form button[type=submit]")
    page.wait_for_timeout(500)
    assert [s["player_name"] for s in court(server.url, game_id)["seats"]] == ["Rival"]
    # and it still says so after the page is drawn again, when another player joins
    other = {"house": "lannister", "player_name": "Other"}
    assert requests.post(
        f"{server.url}/api/games/{game_id}/commands/join", json=other, timeout=5
    ).ok
    expect(page.locator("[data-testid=status]")).to_contain_text("2 of 3 seats taken")
    visitor.context.set_offline(True)
    expect(page.locator("#connection")).not_to_contain_text("Connected as")
    back_online(visitor)
    expect(page.locator("#join-house-taken")).to_contain_text("House Stark was taken by Rival")
    expect(page.locator("#join-house")).to_have_value("")
    # and another House chosen joins
    page.select_option("#join-house", "tyrell")
    page.click("#join-form button[type=submit]")
    expect(page.locator("#connection")).to_contain_text("Connected as Dan (House Tyrell)")


def test_the_turn_is_said_to_the_player_and_of_him_to_the_others(
    chromium: Any, server: LiveServer
) -> None:
    # given Stark's proposal to marry Robb Stark to Margaery Tyrell in round 1's marriages
    game = HttpCourt(server.url)
    for _ in range(3):
        decree = court(server.url, game.id)["decree"]
        if decree["current"] == 0:
            break
        game.play("pass", {}, game.tokens[decree["current"]])
    body = {"noble": "robb-stark", "to": "margaery-tyrell"}
    game.play("propose_marriage", body, game.tokens[0])
    version = court(server.url, game.id)["game"]["version"]
    url = f"{server.url}/games/{game.id}"
    tyrell = open_seat(chromium, "tyrell", url, game.id, game.tokens[2])
    stark = open_seat(chromium, "stark", url, game.id, game.tokens[0])
    for person in (tyrell, stark):
        wait_version(person, version)

    # then Tyrell is told it is his turn, and Stark is told Tyrell answers
    expect(tyrell.page.locator("[data-testid=turn]")).to_have_text(
        "Your turn: answer the marriage proposal"
    )
    expect(stark.page.locator("[data-testid=turn]")).to_have_text(
        "Player of tyrell (House Tyrell) answers the marriage proposal"
    )
