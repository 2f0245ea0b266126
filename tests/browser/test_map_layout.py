"""The realm's map reads cleanly: no region's name prints over a village or its name, no two
village names overlap, no two Fiefdom frames overlap (each is measured as the browser draws it);
a focused region is marked along its own outline, never by a rectangle; and on a phone the game
comes soon after the seat controls."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from playwright.sync_api import expect

from tests.browser.court_http import HttpCourt
from tests.browser.players import open_seat
from tests.live_server import LiveServer

BOXES = """sel => [...document.querySelectorAll(sel)].map(e => {
  const b = e.getBoundingClientRect();
  return {name: e.textContent || e.id || e.querySelector('title')?.textContent,
          x: b.left, y: b.top, r: b.right, b: b.bottom};
})"""


FOCUSED = """() => { const e = document.activeElement, s = getComputedStyle(e);
  return [e.id, s.outlineStyle, s.strokeWidth]; }"""


def meet(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return a["x"] < b["r"] and b["x"] < a["r"] and a["y"] < b["b"] and b["y"] < a["b"]


def overlaps(first: list[dict[str, Any]], second: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(a["name"], b["name"]) for a in first for b in second if meet(a, b)]


def test_labels_frames_and_focus_on_the_map(chromium: Any, server: LiveServer) -> None:
    game = HttpCourt(server.url)
    url = f"{server.url}/games/{game.id}"
    for width in (1280, 390):
        person = open_seat(chromium, f"host-{width}", url, game.id, game.host)
        page = person.page
        page.set_viewport_size({"width": width, "height": 900})
        expect(page.locator("#village-winterfell")).to_be_visible()
        regions = page.evaluate(BOXES, ".realm-map .region-label")
        villages = page.evaluate(BOXES, ".realm-map .village-label")
        circles = page.evaluate(BOXES, ".realm-map .village circle")
        frames = page.evaluate(BOXES, ".realm-map .fiefdom")
        assert len(regions) == 5 and len(frames) == 8
        assert overlaps(regions, villages + circles) == [], width
        assert [(a["name"], b["name"]) for a, b in combinations(villages, 2) if meet(a, b)] == []
        assert [(a["name"], b["name"]) for a, b in combinations(frames, 2) if meet(a, b)] == []

        # A region focused from the keyboard, or clicked, is marked along its outline.
        page.locator("#village-winterfell").focus()
        page.keyboard.press("Shift+Tab")
        assert page.evaluate(FOCUSED) == ["region-north", "none", "4px"]
        page.click("#region-crownlands", position={"x": 40, "y": 40})
        assert page.evaluate(FOCUSED) == ["region-crownlands", "none", "4px"]
        person.context.close()


def test_on_a_phone_the_game_comes_soon_after_the_seat_controls(
    chromium: Any, server: LiveServer
) -> None:
    game = HttpCourt(server.url)
    url = f"{server.url}/games/{game.id}"
    for token in (game.host, game.tokens[1]):
        person = open_seat(chromium, "phone", url, game.id, token)
        page = person.page
        page.set_viewport_size({"width": 390, "height": 844})
        expect(page.locator("#seating")).to_be_visible()
        expect(page.locator("#summary")).not_to_be_empty()
        seating = page.locator("#seating").bounding_box()
        # Two folded rows at most, each as tall as a finger's target (44 px), and little else.
        assert seating is not None and seating["height"] <= 2 * 44 + 12, seating
        person.context.close()
