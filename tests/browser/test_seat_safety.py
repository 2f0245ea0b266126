"""A seat is hard to lose by accident: the host's seat actions (a new link, the host role,
removing a player) and forgetting a seat on a device ask first, as a death does, and the name
field of the host's panel shows its whole hint."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from tests.browser.court_http import HttpCourt
from tests.browser.players import open_seat
from tests.browser.test_seats import LANNISTER, TYRELL, connected, host_panel
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
    asked(player.page, "#forget-seat", "spectator")
    connected(player, "Connected as Player of tyrell")
    player.page.locator("#forget-seat").click()
    player.page.locator("#confirm-yes").click()
    connected(player, "Connected as a spectator")
