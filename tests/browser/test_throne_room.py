"""The throne room and the compact House cards in a 6-player game under way: holders of the
offices in their Houses' arms, victory points, the alliance a marriage made; the themes; the
court at 360 px without horizontal scroll; the seats reached with the keyboard alone."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.full_court import full_court
from tests.browser.players import WAIT_MS
from tests.live_server import LiveServer

# Measured on this game at 360 px: the court (throne room and House cards) 3,404 px, the whole
# page 5,053 px; the House tables the compact cards replaced measured 5,484 px alone.
COURT_HEIGHT, PAGE_HEIGHT = 3_600, 5_400


@pytest.fixture(scope="module")
def six(chromium: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """The server's address and the id of a 6-player game in round 6."""
    with LiveServer(tmp_path_factory.mktemp("throne") / "court.db") as server:
        yield server.url, full_court(server.url).id


def open_page(chromium: Any, url: str, width: int = 1280, scheme: str = "light") -> Any:
    context = chromium.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    page.goto(url)
    return page


def test_the_throne_room_shows_each_office_s_holder_the_points_and_the_alliance(
    chromium: Any, six: tuple[str, str], shots: Path
) -> None:
    base, game_id = six
    page = open_page(chromium, f"{base}/games/{game_id}")
    north = page.locator("[data-testid=seat-warden-north]")
    expect(north).to_contain_text("Eddard Stark")
    expect(north.locator("svg.arms")).to_have_attribute("data-arms", "bordure mullet")
    expect(page.locator("[data-testid=seat-fief-the-eyrie]")).to_contain_text("Robert Baratheon")
    expect(page.locator("[data-testid=seat-mother-of-dragons]")).to_contain_text("Cersei")
    expect(page.locator("[data-testid=seat-king]")).to_contain_text("empty")
    # The Lord Commander sits only with the Night's Watch variant, off here.
    expect(page.locator("[data-testid=seat-lord-commander]")).to_have_count(0)
    # Baratheon holds two Fief titles, Stark one.
    expect(page.locator("[data-testid=standing-vp-baratheon]")).to_have_text("2 VP")
    expect(page.locator("[data-testid=vp-stark]")).to_have_text("1 VP")
    # Robb Stark's marriage to Margaery Tyrell allies the two Houses.
    alliance = page.locator("[data-testid=alliances] li.alliance")
    expect(alliance).to_have_attribute("data-houses", "stark tyrell")
    expect(alliance).to_contain_text("marriage of Robb Stark and Margaery Tyrell")
    expect(page.locator("[data-standing=stark] .ally")).to_contain_text("allied with House Tyrell")
    robb = page.locator("[data-house=stark] li.noble", has_text="Robb Stark")
    expect(robb).to_contain_text("married to Margaery Tyrell")
    page.screenshot(path=str(shots / "throne-room.png"), full_page=True)
    page.context.close()


def test_the_history_shows_the_throne_room_at_a_past_version(
    chromium: Any, six: tuple[str, str]
) -> None:
    base, game_id = six
    page = open_page(chromium, f"{base}/games/{game_id}/history")
    expect(page.locator("[data-testid=seat-warden-north]")).to_contain_text("Eddard Stark")
    page.locator("#events li[data-version='2'] button").click()
    expect(page.locator("#houses")).to_have_attribute("data-version", "2")
    # Before the start the throne room is not drawn; a few events later every seat is empty.
    expect(page.locator("#throne")).to_be_hidden()
    started = page.locator("#events li[data-version]", has_text="started").first
    started.locator("button").click()
    expect(page.locator("[data-testid=seat-warden-north]")).to_contain_text("empty")
    page.context.close()


def test_the_theme_follows_the_system_until_the_toggle_picks_one_and_remembers_it(
    chromium: Any, six: tuple[str, str]
) -> None:
    base, game_id = six
    page = open_page(chromium, f"{base}/games/{game_id}", scheme="dark")
    toggle = page.locator("#theme-toggle")
    expect(toggle).to_have_attribute("aria-pressed", "true")  # the system's dark
    body = "getComputedStyle(document.body).backgroundColor"
    dark = page.evaluate(body)
    toggle.click()
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    assert page.evaluate(body) != dark
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    other = page.context.new_page()
    other.goto(f"{base}/")
    expect(other.locator("html")).to_have_attribute("data-theme", "light")
    page.context.close()


@pytest.mark.parametrize("path", ["/", "/games/{id}", "/games/{id}/history"])
def test_at_360_px_no_page_scrolls_sideways(chromium: Any, six: tuple[str, str], path: str) -> None:
    base, game_id = six
    page = open_page(chromium, base + path.format(id=game_id), width=360)
    if "{id}" in path:
        expect(page.locator("#throne li.seat").first).to_be_visible()
    expect(page.locator("#theme-toggle")).to_be_visible()
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 360
    page.context.close()


def test_at_360_px_the_court_of_six_houses_fits_in_a_few_screens(
    chromium: Any, six: tuple[str, str]
) -> None:
    base, game_id = six
    page = open_page(chromium, f"{base}/games/{game_id}", width=360)
    expect(page.locator("#houses article.house")).to_have_count(6)
    # Nobody is connected, and nothing is under vote: a spectator is shown no table's panel
    expect(page.locator("#table-votes-panel")).to_be_hidden()
    court = page.evaluate("document.querySelector('section.table').offsetHeight")
    whole = page.evaluate("document.scrollingElement.scrollHeight")
    assert court <= COURT_HEIGHT, court
    assert whole <= PAGE_HEIGHT, whole
    page.context.close()


def test_the_throne_room_seats_are_reached_and_announced_with_the_keyboard(
    chromium: Any, six: tuple[str, str]
) -> None:
    base, game_id = six
    page = open_page(chromium, f"{base}/games/{game_id}")
    expect(page.locator("[data-testid=seat-warden-north] a.holder")).to_be_visible()
    focused = "document.activeElement.closest('[data-testid]')?.dataset.testid ?? ''"
    reached = []
    for _ in range(40):
        page.keyboard.press("Tab")
        reached.append(page.evaluate(focused))
        if reached[-1] == "seat-warden-north":
            break
    assert reached[-1] == "seat-warden-north", reached
    holder = page.locator("[data-testid=seat-warden-north] a.holder")
    expect(holder).to_be_focused()
    expect(holder).to_have_attribute(
        "aria-label", "Warden of the North: Eddard Stark of House Stark"
    )
    outline = holder.evaluate("a => getComputedStyle(a).outlineStyle")
    assert outline != "none"
    page.keyboard.press("Enter")
    expect(page.locator("#noble-eddard-stark")).to_be_in_viewport()
    assert page.evaluate("location.hash") == "#noble-eddard-stark"
    page.context.close()
