"""The history page's badge shows the deep check of the record (section 10): a log edited in
the database, with every hash after the edit recomputed, is named as failing the
commitments check at the version of the forged reveal; a log the server checked before is told
as such (never "from" a version past its end); the history opens at its top with the chosen
event shown inside its list; the fourth council seat bought in the sale is a change at court."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import requests
from playwright.sync_api import expect

from court.log.chain import Record
from server.store.sql import SqlEventStore
from tests.browser.court_http import NORTH, HttpCourt
from tests.browser.players import open_person
from tests.live_server import LiveServer
from tests.server.tools.cli.court_shell import tamper

WEST = ("casterly-rock", "lannisport", "the-crag", "pyke", "lordsport")


def forge_the_reveal(db: Path, game_id: str) -> int:
    """Swap FOR and DECOY in the reveal and recompute every hash from there; its version."""
    store = SqlEventStore(f"sqlite:///{db}", read_only=True)
    try:
        records = list(store.read(game_id))
    finally:
        store.close()
    forged = next(r for r in records if r.type == "BallotsRevealed")
    for marker in forged.data["markers"]:
        marker["kind"] = {"for": "decoy", "decoy": "for"}[marker["kind"]]
    statements: list[tuple[str, tuple[object, ...]]] = []
    prev = records[forged.version - 2].hash
    for record in records[forged.version - 1 :]:
        prev = Record(**{**record.to_json(), "hash": ""}).expected_hash(prev)
        statements.append(
            (
                "UPDATE event_records SET data = ?, hash = ? WHERE game_id = ? AND version = ?",
                (json.dumps(record.data), prev, game_id, record.version),
            )
        )
    tamper(db, *statements)
    return forged.version


def test_the_history_badge_names_the_check_a_forged_log_fails(
    chromium: Any, tmp_path: Path
) -> None:
    db = tmp_path / "court.db"
    with LiveServer(db, deadlines=False) as server:
        game = HttpCourt(server.url)
        game.record_villages("stark", NORTH)
        game.advance_until(lambda view: view["game"]["round"] == 2)
        assert any(r["type"] == "BallotsRevealed" for r in game.records())
        version = forge_the_reveal(db, game.id)

        page = open_person(chromium, "auditor", f"{server.url}/games/{game.id}/history").page
        badge = page.locator("[data-testid=verification]")
        expect(badge).to_contain_text(f"fails the commitments check at version {version}")
        expect(badge).to_have_attribute("data-check", "commitments")


def test_the_history_opens_at_its_top_with_the_newest_event_shown_inside_its_list(
    chromium: Any, server: LiveServer
) -> None:
    game = HttpCourt(server.url)
    game.record_villages("stark", NORTH)
    game.advance_until(lambda view: view["game"]["round"] == 2)
    person = open_person(chromium, "reader", f"{server.url}/games/{game.id}/history", 390)
    chosen = person.page.locator("#events li.chosen")
    expect(chosen).to_have_count(1)
    inside = person.page.evaluate(
        """() => {
          const list = document.getElementById('events').getBoundingClientRect();
          const item = document.querySelector('#events li.chosen').getBoundingClientRect();
          return item.top >= list.top - 1 && item.bottom <= list.bottom + 1;
        }"""
    )
    assert person.page.evaluate("window.scrollY") == 0 and inside
    # Stepping back in the history moves the list, not the window.
    person.page.locator("#scrub-back").click()
    person.page.evaluate("window.scrollTo(0, 0)")
    person.page.locator("#scrubber").press("ArrowLeft")
    expect(chosen).to_have_attribute("data-version", str(len(game.records()) - 2))
    assert person.page.evaluate("window.scrollY") == 0
    assert person.errors == []


def test_a_log_checked_before_is_told_so_and_the_fourth_seat_is_a_change(
    chromium: Any, server: LiveServer
) -> None:
    game = HttpCourt(server.url)
    game.settle()
    game.record_villages("stark", NORTH)
    game.record_villages("lannister", WEST)
    before = game.advance_until(lambda v: v["auction"] is not None)["game"]["version"]
    game.play("place_bid", {"amount": 3}, game.tokens[0])
    game.play("pass_bid", {}, game.tokens[1])
    game.play(
        "choose_council_seat", {"noble": "eddard-stark", "title": "master-of-coin"}, game.tokens[0]
    )
    records = len(game.records())
    # The server checks the whole log once; the page asks again with nothing new to check.
    assert requests.get(f"{server.url}/api/games/{game.id}/verify", timeout=10).json()["ok"]

    page = open_person(chromium, "auditor", f"{server.url}/games/{game.id}/history").page
    badge = page.locator("[data-testid=verification]")
    expect(badge).to_contain_text(f"{records} records")
    expect(badge).not_to_contain_text(f"version {records + 1}")
    expect(badge).to_contain_text(f"all {records} records")

    page.fill("#compare-from", str(before))
    page.fill("#compare-to", str(records))
    page.click("#compare-form button[type=submit]")
    changes = page.locator("[data-testid=changes]")
    expect(changes).to_contain_text("Master of Coin: now held by Eddard Stark")
    expect(changes).to_contain_text(
        "Eddard Stark now sits in the fourth Small Council seat, bought in the sale."
    )
