"""The host's correction form (docs/playing.md, "Playing at a distance"): every village a map
submit recorded can be picked, not only the first; a correction the rules refuse says why in
the House's name and what would be accepted, and keeps what the host typed."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.browser.court_http import HttpCourt
from tests.browser.players import open_seat
from tests.live_server import LiveServer

NORTH = ("winterfell", "white-harbor", "the-dreadfort", "moat-cailin")


def test_every_village_of_a_map_submit_can_be_corrected(chromium: Any, server: LiveServer) -> None:
    # Given four villages recorded in one submit of the map, and then 3 GD for Lannister
    game = HttpCourt(server.url)
    changes = [{"village": v, "house": "stark"} for v in NORTH]
    submit = game.play("record_villages", {"changes": changes, "cause": "the map"}, game.host)
    game.play("record_gold", {"house": "lannister", "amount": 3, "cause": "a raid"}, game.host)
    host = open_seat(chromium, "host", f"{server.url}/games/{game.id}", game.id, game.host)
    game.phones.pages[0] = host.page

    # When the host opens the correction form
    host.page.locator("#propose-correction summary").click()

    # Then each of the four villages is offered, as is the gold
    picker = host.page.locator("#correct-record")
    for village in ("Winterfell", "White Harbor", "The Dreadfort", "Moat Cailin"):
        expect(picker.locator("option", has_text=village)).to_have_count(1)
    expect(picker.locator("option[data-fact=gold]")).to_have_count(1)
    # ... and the last of them is proposed as any other record is
    last = submit["version"]
    picker.select_option(str(last))
    host.page.select_option("#correct-house", "tyrell")
    host.page.fill("#correct-cause", "Tyrell took it first")
    host.page.locator("#propose-correction button[type=submit]").click()
    host.send("#confirm-yes")
    expect(host.page.locator("#open-correction")).to_contain_text(f"record #{last}")
    assert not host.errors, host.errors


def test_a_refused_correction_says_why_by_name_and_keeps_what_was_typed(
    chromium: Any, server: LiveServer
) -> None:
    # Given 3 GD recorded for Lannister, who has spent all but 3 since... (holds 3 + its start)
    game = HttpCourt(server.url)
    recorded = game.play(
        "record_gold", {"house": "lannister", "amount": 3, "cause": "a raid"}, game.host
    )
    held = next(h["treasury"] for h in game.view()["houses"] if h["id"] == "lannister")
    host = open_seat(chromium, "host", f"{server.url}/games/{game.id}", game.id, game.host)
    game.phones.pages[0] = host.page
    host.page.locator("#propose-correction summary").click()

    # When the host proposes a correction that would take more than Lannister holds
    too_low = 3 - held - 1
    host.page.locator("#correct-record").select_option(str(recorded["version"]))
    host.page.fill("#correct-amount", str(too_low))
    host.page.fill("#correct-cause", "it was a loss")
    host.page.locator("#propose-correction button[type=submit]").click()
    host.page.locator("#confirm-yes").click()

    # Then the refusal names House Lannister and the least amount the table could accept ...
    status = host.page.locator("#propose-correction [role=status]")
    expect(status).to_contain_text("House Lannister holds")
    expect(status).to_contain_text(f"Propose {3 - held} GD or more")
    expect(status).not_to_contain_text("lannister holds")
    # ... and what the host typed is still there after the page redrew, to be mended
    game.play("record_gold", {"house": "stark", "amount": 1, "cause": "a toll"}, game.host)
    expect(host.page.locator("#feed")).to_contain_text("a toll")
    expect(host.page.locator("#propose-correction")).to_have_attribute("open", "")
    expect(host.page.locator("#correct-amount")).to_have_value(str(too_low))
    expect(host.page.locator("#correct-cause")).to_have_value("it was a loss")
    host.page.fill("#correct-amount", str(3 - held))
    host.page.locator("#propose-correction button[type=submit]").click()
    host.send("#confirm-yes")
    expect(host.page.locator("#open-correction")).to_contain_text(f"record #{recorded['version']}")
