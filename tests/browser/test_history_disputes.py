"""The history for disputes: skips and bookkeeping hidden by default and shown with one click; two
versions compared in sentences; every line links to the rule it applied (R-7.8 for a skipped King's
election, R-4.2 skips); a past version says what came next instead of "Nobody: the host closes the
phase"; events before the start are not "Round 0"."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.browser.court_http import HttpCourt
from tests.browser.players import open_person
from tests.live_server import LiveServer

NORTH = ("winterfell", "white-harbor", "the-dreadfort", "moat-cailin")


def test_the_history_hides_skips_compares_versions_and_links_rules(
    chromium: Any, tmp_path: Path, shots: Path
) -> None:
    with LiveServer(tmp_path / "court.db", deadlines=False) as server:
        game = HttpCourt(server.url)
        game.record_villages("stark", NORTH)
        game.advance_until(lambda view: view["game"]["round"] == 2)
        records = game.records()
        skips = [r for r in records if r["type"] in ("ElectionSkipped", "DecreeStepSkipped")]
        assert skips
        person = open_person(chromium, "auditor", f"{server.url}/games/{game.id}/history")
        page = person.page
        events = page.locator("#events")
        expect(events.locator("li[data-version]")).to_have_count(len(records))

        # Skips and bookkeeping: drawn but hidden; one click shows them.
        skipped = events.locator(f"li[data-version='{skips[0]['version']}']")
        expect(skipped).to_be_hidden()
        expect(page.locator("#hidden-count")).to_contain_text("hidden")
        page.check("#show-all")
        expect(skipped).to_be_visible()
        page.uncheck("#show-all")
        expect(skipped).to_be_hidden()

        # Events before the first round are not "Round 0".
        expect(events.locator(".round-mark").first).to_have_text("Before the first round")
        page.locator("#events li[data-version='2'] button").click()
        expect(page.locator("#scrub-event")).to_contain_text("Before the first round")
        expect(page.locator("#scrub-event")).not_to_contain_text("Round 0")

        # Every line links to the rules it applied; the King's skip links on /rules.
        page.check("#show-all")
        king = events.locator(
            "li[data-kind=skip]", has_text=re.compile(r"#\d+ King: no election")
        ).first
        link = king.locator("a.rule", has_text="R-7.8")
        expect(link).to_have_attribute("href", "/rules#R-7.8")
        link.click()
        expect(page).to_have_url(f"{server.url}/rules#R-7.8")
        expect(page.locator("li#R-7\\.8")).to_contain_text("King (1.5)")
        page.go_back()

        # A past version the server moved past by itself says what came next.
        phase = next(r for r in records if r["type"] == "PhaseStarted")
        page.check("#show-all")
        page.locator(f"#events li[data-version='{phase['version'] - 1}'] button").click()
        summary = page.locator("#summary")
        expect(summary).not_to_contain_text("the host closes the phase")
        expect(page.locator("[data-testid=next]")).to_contain_text(f"#{phase['version']}")

        # Two versions compared in sentences: before the North's villages, and after round 1.
        granted = next(r for r in records if r["type"] == "VillageControlChanged")
        page.fill("#compare-from", str(granted["version"] - 2))
        page.fill("#compare-to", str(len(records)))
        page.click("#compare-form button[type=submit]")
        changes = page.locator("[data-testid=changes]")
        expect(changes).to_contain_text("Winterfell: now held by House Stark, was held by nobody.")
        expect(changes.locator("li[data-kind=village]")).to_have_count(4)
        person.shot(shots, "history-compare")
        assert person.errors == []

        # A version the game does not have is refused next to the form.
        page.fill("#compare-to", str(len(records) + 50))
        page.click("#compare-form button[type=submit]")
        expect(page.locator("#compare-error")).to_contain_text("does not exist")
