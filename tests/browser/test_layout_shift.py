"""Live updates never move the page: while a spectator reads the court, the server moves from a
phase with no step to the next round's decree steps (R-4.1, R-4.2), a fact is recorded and the turn
passes; the throne room and the House cards stay where they are on the screen (on a phone the panels
above them change size; the page keeps its reading position, as browsers' scroll anchoring does when
nothing opts out of it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.browser.court_http import HttpCourt
from tests.browser.players import open_person
from tests.live_server import LiveServer

WHERE = "['#throne', '#houses'].map((s) => document.querySelector(s).getBoundingClientRect().top)"


def test_the_court_stays_in_place_while_the_server_moves_on(chromium: Any, tmp_path: Path) -> None:
    with LiveServer(tmp_path / "court.db", deadlines=False) as server:
        game = HttpCourt(server.url)
        game.advance_until(lambda view: view["game"]["phase"] == "cards")
        # At laptop width the page is read from its top while the summary gains a step; at
        # phone width the reader has scrolled to the throne room while the panels above change.
        for width in (1280, 360):
            url = f"{server.url}/games/{game.id}"
            person = open_person(chromium, f"spectator-{width}", url, width)
            page = person.page
            expect(page.locator("#houses article.house")).to_have_count(3)
            if width == 360:
                page.evaluate("document.querySelector('#throne').scrollIntoView({block: 'start'})")
            before = page.evaluate(WHERE)
            version = game.view()["game"]["version"]
            if width == 1280:
                expect(page.locator("[data-testid=step]")).to_have_text("—")
                gold = {"house": "tyrell", "amount": 2, "cause": "tax"}
                game.play("record_gold", gold, game.host)
                game.advance_until(lambda view: view["game"]["round"] == 2)
                expect(page.locator("[data-testid=step]")).to_have_text("1.1.1 Marriages")
            else:
                game.play("pass", {}, game.tokens[game.view()["decree"]["current"]])
            expect(page.locator("[data-testid=version]")).not_to_have_text(str(version))
            after = page.evaluate(WHERE)  # scroll anchoring rounds to a fraction of a pixel
            assert all(abs(a - b) < 1 for a, b in zip(after, before, strict=True)), (before, after)
            assert person.errors == []
            person.context.close()
