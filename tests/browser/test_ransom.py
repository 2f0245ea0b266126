"""A ransom in the browser (R-8.2): the captive's player offers Gold Dragons and a captive he
holds through the action panel, the captor's player sees the open offer (his tab marked as on
his turn) and accepts it, and everyone sees both Nobles go home at once."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.browser.court_http import HttpCourt
from tests.browser.players import MARK, open_person, open_seat, wait_version
from tests.live_server import LiveServer

NOBLES = ("robb-stark", "tyrion-lannister")


def test_a_ransom_of_gold_and_a_captive_is_offered_and_accepted_in_the_browser(
    chromium: Any, server: LiveServer, shots: Path
) -> None:
    game = HttpCourt(server.url)
    game.settle()
    for captive, house in (("robb-stark", "lannister"), ("tyrion-lannister", "stark")):
        body = {"noble": captive, "house": house, "cause": "the Whispering Wood"}
        game.play("record_capture", body, game.host)
    version = game.view()["game"]["version"]
    url = f"{server.url}/games/{game.id}"
    stark = open_seat(chromium, "stark", url, game.id, game.tokens[0])
    lannister = open_seat(chromium, "lannister", url, game.id, game.tokens[1])
    spectator = open_person(chromium, "spectator", url)
    for person in (stark, lannister, spectator):
        wait_version(person, version)
    for noble in NOBLES:
        expect(spectator.page.locator(f"#noble-{noble}")).to_have_class(re.compile("captive"))

    form = stark.page.locator("form[data-message=offer_ransom]")
    expect(form).to_contain_text("Offer a ransom for one of your captives")
    stark.page.select_option("#offer_ransom-captive", value="robb-stark")
    stark.page.fill("#ransom-gold", "2")
    stark.page.check("#ransom-captive-tyrion-lannister")
    stark.send("#send-offer_ransom")
    offered = "2 GD and Tyrion Lannister for Robb Stark"
    for person in (stark, lannister, spectator):
        expect(person.page.locator("#moves-panel")).to_contain_text(offered)
    # The captor's tab is told an offer waits on him, as on his turn; no other tab is
    lannister.page.wait_for_function("mark => document.title.startsWith(mark)", arg=MARK)
    for person in (stark, spectator):
        assert not person.page.title().startswith(MARK), person.name
    stark.shot(shots, "01-ransom-offered")

    lannister.send("form[data-message=accept_ransom] button[type=submit]")
    for person in (stark, lannister, spectator):
        expect(person.page.locator("#feed")).to_contain_text("Ransom paid: Robb Stark goes home")
    for noble in NOBLES:
        expect(spectator.page.locator(f"#noble-{noble}")).to_have_class(re.compile("in_play"))
    spectator.shot(shots, "02-ransom-paid")
    for person in (stark, lannister, spectator):
        assert person.errors == [], (person.name, person.errors)
