"""The front page asks little by default: the step deadlines fold away, the clocks' time banks
show only once Clocks is ticked, one box per duration, each showing the rules profile's value
it stands for when left empty (R-4.3); and the host who created a game finds his name already
in the form that takes a seat. A rules profile that cannot be used is left out of the form."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from server.service.profiles import Profiles
from tests.browser.players import court, join, open_person
from tests.config.operator_config import config_folder
from tests.live_server import LiveServer

STEPS = ("candidacy", "ballot", "decree", "title_choice", "purchase")


def test_the_create_form_shows_durations_only_when_asked_with_the_profiles_values(
    chromium: Any, server: LiveServer
) -> None:
    host = open_person(chromium, "host", server.url)
    page = host.page
    boxes = page.locator("#create .durations input")
    expect(page.locator("#create")).to_be_visible()
    assert [b.is_visible() for b in boxes.all()].count(True) == 0
    expect(page.locator("#clock-settings")).to_be_hidden()

    page.check("#variant-clocks")
    expect(page.locator("#clock-settings")).to_be_visible()
    clocks = page.locator("#clock-settings input")
    expect(clocks).to_have_count(len(STEPS) + 1)
    expect(page.locator("#clock-decree")).to_have_attribute("placeholder", "5:00")
    expect(page.locator("#clock-candidacy")).to_have_attribute("placeholder", "2:00")
    page.uncheck("#variant-clocks")
    expect(page.locator("#clock-settings")).to_be_hidden()

    page.locator("#deadline-settings summary").click()
    deadlines = page.locator("#deadline-settings input")
    expect(deadlines).to_have_count(len(STEPS))
    for step in STEPS:  # the default profile has no step deadline
        expect(page.locator(f"#deadline-{step}")).to_have_attribute("placeholder", "none")
    assert "the profile's;" not in page.locator("#create").inner_text()

    page.fill("#deadline-ballot", "1:75")
    page.fill("#host-name", "Ann")
    page.click("text=Create the game")
    expect(page.locator("#deadline-ballot:invalid")).to_have_count(1)
    page.fill("#deadline-ballot", "1:30")
    page.click("text=Create the game")
    page.wait_for_url("**/games/*")
    expect(page.locator("#join-name")).to_have_value("Ann")
    game = court(server.url, page.url.rsplit("/", 1)[-1])["game"]
    assert game["deadlines"]["ballot"] == 90 and game["deadlines"]["decree"] == 0
    assert host.errors == []


def test_the_create_form_offers_the_profiles_that_work_beside_one_that_does_not(
    chromium: Any, server: LiveServer, tmp_path: Path
) -> None:
    """An operator's profile with an old rule number is left out of the form; the host picks
    his own quick profile, sees its ballot deadline, and creates a game with it."""
    server.app.extensions["profiles"] = Profiles(config_dir=config_folder(tmp_path))
    host = open_person(chromium, "host", server.url)
    page = host.page

    expect(page.locator("#profile option")).to_have_text(["default", "quick"])
    page.select_option("#profile", "quick")
    page.locator("#deadline-settings summary").click()
    expect(page.locator("#deadline-ballot")).to_have_attribute("placeholder", "1:00")
    page.fill("#host-name", "Ann")
    page.click("text=Create the game")
    page.wait_for_url("**/games/*")

    game = court(server.url, page.url.rsplit("/", 1)[-1])["game"]
    assert game["profile"] == "quick" and game["deadlines"]["ballot"] == 60
    assert host.errors == []


def test_the_host_sets_the_vote_waiting_times_and_the_increment_in_the_create_form(
    chromium: Any, server: LiveServer
) -> None:
    """The waiting times before the table may vote a new host in or hand an absent player's
    seat on fold away with the deadlines, each showing the profile's value; what the host
    writes there, and the clocks' increment, are the game's, and the page shows the
    increment beside each player's time."""
    host = open_person(chromium, "host", server.url)
    page = host.page
    expect(page.locator("#vote-settings input")).to_have_count(2)
    expect(page.locator("#vote-takeover_after")).to_be_hidden()
    page.locator("#vote-settings summary").click()
    expect(page.locator("#vote-takeover_after")).to_have_attribute("placeholder", "10:00")
    expect(page.locator("#vote-replace_after")).to_have_attribute("placeholder", "15:00")
    page.fill("#vote-takeover_after", "2:00")
    page.fill("#vote-replace_after", "0")
    page.check("#variant-clocks")
    page.fill("#clock-decree", "5")
    page.fill("#clock-increment", "7")
    page.fill("#host-name", "Ann")
    page.click("text=Create the game")
    page.wait_for_url("**/games/*")

    view = court(server.url, page.url.rsplit("/", 1)[-1])
    assert view["host_role"]["takeover_after"] == 120
    assert view["table"]["replace_after"] == 0
    assert view["clocks"]["increment"] == 7 and view["clocks"]["banks"]["decree"] == 300
    join(host, "Ann", "stark")
    expect(page.locator("[data-testid=clock-increment-0]")).to_have_text(" · +7 s each move")
    assert host.errors == []


def test_the_night_s_watch_says_how_it_comes_into_play(chromium: Any, server: LiveServer) -> None:
    page = open_person(chromium, "host", server.url).page
    watch = page.get_by_role("checkbox", name="Night's Watch expansion")
    help_id = watch.get_attribute("aria-describedby")
    assert help_id, "the box names no description"
    told = page.locator(f"#{help_id}")
    expect(told).to_be_visible()
    for words in ("takes the black", "Lord Commander", "5 VP"):
        expect(told).to_contain_text(words)
