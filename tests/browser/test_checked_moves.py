"""Every page checks each move it shows against its player's keys before drawing it (docs/
disputes.md, "What your device's key proves"): the court page's feed holds a record back until
its check passed, the history marks a seat with no key "unsigned" as the court page does, and
"what changed" tells no change that a forged move made."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.browser.court_http import HttpCourt
from tests.browser.players import open_person
from tests.browser.to_the_ballot import NORTH
from tests.court.signing import Device
from tests.live_server import LiveServer
from tests.server.tools.cli.court_shell import Played, append_forged

LANNISTER, TYRELL = 1, 2
LANNISTER_PHONE = Device(43)

# Every state of the feed's lines the page ever drew, as [version, verdict, text].
WATCH_FEED = """
window.feedSeen = [];
new MutationObserver(() => {
  for (const li of document.querySelectorAll("#feed > li[data-version]"))
    window.feedSeen.push([li.dataset.version, li.dataset.verdict ?? null, li.textContent]);
}).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
"""


def forged_vote(game: HttpCourt, db: Path) -> int:
    """Lannister's seat keyed by his phone, then a vote of Lannister's for a new host inserted
    and re-hashed by whoever holds the database: its version."""
    game.play("add_device_key", {"public_key": LANNISTER_PHONE.public_key}, game.tokens[LANNISTER])
    played = Played(id=game.id, db=db, host_token=game.host, tokens={}, started=0, gold=(0, 0))
    vote = {"seat": LANNISTER, "for_seat": TYRELL, "at": None, "host_away_since": None}
    return append_forged(played, "HostVoteCast", vote, LANNISTER)


def test_the_feed_never_draws_a_forged_move_as_its_players(
    chromium: Any, server: LiveServer, tmp_path: Path
) -> None:
    """Given a forged move of Lannister's keyed seat at the head, when Tyrell opens the court
    page, then the feed draws that record only as "checking…" and then as failed, never with
    its sentence, and the banner names its version."""
    game = HttpCourt(server.url)
    forged = forged_vote(game, tmp_path / "court.db")
    tyrell = open_person(chromium, "tyrell", "about:blank")
    tyrell.context.add_init_script(
        f"sessionStorage.setItem('token:{game.id}', {game.tokens[TYRELL]!r})"
    )
    tyrell.context.add_init_script(WATCH_FEED)
    tyrell.page.goto(f"{server.url}/games/{game.id}")

    banner = tyrell.page.locator("#witness")
    expect(banner).to_have_attribute("data-version", str(forged))
    line = tyrell.page.locator(f"#feed > li[data-version='{forged}']")
    expect(line.locator("[data-testid=move-failed]")).to_be_visible()
    seen = tyrell.page.evaluate("window.feedSeen")
    drawn = {(verdict, text) for version, verdict, text in seen if version == str(forged)}
    assert drawn, "the feed drew the forged record's line"
    assert {verdict for verdict, _ in drawn} <= {"checking", "failed"}, drawn
    later = [v for v, verdict, _ in seen if verdict not in ("checking", "failed")]
    assert all(int(v) < forged for v in later), "nothing after the forgery drawn as believed"


def test_the_history_marks_an_unkeyed_seats_moves_unsigned(
    chromium: Any, server: LiveServer
) -> None:
    """A seat whose player keyed no device (an API client that signs nothing) plays, and the
    history marks its moves unsigned beside them, as the court page's feed does."""
    game = HttpCourt(server.url)
    game.record_villages("stark", NORTH[:1])
    history = open_person(chromium, "auditor", f"{server.url}/games/{game.id}/history")
    unsigned = history.page.locator("#events li[data-version] > [data-testid=unsigned]")
    expect(unsigned.first).to_be_visible()
    expect(history.page.locator("#witness")).to_be_hidden()
    assert not history.errors, history.errors


def test_what_changed_tells_nothing_a_forged_move_made(
    chromium: Any, server: LiveServer, tmp_path: Path
) -> None:
    """Given a forged move of Lannister's keyed seat at the head, when a reader compares the
    version before it with the head on the history page, then no change is told, the form
    names the version that cannot be believed, and so does the banner."""
    game = HttpCourt(server.url)
    forged = forged_vote(game, tmp_path / "court.db")
    history = open_person(chromium, "auditor", f"{server.url}/games/{game.id}/history")
    page = history.page
    expect(page.locator("#compare-to")).to_have_value(str(forged))
    page.fill("#compare-from", "1")
    page.click("#compare-form button[type=submit]")

    expect(page.locator("#compare-error")).to_contain_text(f"version {forged} cannot be believed")
    expect(page.locator("[data-testid=changes] li")).to_have_count(0)
    expect(page.locator("#witness")).to_have_attribute("data-version", str(forged))


# Every record of the game fed to a fresh fold of the players' keys, read from one source.
FOLD_FROM = """async ([gameId, source]) => {
  const { MoveChecks } = await import("/static/lib/witness_moves.js");
  const checks = new MoveChecks(gameId);
  const path =
    source === "chain"
      ? `/api/games/${gameId}/chain?from=1`
      : `/api/games/${gameId}/events?after=0&limit=200`;
  const { records } = await (await fetch(path)).json();
  const told = [];
  for (const record of records) {
    const problem = await checks.check(record);
    if (problem) told.push([record.version, problem]);
  }
  return { told, next: checks.next, marks: [...checks.marks.entries()] };
}"""


def test_a_move_is_judged_alike_from_the_chain_pages_and_the_event_pages(
    chromium: Any, server: LiveServer
) -> None:
    """Given Lannister's seat keyed by his phone, which then signs a move, when a page folds
    the log once from /chain (the records as hashed, the witness's way after a missed push)
    and once from /events (a push's or the history's way), then both believe every record and
    mark the same ones signed and unsigned."""
    game = HttpCourt(server.url)
    game.play("add_device_key", {"public_key": LANNISTER_PHONE.public_key}, game.tokens[LANNISTER])
    view = game.view()
    head = {"version": view["checkpoint"]["version"], "head": view["checkpoint"]["hash"]}
    second = Device(44)
    body = LANNISTER_PHONE.body(
        game.id, f"seat:{LANNISTER}", "add_device_key", {"public_key": second.public_key}, **head
    )
    game.send("add_device_key", body, game.tokens[LANNISTER])
    page = open_person(chromium, "auditor", f"{server.url}/games/{game.id}/history").page

    chain = page.evaluate(FOLD_FROM, [game.id, "chain"])
    events = page.evaluate(FOLD_FROM, [game.id, "events"])

    newest = game.view()["game"]["version"]
    assert events["told"] == [] and events["next"] == newest + 1, events
    assert chain == events
    assert "signed" in dict(chain["marks"]).values(), chain["marks"]


def test_a_record_the_fold_cannot_read_is_a_problem_not_a_silent_skip(
    chromium: Any, server: LiveServer
) -> None:
    """Given a signed move whose public part names no holder (a server sending a broken
    record), when the page folds it, then the fold tells a problem for that version rather
    than stepping past it in silence."""
    page = open_person(chromium, "auditor", f"{server.url}/").page
    found = page.evaluate(
        """async () => {
          const { MoveChecks } = await import("/static/lib/witness_moves.js");
          const checks = new MoveChecks("g1");
          const record = { version: 1, type: "MoveSigned", seat: 1, recorded_at: "t", data: {} };
          return { told: await checks.check(record), next: checks.next };
        }"""
    )
    assert found["told"].startswith("a record this page cannot read"), found
    assert found["next"] == 2
