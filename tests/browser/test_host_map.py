"""The host at the map and his panel in a browser: villages recorded by clicking, several in one
command; a whole region at once, with the keyboard alone; a death asks first; an impossible choice
is not offered; a refusal shows next to its form; a round takes two of the host's clicks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.browser.court_http import HttpCourt
from tests.browser.players import Person, court, open_seat, wait_version
from tests.live_server import LiveServer

NORTH = ("winterfell", "white-harbor", "the-dreadfort", "moat-cailin")


def _host(chromium: Any, server: LiveServer) -> tuple[HttpCourt, Person]:
    game = HttpCourt(server.url)
    game.settle()
    host = open_seat(chromium, "host", f"{server.url}/games/{game.id}", game.id, game.host)
    game.phones.pages[0] = host.page
    expect(host.page.locator("#village-winterfell")).to_be_visible()
    return game, host


def _village_facts(game: HttpCourt) -> tuple[int, int]:
    """(commands recording villages, village facts) in the log."""
    records = game.records()
    recorded = [r for r in records if r["type"] == "FactRecorded"]
    changed = [r for r in records if r["type"] == "VillageControlChanged"]
    return len(recorded), len(changed)


def test_the_host_records_the_norths_four_villages_in_one_submit(
    chromium: Any, server: LiveServer, shots: Path
) -> None:
    game, host = _host(chromium, server)
    page = host.page
    host.choose("#map-house", "stark")
    for village in NORTH:
        page.click(f"#village-{village}")
    expect(page.locator("#map-changes li")).to_have_count(4)
    expect(page.locator("#map-submit")).to_have_text("Record 4 changes")
    host.shot(shots, "map-pending")

    host.send("#map-submit")

    expect(page.locator("#notice")).to_have_text("Done.")
    assert _village_facts(game) == (1, 4)
    for village in NORTH:
        expect(page.locator(f"#village-{village}")).to_have_attribute("data-holder", "stark")
    label = page.locator("#village-winterfell").get_attribute("aria-label")
    assert label == "Winterfell, The North: held by House Stark"
    expect(page.locator("#map-text")).to_contain_text("Moat Cailin, The North: held by House Stark")
    host.shot(shots, "map-recorded")
    assert host.errors == []


def test_a_whole_region_is_given_with_the_keyboard_alone(chromium: Any, server: LiveServer) -> None:
    game, host = _host(chromium, server)
    page = host.page
    host.choose("#map-house", "lannister")
    page.locator("#region-crownlands").focus()

    page.keyboard.press("Enter")  # the whole region

    expect(page.locator("#map-changes li")).to_have_count(4)
    assert page.evaluate("document.activeElement.id") == "region-crownlands"
    page.keyboard.press("Tab")  # on to the region's first village, King's Landing
    assert page.evaluate("document.activeElement.id") == "village-kings-landing"
    page.keyboard.press(" ")  # left out of the changes
    expect(page.locator("#map-changes li")).to_have_count(3)
    page.locator("#map-submit").focus()
    page.keyboard.press("Enter")

    expect(page.locator("#notice")).to_have_text("Done.")
    assert _village_facts(game) == (1, 3)
    expect(page.locator("#village-rosby")).to_have_attribute("data-holder", "lannister")
    expect(page.locator("#village-kings-landing")).to_have_attribute("data-holder", "")
    assert host.errors == []


def test_a_death_asks_first_and_justice_is_offered_only_for_an_outlaw(
    chromium: Any, server: LiveServer, shots: Path
) -> None:
    game, host = _host(chromium, server)
    page = host.page
    page.locator("details[data-message=record_death] summary").click()
    host.choose("#record_death-noble", "eddard-stark")
    kinds = page.locator("#record_death-kind option").all_inner_texts()
    assert "justice" not in kinds and "battle" in kinds  # Eddard is no Outlaw
    host.choose("#record_death-kind", "battle")
    before = court(server.url, game.id)["game"]["version"]

    page.click("details[data-message=record_death] button[type=submit]")
    dialog = page.locator("dialog.confirm")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("cannot be undone")
    host.shot(shots, "death-confirmation")
    page.keyboard.press("Escape")  # cancel with the keyboard

    expect(dialog).to_have_count(0)
    assert court(server.url, game.id)["game"]["version"] == before
    page.click("details[data-message=record_death] button[type=submit]")
    page.click("#confirm-yes")
    expect(page.locator("#notice")).to_have_text("Done.")
    statuses = {n["id"]: n["status"] for h in game.view()["houses"] for n in h["nobles"]}
    assert statuses["eddard-stark"] == "dead"
    assert host.errors == []


def test_a_refusal_shows_next_to_the_form_that_sent_it(chromium: Any, server: LiveServer) -> None:
    game, host = _host(chromium, server)
    page = host.page
    page.locator("details[data-message=record_gold] summary").click()
    host.choose("#record_gold-house", "tyrell")
    page.fill("#record_gold-amount", "-900")

    host.send("details[data-message=record_gold] button[type=submit]")

    status = page.locator("#record_gold-status")
    expect(status).to_be_visible()
    expect(status).to_contain_text("below zero")
    expect(status).to_contain_text("Error")
    page.click("#map-submit")  # no change picked on the map
    expect(page.locator("#record_villages-status")).to_contain_text("nothing to record")
    assert game.view()["game"]["version"] == court(server.url, game.id)["game"]["version"]


def test_a_quiet_round_takes_two_clicks_of_the_host(chromium: Any, server: LiveServer) -> None:
    """R-4.1: cards, then movement to the end of the round at once."""
    game, host = _host(chromium, server)
    clicks = 0
    for _ in range(10):
        view = game.settle()
        if view["game"]["round"] == 2:
            break
        wait_version(host, view["game"]["version"])
        wide = host.page.locator("#move-close_table_phases")
        host.send("#move-close_table_phases" if wide.count() else "#move-advance_phase")
        clicks += 1
    assert court(server.url, game.id)["game"]["round"] == 2
    assert clicks == 2
    assert host.errors == []


def test_a_village_waiting_for_one_house_goes_to_the_next_house_picked(
    chromium: Any, server: LiveServer
) -> None:
    _, host = _host(chromium, server)
    page = host.page
    # Given Winterfell waiting to go to Stark
    host.choose("#map-house", "stark")
    page.click("#village-winterfell")
    expect(page.locator("#map-changes li")).to_contain_text("House Stark")
    # When the host picks Lannister and clicks it again, it waits for Lannister instead
    host.choose("#map-house", "lannister")
    page.click("#village-winterfell")
    expect(page.locator("#map-changes li")).to_have_count(1)
    expect(page.locator("#map-changes li")).to_contain_text("House Lannister")
    # ... and a third click for the same House takes it back out
    page.click("#village-winterfell")
    expect(page.locator("#map-changes li")).to_have_count(0)


def test_each_sept_is_marked_on_its_own_village(chromium: Any, server: LiveServer) -> None:
    """The Sept's mark sits on its own village's circle: King's Landing's was drawn level with
    Duskendale's label, just before it, and read as Duskendale's."""
    game = HttpCourt(server.url)
    game.record_villages("lannister", ("kings-landing", "duskendale"))
    game.play("record_gold", {"house": "lannister", "amount": 10, "cause": "a toll"}, game.host)
    lannister = 1
    game.advance_until(lambda v: (v["purchases"] or {}).get("current") == lannister)
    game.play("build_sept", {"village": "kings-landing"}, game.tokens[lannister])
    host = open_seat(chromium, "host", f"{server.url}/games/{game.id}", game.id, game.host)
    game.phones.pages[0] = host.page
    mark = host.page.locator(".realm-map .sept")
    expect(mark).to_be_visible()
    on = mark.evaluate(
        """(mark) => {
          const m = mark.getBoundingClientRect();
          const c = mark.closest('g').querySelector('circle').getBoundingClientRect();
          const [x, y] = [m.left + m.width / 2, m.top + m.height / 2];
          return [mark.closest('g').querySelector('circle').dataset.village,
            x >= c.left && x <= c.right && y >= c.top && y <= c.bottom];
        }"""
    )
    assert on == ["kings-landing", True], on
