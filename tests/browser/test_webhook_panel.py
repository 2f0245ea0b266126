"""The host's webhook panel (server/notify/): he chooses what the group's chat is told (every
move, step summaries or results only) beside the URL; the page says it in a sentence, keeps
the choice, and the test post names the game by its name, never by its id."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from server.notify.digest import TOLD, Digest
from tests.browser.court_http import HttpCourt
from tests.browser.players import open_seat
from tests.live_server import LiveServer
from tests.server.notify.receiver import receiving


def test_the_host_chooses_the_digest_and_the_test_post_names_the_game(
    chromium: Any, tmp_path: Path
) -> None:
    settings = {"WEBHOOK_ALLOW_HTTP": True, "WEBHOOK_ALLOW_PRIVATE": True}
    with LiveServer(tmp_path / "court.db", settings=settings) as server, receiving() as hook:
        table = HttpCourt(server.url)
        table.play("rename_game", {"name": "Winter Feast"}, table.host)
        url = f"{server.url}/games/{table.id}"
        host = open_seat(chromium, "stark", url, table.id, table.host)
        page = host.page
        expect(page.locator("#webhook-status")).to_have_text("No webhook is set.")
        expect(page.locator("#webhook-digest")).to_have_value("steps")

        page.fill("#webhook-url", hook.url)
        page.select_option("#webhook-digest", "results")
        page.locator("#webhook-form button[type=submit]").click()
        told = TOLD[Digest.RESULTS]
        expect(page.locator("#webhook-status")).to_have_text(
            f"Saved: from the next turn on, the chat is told {told}."
        )
        page.click("#webhook-test")
        hook.wait_for(lambda texts: any("will post here" in t for t in texts))
        [test] = [t for t in hook.texts() if "will post here" in t]
        assert test.startswith("Winter Feast: ") and table.id not in test.split("\n")[0]
        assert told in test

        page.reload()
        expect(page.locator("#webhook-digest")).to_have_value("results")
        expect(page.locator("#webhook-status")).to_have_text(
            f"A webhook is set: the chat is told {told}."
        )
        assert host.errors == [], host.errors
