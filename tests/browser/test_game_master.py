"""A game master in the browser (section 9): named in the lobby, handed a link by the host,
he records a fact that every page reads with his name; the link's token never reaches the
server's address bar or history."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import requests
from playwright.sync_api import expect

from tests.browser.players import open_person
from tests.live_server import LiveServer


def test_the_host_hands_a_link_to_the_game_master_who_records_a_fact(
    chromium: Any, server: LiveServer, shots: Path
) -> None:
    host = open_person(chromium, "host", f"{server.url}/")
    host.page.fill("#host-name", "Eddard")
    host.page.fill("#game-master-name", "Maester Aemon")
    host.page.select_option("#players", "3")
    host.page.click("text=Create the game")
    host.page.wait_for_url("**/games/*")
    game_id = host.page.url.rsplit("/", 1)[-1]
    invite = host.page.locator("#invite-url").input_value().split("#invite=", 1)[1]
    for house in ("stark", "lannister", "tyrell"):
        joined = requests.post(
            f"{server.url}/api/games/{game_id}/commands/join",
            json={"house": house, "player_name": f"Player of {house}", "invite": invite},
            timeout=5,
        )
        assert joined.status_code == 201, joined.text
    expect(host.page.locator("[data-message=start]")).to_be_visible()
    host.send("[data-message=start]")

    link = host.page.locator("#master-link").input_value()
    assert link.startswith(f"{server.url}/games/{game_id}#token=")
    host.shot(shots, "game-master-link")

    master = open_person(chromium, "master", link)
    expect(master.page.locator("#host-heading")).to_have_text("Game master: Maester Aemon")
    assert master.page.url == f"{server.url}/games/{game_id}"  # the token left the address
    details = master.page.locator("details[data-message=record_gold]")
    details.locator("summary").click()
    master.choose("#record_gold-house", "tyrell")
    master.page.fill("#record_gold-amount", "3")
    master.page.fill("#record_gold-cause", "a good harvest")
    master.send("details[data-message=record_gold] button[type=submit]")
    expect(master.page.locator("#notice")).to_have_text("Done.")

    expect(host.page.locator("#spectators")).to_contain_text("the game master is connected")
    expect(host.page.locator("#feed")).to_contain_text(
        "Maester Aemon, the game master, recorded a fact: gold."
    )
    assert not master.page.locator("[data-message=advance_phase]").count()
    master.shot(shots, "game-master-panel")
    assert master.errors == [] and host.errors == []
