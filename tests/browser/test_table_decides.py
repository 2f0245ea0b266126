"""The table decides together from its pages (docs/playing.md, "Playing at a distance"): four seats
play; one player's page closes, and the others vote from their pages to hand his seat to a new
link, shown to each of them until the new player opens it (the old link then opens no seat,
the new one does, its page says the table chose him, and its player says her name); the host
proposes a correction of a village he gave, picked from the history, a majority accepts from
their pages, and the history shows the record and the correction side by side; a vote to end
the game carries and every page shows at its top that nobody won, how the game ended and the
standings."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.browser.conftest import ROOT
from tests.browser.court_http import HttpCourt
from tests.browser.players import WAIT_MS, Person, confirm, connected, fits, open_person, open_seat
from tests.live_server import LiveServer

HOUSES = ("stark", "lannister", "tyrell", "martell")
STARK, LANNISTER, TYRELL, MARTELL = 0, 1, 2, 3


def panel(person: Person, shots: Path, name: str) -> None:
    """A picture of the panel, which stays inside the window; with SCREENSHOTS_TO_DOCS=1 also
    into docs/screenshots/ as table-<name>.png for the README."""
    fits(person)
    person.page.locator("#table-votes-panel").screenshot(path=str(shots / f"{name}.png"))
    if os.environ.get("SCREENSHOTS_TO_DOCS") == "1":
        docs = ROOT / "docs" / "screenshots" / f"table-{name}.png"
        person.page.locator("#table-votes-panel").screenshot(path=str(docs))


def test_the_table_replaces_a_gone_player_corrects_a_village_and_ends_the_game(
    chromium: Any, server: LiveServer, shots: Path
) -> None:
    game = HttpCourt(server.url, houses=HOUSES, table_votes={"replace_after": 0})
    url = f"{server.url}/games/{game.id}"
    village = "winterfell"
    given = game.play(
        "record_village", {"village": village, "house": "stark", "cause": "battle"}, game.host
    )
    host = open_seat(chromium, "host", url, game.id, game.host, width=1366)
    # Lannister plays on a phone in the dark theme; the others on a laptop.
    lannister = open_seat(
        chromium, "lannister", url, game.id, game.tokens[LANNISTER], width=390, color_scheme="dark"
    )
    tyrell = open_seat(chromium, "tyrell", url, game.id, game.tokens[TYRELL])
    martell = open_seat(chromium, "martell", url, game.id, game.tokens[MARTELL])
    for person, house in ((host, "Stark"), (lannister, "Lannister"), (tyrell, "Tyrell")):
        connected(person, f"(House {house})")
    connected(martell, "(House Martell)")
    # While everyone is connected, nobody is offered a replacement.
    expect(tyrell.page.locator(".vote-replace")).to_have_count(0)
    expect(tyrell.page.locator("#replace-votes")).to_contain_text("Every seat is connected")

    # A spectator, who has no vote, is shown no panel while nothing is under vote.
    watcher = open_person(chromium, "watcher", url)
    connected(watcher, "Connected as a spectator")
    expect(watcher.page.locator("#table-votes-panel")).to_be_hidden()

    # Martell's player goes away: the others see it and vote him out from their pages.
    martell.context.close()
    row = f"#replace-votes li[data-seat='{MARTELL}']"
    for person in (host, lannister, tyrell):
        expect(person.page.locator(row)).to_contain_text("has had no connection since")
    expect(watcher.page.locator("#table-votes-panel")).to_be_hidden()
    confirm(lannister, f"{row} .vote-replace")
    for person in (host, tyrell, watcher):
        expect(person.page.locator(row)).to_contain_text("1 of the 2 needed (Player of lannister")
    expect(watcher.page.locator(f"{row} .vote-replace")).to_have_count(0)
    watcher.context.close()
    expect(lannister.page.locator(f"{row} .vote-replace")).to_have_count(0)
    expect(lannister.page.locator(row)).to_contain_text("You voted to replace him")
    fits(lannister)
    panel(lannister, shots, "replace-vote-phone-dark")
    confirm(tyrell, f"{row} .vote-replace")
    link = tyrell.page.locator(f"#replaced-link-{MARTELL}")
    expect(link).to_be_visible()
    new_link = link.input_value()
    assert new_link.startswith(url) and game.tokens[MARTELL] not in new_link
    # The link shows to both seats that voted for it, Lannister's page too, and to no other;
    # the votes are spent (the seat's new player has not come yet, and with no time to wait
    # in this game it is shown gone again).
    expect(lannister.page.locator(f"#replaced-link-{MARTELL}")).to_have_value(new_link)
    expect(host.page.locator(f"#replaced-link-{MARTELL}")).to_have_count(0)
    for person in (host, lannister):
        expect(person.page.locator(row)).to_contain_text("0 of the 2 needed (nobody)")
    # ... and stays there when Lannister's page is opened again
    lannister.page.reload()
    expect(lannister.page.locator(f"#replaced-link-{MARTELL}")).to_have_value(new_link)
    fits(lannister)
    # The old link opens no seat any more; the new one opens Martell's, and says the table
    # chose its player
    old = open_seat(chromium, "old martell", url, game.id, game.tokens[MARTELL])
    connected(old, "Connected as a spectator")
    old.context.close()
    martell = open_person(chromium, "new martell", new_link)
    connected(martell, "(House Martell)")
    handed = martell.page.locator("#handed-over")
    expect(handed).to_have_attribute("data-by", "table")
    expect(handed).to_contain_text(
        "The table chose you: Player of lannister (House Lannister), Player of tyrell (House "
        "Tyrell) voted to hand this seat to your link"
    )
    expect(handed).not_to_contain_text("The host handed")
    # Her page asks her name first: until she says it, the seat counts for no vote.
    expect(martell.page.locator("#claim-seat")).to_contain_text("say your name")
    martell.page.fill("#claim-name", "Maud")
    martell.send("#claim-seat button[type=submit]")
    expect(martell.page.locator("#claim-seat")).to_have_count(0)
    expect(host.page.locator("#houses")).to_contain_text("Maud")
    for person in (host, lannister, tyrell):
        expect(person.page.locator(row)).to_have_count(0)
    # Once the new player has opened it, the link leaves the voters' pages
    for person in (lannister, tyrell):
        expect(person.page.locator(f"#replaced-link-{MARTELL}")).to_have_count(0)

    # The host proposes a correction of the village he gave, picked from the history.
    host.page.locator("#propose-correction summary").click()
    picker = host.page.locator("#correct-record")
    expect(picker.locator(f"option[value='{given['version']}']")).to_have_count(1)
    picker.select_option(str(given["version"]))
    host.page.select_option("#correct-house", "lannister")
    host.page.fill("#correct-cause", "I misread the board")
    confirm(host, "#propose-correction button[type=submit]")
    for person in (lannister, tyrell, martell):
        expect(person.page.locator("#open-correction")).to_contain_text(
            f"The host proposes to correct record #{given['version']}. Winterfell: the record "
            "says House Stark holds it; the correction says House Lannister holds it"
        )
    expect(host.page.locator("#accept-correction")).to_have_count(0)  # proposing is accepting
    panel(host, shots, "correction-host-laptop")
    panel(lannister, shots, "correction-phone-dark")
    confirm(tyrell, "#refuse-correction")
    expect(lannister.page.locator("#open-correction")).to_contain_text(
        "refused by Player of tyrell"
    )
    confirm(lannister, "#accept-correction")
    expect(martell.page.locator("#open-correction")).to_contain_text("Player of lannister")
    confirm(martell, "#accept-correction")
    for person in (host, lannister, tyrell, martell):
        expect(person.page.locator("#open-correction")).to_have_count(0)
        expect(person.page.locator("#corrections-made")).to_contain_text("Lannister holds it")
    assert {v["id"]: v["controller"] for r in game.view()["regions"] for v in r["villages"]}[
        village
    ] == "lannister"

    # The history shows the record as it was, and the correction beside it.
    history = open_person(chromium, "reader", f"{url}/history")
    original = history.page.locator(f"#events li[data-version='{given['version']}']")
    expect(original).to_contain_text("Stark", timeout=WAIT_MS)
    expect(original.locator(".correction-note")).to_contain_text("Corrected by #")
    made = int(original.get_attribute("data-corrected-by") or 0)
    correction = history.page.locator(f"#events li[data-version='{made}']")
    expect(correction).to_contain_text("was corrected")
    expect(correction.locator(".correction-note")).to_contain_text(
        f"Corrects #{given['version']}, which stays as recorded"
    )
    history.page.fill("#compare-from", str(made - 1))
    history.page.fill("#compare-to", str(made + 1))
    history.page.locator("#compare-form button[type=submit]").click()
    expect(history.page.locator("#changes li[data-kind='correction']")).to_contain_text(
        "Lannister holds it"
    )

    # A majority of the four seats ends the game: every page shows the recorded result.
    confirm(lannister, "#vote-end")
    expect(host.page.locator("#end-vote")).to_contain_text("1 of the 3 needed (Player of lannister")
    confirm(martell, "#vote-end")
    expect(tyrell.page.locator("#end-vote")).to_contain_text("2 of the 3 needed")
    confirm(tyrell, "#vote-end")
    for person in (host, lannister, tyrell, martell):
        ended = person.page.locator("[data-testid=ending]")
        expect(ended).to_contain_text("The game is over: Nobody won. Ended by the table's vote.")
        expect(ended).to_contain_text("The table voted to end the game in round 1: nobody won.")
        expect(ended.locator("[data-testid=standings] li")).to_have_count(4)
        expect(person.page.locator("[data-testid=status]").first).to_contain_text("ended")
        expect(person.page.locator("#vote-end")).to_have_count(0)
        expect(person.page.locator("#table-votes-panel")).to_be_hidden()
    assert game.view()["game"]["status"] == "ended"
    fits(lannister)
    lannister.page.locator("#ending").screenshot(path=str(shots / "ended-phone-dark.png"))
    history.shot(shots, "history-correction")
    for person in (host, lannister, tyrell, martell, history):
        assert not person.errors, (person.name, person.errors)
