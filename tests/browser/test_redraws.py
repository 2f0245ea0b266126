"""The court page redraws what a push changed (static/lib/sections.js): each panel declares the
sections of the court view it reads, and a push redraws only the panels whose sections its
patch touched. A ballot placed (R-7.1) changes the election, not the map or the throne room:
their nodes stay the very nodes they were, with nothing in them changed."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.browser.court_http import HttpCourt
from tests.browser.players import WAIT_MS, Person, open_seat, wait_version
from tests.live_server import LiveServer

STARK, LANNISTER, TYRELL = 0, 1, 2
NORTH = ("winterfell", "white-harbor", "the-dreadfort", "moat-cailin")
LORDS = {STARK: "robb-stark", LANNISTER: "jaime-lannister"}
# Panels a ballot does not change: the map (the realm's villages) and the throne room.
UNTOUCHED = ("#map-panel", "#throne")

# Marks every element of each panel with a property of the page's own and watches each panel
# for any change at all; `redrawn()` then says which panels lost a marked node or changed.
WATCH = """panels => {
  window.watched = {};
  for (const selector of panels) {
    const root = document.querySelector(selector);
    const nodes = [...root.querySelectorAll("*")];
    for (const node of nodes) node.marked = true;
    const seen = { nodes, changes: 0 };
    new MutationObserver((list) => { seen.changes += list.length; })
      .observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
    window.watched[selector] = seen;
  }
}"""
REDRAWN = """() => Object.entries(window.watched)
  .filter(([, seen]) => seen.changes || seen.nodes.some((n) => !n.marked || !n.isConnected))
  .map(([selector]) => selector)"""


def ballot_stage(game: HttpCourt) -> dict[str, Any]:
    """The Warden of the North's election with Robb and Jaime standing: the ballots are next."""
    for village, house in zip(NORTH, ("stark", "stark", "lannister", "tyrell"), strict=True):
        game.play(
            "record_village", {"village": village, "house": house, "cause": "battle"}, game.host
        )
    view = game.advance_until(lambda view: (view["election"] or {}).get("id") == "warden-north")
    while view["election"]["stage"] == "candidacy":
        current = view["election"]["current"]
        stand = {"noble": LORDS[current]} if current in LORDS else None
        game.play("stand" if stand else "pass", stand or {}, game.tokens[current])
        view = game.view()
    return view


def drawn(person: Person) -> None:
    """Until the map is drawn (it loads its drawing first) and the ballot is offered."""
    expect(person.page.locator("#map-panel svg")).to_have_count(1, timeout=WAIT_MS)
    expect(person.page.locator("#throne")).not_to_be_empty()


def test_a_ballot_redraws_the_election_and_leaves_the_map_and_the_throne_alone(
    chromium: Any, server: LiveServer
) -> None:
    game = HttpCourt(server.url)
    view = ballot_stage(game)
    url = f"{server.url}/games/{game.id}"
    watcher = open_seat(chromium, "tyrell", url, game.id, game.tokens[TYRELL])
    drawn(watcher)
    wait_version(watcher, view["game"]["version"])
    watcher.page.evaluate(WATCH, list(UNTOUCHED))
    voter = view["election"]["current"]
    assert voter != TYRELL
    faces = watcher.page.locator("#election-panel .token.face-down")
    before = faces.count()

    game.play(
        "place_ballot",
        {"markers": [{"kind": "for", "candidate": LORDS[STARK]}]},
        game.tokens[voter],
    )

    wait_version(watcher, view["game"]["version"] + 1)
    expect(faces).to_have_count(before + 1)
    assert watcher.page.evaluate(REDRAWN) == []
    assert watcher.errors == []


def test_villages_recorded_redraw_the_map(chromium: Any, server: LiveServer) -> None:
    """The same watch sees a push that does change the map: the map is drawn anew."""
    game = HttpCourt(server.url)
    url = f"{server.url}/games/{game.id}"
    watcher = open_seat(chromium, "tyrell", url, game.id, game.tokens[TYRELL])
    drawn(watcher)
    version = game.view()["game"]["version"]
    wait_version(watcher, version)
    watcher.page.evaluate(WATCH, list(UNTOUCHED))

    game.record_villages("stark", ("winterfell",))

    wait_version(watcher, version + 1)
    watcher.page.wait_for_function(f"() => ({REDRAWN})().includes('#map-panel')")
    assert watcher.errors == []


# What the host was doing on his page: a fact's form open, a House chosen and an amount typed
# in it, the cursor in its cause with a word selected, the map as text open, the page scrolled.
DOING = """() => ({
  open: [...document.querySelectorAll("details[open]")].map((d) => d.dataset.message ?? d.id),
  house: document.getElementById("record_gold-house").value,
  amount: document.getElementById("record_gold-amount").value,
  cause: document.getElementById("record_gold-cause").value,
  focused: document.activeElement.id,
  selection: [document.activeElement.selectionStart, document.activeElement.selectionEnd],
  scrolled: Math.round(window.scrollY),
  same: document.getElementById("record_gold-cause").marked === true,
})"""


def test_a_push_keeps_the_focus_typed_text_selection_open_sections_and_scroll(
    chromium: Any, server: LiveServer
) -> None:
    game = HttpCourt(server.url)
    url = f"{server.url}/games/{game.id}"
    host = open_seat(chromium, "host", url, game.id, game.host)
    drawn(host)
    page = host.page
    page.locator("details[data-message=record_gold] summary").click()
    page.select_option("#record_gold-house", value='"lannister"')
    page.fill("#record_gold-amount", "7")
    page.locator("#map-text summary").click()
    cause = page.locator("#record_gold-cause")
    cause.fill("a bet at the table")
    cause.evaluate("el => { el.marked = true; el.focus(); el.setSelectionRange(2, 5); }")
    page.evaluate("window.scrollTo(0, 400)")
    before = page.evaluate(DOING)
    assert before["scrolled"] == 400 and set(before["open"]) >= {"record_gold", "map-text"}
    version = game.view()["game"]["version"]

    # A push that changes the map and the host's panel (Winterfell's holder is in its forms)
    game.record_villages("stark", ("winterfell",))

    wait_version(host, version + 1)
    expect(page.locator("#record_village-village")).to_contain_text("held by House Stark")
    assert page.evaluate(DOING) == before
    # The word selected is typed over, and the form sends what is shown, through the handlers
    # of the new draw
    page.keyboard.type("x")
    expect(cause).to_have_value("a x at the table")
    page.locator("details[data-message=record_gold] button[type=submit]").click()
    expect(page.locator("#notice")).to_contain_text("Done.")
    gold = [r for r in game.records() if r["type"] == "GoldAdjusted"]
    assert [(r["data"]["house"], r["data"]["amount"], r["data"]["cause"]) for r in gold] == [
        ("lannister", 7, "a x at the table")
    ]
    assert host.errors == []
