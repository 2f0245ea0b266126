"""Screenshots of each page (the front page of a player who holds a seat, the game page of a
named 6-player game under way as a spectator and as that seat, its history, the page of a
person's key) at phone (390 px) and laptop (1366 px) width, in the light and the dark theme,
under test-output/screenshots; with SCREENSHOTS_TO_DOCS=1 also into docs/screenshots/ under
stable names (game-phone.png, seat-dark-laptop.png, ...) for the README."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ROOT
from tests.browser.full_court import full_court
from tests.browser.players import WAIT_MS
from tests.live_server import LiveServer

DOCS = ROOT / "docs" / "screenshots"
WIDTHS = {"phone": (390, 844), "laptop": (1366, 900)}
NAME = "Saturday at Winterfell"
SEATED = "Player of stark, House Stark, host"
# Each page: its address, what it must show before the picture is taken, where the README's
# picture starts, and whether the browser holds Stark's seat (remembered, as after joining).
PAGES = {
    "front": ("/", f"#my-games li[data-game]:has-text('{NAME}')", None, True),
    "game": ("/games/{id}", "[data-testid=seat-warden-north] a.holder", "#throne", False),
    "seat": ("/games/{id}", "#connection:has-text('Connected as')", "#play", True),
    "history": (
        "/games/{id}/history",
        "[data-testid=seat-warden-north] a.holder",
        "#scrub-heading",
        False,
    ),
    "key": ("/", "#key-panel:has-text('Your key gathers')", "#mine-heading", True),
}


@pytest.fixture(scope="module")
def six(chromium: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str, str]]:
    with LiveServer(tmp_path_factory.mktemp("shots") / "court.db") as server:
        game = full_court(server.url)
        game.play("rename_game", {"name": NAME}, game.host)
        yield server.url, game.id, game.tokens[0]


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("width", list(WIDTHS))
@pytest.mark.parametrize("page_name", list(PAGES))
def test_each_page_is_pictured_at_phone_and_laptop_width_in_both_themes(
    chromium: Any,
    six: tuple[str, str, str],
    shots: Path,
    page_name: str,
    width: str,
    theme: str,
) -> None:
    base, game_id, token = six
    path, ready, start, seated = PAGES[page_name]
    size = WIDTHS[width]
    context = chromium.new_context(
        viewport={"width": size[0], "height": size[1]}, color_scheme=theme
    )
    context.set_default_timeout(WAIT_MS)
    if seated:
        kept = json.dumps([{"token": token, "label": SEATED}])
        context.add_init_script(f"localStorage.setItem('seats:{game_id}', {kept!r})")
    page = context.new_page()
    page.goto(base + path.format(id=game_id))
    if page_name == "key":  # the key is made here; the first picture's is revoked by the next
        page.click("#make-key")
    expect(page.locator(ready)).to_be_visible()
    pressed = "true" if theme == "dark" else "false"
    expect(page.locator("#theme-toggle")).to_have_attribute("aria-pressed", pressed)
    assert page.evaluate("document.scrollingElement.scrollWidth") <= size[0]
    name = f"{page_name}{'-dark' if theme == 'dark' else ''}-{width}.png"
    page.screenshot(path=str(shots / name), full_page=True)
    if start:  # the picture for the README starts at the part the page is about
        page.locator(start).evaluate("el => el.scrollIntoView()")
    if os.environ.get("SCREENSHOTS_TO_DOCS") == "1":
        DOCS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(DOCS / name))
        assert (DOCS / name).stat().st_size > 0
    context.close()
