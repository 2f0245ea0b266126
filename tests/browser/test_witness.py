"""Pages witness the record they were shown (README, "Checking the record yourself"): a game
rewritten in the database with every hash after the change recomputed agrees with itself, so
the server's own checks pass; a page that saw the game before keeps the version and hash it was
shown, and when it is opened again it shows a banner naming the version and both hashes, and
offers the server's signed checkpoints as evidence that `flask court verify --witness` reads."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from app import create_app
from tests.browser.court_http import HttpCourt
from tests.browser.players import Person, open_person
from tests.browser.test_history_badge import NORTH
from tests.live_server import LiveServer
from tests.server.tools.cli.court_shell import rewrite


def kept(person: Person, game_id: str) -> dict[str, Any] | None:
    """What the page keeps on this device of the game: its newest version and hash seen."""
    text = person.page.evaluate(
        "(id) => localStorage.getItem('small-council.witness.' + id)", game_id
    )
    return None if text is None else json.loads(text)


def wait_kept(person: Person, game_id: str, version: int) -> dict[str, Any]:
    """The kept record once the page has checked the head at `version`."""
    person.page.wait_for_function(
        "([id, v]) => (JSON.parse(localStorage.getItem('small-council.witness.' + id)) || {})"
        ".version === v",
        arg=[game_id, version],
    )
    found = kept(person, game_id)
    assert found is not None
    return found


def test_a_rewritten_and_rehashed_game_is_caught_by_the_pages_that_saw_it(
    chromium: Any, tmp_path: Path
) -> None:
    db = tmp_path / "court.db"
    # Given a game past its first election, seen on a court page and on the history page
    with LiveServer(db, deadlines=False) as server:
        port = server.http.server_port
        game = HttpCourt(server.url)
        game.record_villages("stark", NORTH)
        game.advance_until(lambda view: view["game"]["round"] == 2)
        version, seen_hash = server.head(game.id)
        records = game.records()
        court_page = open_person(chromium, "ann", f"{server.url}/games/{game.id}")
        history_page = open_person(chromium, "ben", f"{server.url}/games/{game.id}/history")
        for person in (court_page, history_page):
            assert wait_kept(person, game.id, version)["hash"] == seen_hash
        expect(court_page.page.locator("#witness")).to_be_hidden()

    # When the name Stark's player joined with is rewritten in the database, every hash after
    # it recomputed, and the server started again on it
    joined = next(
        r["version"] for r in records if r["data"].get("player_name") == "Player of stark"
    )
    rewrite(db, game.id, joined, player_name="Ser Forger")
    with LiveServer(db, deadlines=False, port=port) as server:
        _, server_hash = server.head(game.id)
        assert server_hash != seen_hash
        # The log agrees with itself: the server's own deep check finds nothing wrong
        verified = game._call("GET", f"/api/games/{game.id}/verify")
        assert verified["ok"] is True, verified

        # Then both pages, opened again, name the version they kept and both hashes
        for person in (court_page, history_page):
            person.page.reload()
            banner = person.page.locator("#witness")
            expect(banner).to_be_visible()
            expect(banner).to_contain_text(f"At version {version}")
            expect(banner).to_contain_text(seen_hash)
            expect(banner).to_contain_text(server_hash)

        # And the evidence the page offers holds the server to what it signed before
        with court_page.page.expect_download() as download:
            court_page.page.get_by_role("button", name="Download the evidence").click()
        evidence = tmp_path / "evidence.json"
        download.value.save_as(evidence)
        saved = json.loads(evidence.read_text())
        assert saved["game_id"] == game.id and saved["version"] == version
        assert {c["version"] for c in saved["checkpoints"]} == {version}

    verify = create_app({"DATABASE_URL": f"sqlite:///{db}", "DEADLINES": False})
    result = verify.test_cli_runner().invoke(
        args=["court", "verify", game.id, "--witness", str(evidence)]
    )
    assert result.exit_code == 1, result.output
    assert f"broken: version {version} " in result.output
    for person in (court_page, history_page):
        assert not person.errors, person.errors
