"""A seat is hard to lose by accident: the host's seat actions (a new link, the host role,
removing a player), leaving a seat and forgetting it on a device ask first, as a death does, and
the name field of the host's panel shows its whole hint; a seat is remembered on the device
unless the player unticks it (a new tab plays it, the front page lists it), and forgotten on
request; a seat link opened in a tab that plays another seat of the game takes its place only
if the player says so."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from tests.browser.court_http import HttpCourt, listed_lobby
from tests.browser.players import (
    LANNISTER,
    TYRELL,
    WAIT_MS,
    Person,
    connected,
    host_panel,
    open_person,
    open_seat,
)
from tests.live_server import LiveServer

# Whether an input's placeholder fits in its box, measured in the input's own font.
FITS = """el => {
  const style = getComputedStyle(el), canvas = document.createElement('canvas').getContext('2d');
  canvas.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return canvas.measureText(el.placeholder).width <= room;
}"""


def asked(page: Page, button: str, says: str) -> None:
    """Clicking `button` opens a confirmation saying `says`; it is cancelled."""
    page.locator(button).click()
    dialog = page.locator("dialog.confirm")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text(says)
    page.locator("#confirm-no").click()
    expect(dialog).to_have_count(0)


def test_the_hosts_seat_actions_ask_first(chromium: Any, server: LiveServer) -> None:
    game = HttpCourt(server.url)
    url = f"{server.url}/games/{game.id}"
    host = open_seat(chromium, "host", url, game.id, game.host)
    connected(host, "host")
    host_panel(host)
    page = host.page
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        name = page.locator(f"#hand-name-{LANNISTER}")
        assert name.evaluate(FITS), (width, name.get_attribute("placeholder"))
    before = game.view()["game"]["version"]

    row = f"#host-seats li[data-seat='{LANNISTER}']"
    asked(page, f"{row} .hand-seat", "Player of lannister")
    asked(page, f"#host-seats li[data-seat='{TYRELL}'] .hand-host", "Player of tyrell")
    assert game.view()["game"]["version"] == before
    assert game.view(LANNISTER)["viewer"]["seat"] == LANNISTER  # the old link still plays
    assert game.view()["seats"][0]["host"] is True

    page.locator(f"{row} .hand-seat").click()
    page.locator("#confirm-yes").click()
    expect(page.locator(f"#handed-link-{LANNISTER}")).to_be_visible()
    assert host.errors == []


def test_forgetting_a_seat_on_a_device_asks_first(chromium: Any, server: LiveServer) -> None:
    game = HttpCourt(server.url)
    url = f"{server.url}/games/{game.id}"
    player = open_seat(chromium, "tyrell", url, game.id, game.tokens[TYRELL])
    connected(player, "Connected as Player of tyrell")
    player.page.locator("#own-seat summary").click()
    asked(player.page, "#forget-seat", "spectator")
    connected(player, "Connected as Player of tyrell")
    player.page.locator("#forget-seat").click()
    player.page.locator("#confirm-yes").click()
    connected(player, "Connected as a spectator")


def test_a_seat_is_remembered_on_the_device_by_default_and_forgotten_on_request(
    chromium: Any, server: LiveServer
) -> None:
    created = listed_lobby(server.url)
    game_id = created["game_id"]
    url = f"{server.url}/games/{game_id}"
    player = open_person(chromium, "player", url)
    connected(player, "spectator")
    expect(player.page.locator("#join-remember")).to_be_checked()
    player.page.fill("#join-name", "Arya")
    player.page.locator("#join-form button[type=submit]").click()
    connected(player, "Connected as Arya")
    expect(player.page.locator("#remember-seat")).to_be_checked()

    # A new tab of the same browser is at the seat, and the front page lists the game.
    other = open_tab(player, url)
    expect(other.locator("#connection")).to_contain_text("Connected as Arya", timeout=WAIT_MS)
    # Leaving a seat in the lobby asks first too.
    asked(other, "#leave-seat", "Leave your seat?")
    expect(other.locator("#connection")).to_contain_text("Connected as Arya")
    other.goto(server.url)
    expect(other.locator(f"#my-games li[data-game='{game_id}']")).to_contain_text("as Arya")

    # On a shared computer: forget it from the front page (asked first); the next tab watches.
    asked(other, f"#my-games li[data-game='{game_id}'] .forget-game", "Arya")
    other.locator(f"#my-games li[data-game='{game_id}'] .forget-game").click()
    other.locator("#confirm-yes").click()
    expect(other.locator("#my-games")).to_contain_text("This browser holds no seat yet.")
    third = open_tab(player, url)
    expect(third.locator("#connection")).to_contain_text("spectator", timeout=WAIT_MS)
    stored = third.evaluate("JSON.stringify([{...localStorage}, {...sessionStorage}])")
    assert "Arya" not in stored and created["host_token"] not in stored

    # Unticked, the seat stays with its tab only.
    third.fill("#join-name", "Bran")
    third.locator("#join-remember").uncheck()
    third.locator("#join-form button[type=submit]").click()
    expect(third.locator("#connection")).to_contain_text("Connected as Bran", timeout=WAIT_MS)
    fourth = open_tab(player, url)
    expect(fourth.locator("#connection")).to_contain_text("spectator", timeout=WAIT_MS)
    assert player.errors == []


def test_the_hosts_seat_is_remembered_too(chromium: Any, server: LiveServer) -> None:
    host = open_person(chromium, "host", server.url)
    host.page.fill("#host-name", "Ann")
    expect(host.page.locator("#remember-game")).to_be_checked()
    host.page.locator("#create button[type=submit]").click()
    host.page.wait_for_url("**/games/*")
    url = host.page.url
    connected(host, "host")
    other = open_tab(host, url)
    expect(other.locator("#connection")).to_contain_text("host", timeout=WAIT_MS)
    assert host.errors == []


def open_tab(person: Person, url: str) -> Page:
    tab = person.context.new_page()
    tab.goto(url)
    return tab


def test_a_seat_link_takes_the_place_of_this_tab_s_seat_only_if_the_player_says_so(
    chromium: Any, server: LiveServer
) -> None:
    """Ann's tab plays Lannister; a link holding Tyrell's token, opened in that tab, asks
    first: cancelled, the tab plays Lannister on and the token left the address bar; accepted,
    it plays Tyrell."""
    game = HttpCourt(server.url)
    url = f"{server.url}/games/{game.id}"
    ann = open_person(chromium, "ann", url)
    ann.page.evaluate(
        "([game, token]) => sessionStorage.setItem(`token:${game}`, token)",
        [game.id, game.tokens[LANNISTER]],
    )
    ann.page.reload()
    connected(ann, "Connected as Player of lannister")
    tyrell = f"{url}#token={game.tokens[TYRELL]}"

    for answer, plays in (("#confirm-no", "lannister"), ("#confirm-yes", "tyrell")):
        ann.page.goto("about:blank")
        ann.page.goto(tyrell)
        dialog = ann.page.locator("dialog.confirm")
        expect(dialog).to_contain_text("this tab already plays a seat here")
        assert "#token" not in ann.page.url
        ann.page.locator(answer).click()
        connected(ann, f"Connected as Player of {plays}")
    # a link of the seat the tab plays already asks nothing
    ann.page.goto("about:blank")
    ann.page.goto(tyrell)
    connected(ann, "Connected as Player of tyrell")
    expect(ann.page.locator("dialog.confirm")).to_have_count(0)
    assert ann.errors == []
