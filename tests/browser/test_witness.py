"""Pages witness the record they were shown (docs/disputes.md): a game rewritten in the database
with every hash after the change recomputed agrees with itself, so the server's own checks pass;
a page that saw the game before holds the hash of every version it checked, and when it is
opened again it names the first version that differs (found by halving with /chain pages) and
both hashes, and offers the server's signed checkpoints as evidence that `flask court verify
--witness` reads and names the same version. A record edited in place, its hash left alone, is
named by the history page whether it saw the game before or not, and no green "verified" shows
beside either failure. A checkpoint signed by no key the page kept, or a server signing with
another key than at the first visit, raises the banner too."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from app import create_app
from court.log.chain import canonical
from server.keys.signing import SigningKeys, key_id_of
from tests.browser.court_http import NORTH, HttpCourt
from tests.browser.players import Person, forge_signatures, open_person
from tests.live_server import LiveServer
from tests.server.tools.cli.court_shell import rewrite, tamper

# The version the tests change: a round's start, with a log that goes on past it.
CHANGED = 85


def kept(person: Person, game_id: str) -> dict[str, Any] | None:
    """What the page keeps on this device of the game: its newest version and hash seen."""
    text = person.page.evaluate(
        "(id) => localStorage.getItem('small-council.witness.' + id)", game_id
    )
    return None if text is None else json.loads(text)


def wait_kept(person: Person, game_id: str, version: int) -> dict[str, Any]:
    """The kept record once the page has checked the head at `version`."""
    person.page.wait_for_function(
        "([id, v]) => (JSON.parse(localStorage.getItem('small-council.witness.' + id)) || {})"
        ".version === v",
        arg=[game_id, version],
    )
    found = kept(person, game_id)
    assert found is not None
    return found


# How many versions the page holds the hashes of, from version 1 (static/lib/witness_store.js).
HELD = """(id) => new Promise((resolve) => {
  const req = indexedDB.open("small-council-witness", 1);
  req.onupgradeneeded = () => req.result.createObjectStore("chains");
  req.onsuccess = () => {
    const get = req.result.transaction("chains").objectStore("chains").get(id);
    get.onsuccess = () => resolve(get.result ?? 0);
  };
})"""


def wait_held(person: Person, game_id: str, version: int) -> None:
    """Until the page has recomputed and holds every hash up to `version`."""
    deadline = time.monotonic() + 10
    while person.page.evaluate(HELD, game_id) < version:
        assert time.monotonic() < deadline, f"{person.name} never held version {version}"
        time.sleep(0.1)


def hash_at(game: HttpCourt, version: int) -> str:
    """The hash the server's record now has at `version`."""
    page = game._call("GET", f"/api/games/{game.id}/chain?from={version}&to={version}")
    found: str = page["records"][0]["hash"]
    return found


def played_past(server: LiveServer) -> tuple[HttpCourt, int]:
    """A game played into its third round, past version CHANGED, whose record CHANGED is the
    start of the third round; and its newest version."""
    game = HttpCourt(server.url)
    game.record_villages("stark", NORTH)
    game.advance_until(lambda view: view["game"]["round"] == 3)
    game.advance_until(lambda view: view["game"]["version"] > CHANGED + 2)
    records = game.records()
    assert records[CHANGED - 1]["type"] == "RoundStarted", records[CHANGED - 1]
    return game, len(records)


def banner_names(person: Person, version: int, problem: str) -> None:
    banner = person.page.locator("#witness")
    expect(banner).to_be_visible()
    expect(banner).to_have_attribute("data-version", str(version))
    expect(banner).to_have_attribute("data-problem", problem)


def no_green_badge(person: Person, version: int) -> None:
    """The history's badge tells the page's own failure, never "verified" beside it."""
    badge = person.page.locator("[data-testid=verification]")
    expect(badge).to_have_attribute("data-check", "witness")
    expect(badge).to_contain_text(f"changed at version {version}")
    expect(badge).not_to_contain_text("verified")


def test_a_rewritten_and_rehashed_game_is_caught_by_the_pages_that_saw_it(
    chromium: Any, tmp_path: Path
) -> None:
    db = tmp_path / "court.db"
    # Given a game past its third round's start, seen on a court page and on the history page
    with LiveServer(db, deadlines=False) as server:
        port, (game, first) = server.http.server_port, played_past(server)
        court_page = open_person(chromium, "ann", f"{server.url}/games/{game.id}")
        history_page = open_person(chromium, "ben", f"{server.url}/games/{game.id}/history")
        for person in (court_page, history_page):
            wait_kept(person, game.id, first)
            wait_held(person, game.id, first)
        # ... and played on while the court page watched: the page recomputed the hash of
        # every new record from the one it kept
        game.advance_until(lambda view: view["game"]["version"] > first)
        version, seen_hash = server.head(game.id)
        assert version > first
        assert wait_kept(court_page, game.id, version)["hash"] == seen_hash
        history_page.page.reload()
        assert wait_kept(history_page, game.id, version)["hash"] == seen_hash
        for person in (court_page, history_page):
            expect(person.page.locator("#witness")).to_be_hidden()
            assert not person.errors, person.errors
        seen_changed = hash_at(game, CHANGED)

    # When the start of the third round is rewritten in the database, every hash after it
    # recomputed, the server started again on it and the game played on
    rewrite(db, game.id, CHANGED, first_player=0)
    with LiveServer(db, deadlines=False, port=port) as server:
        server_changed = hash_at(game, CHANGED)
        assert server_changed != seen_changed
        # The log agrees with itself: the server's own deep check finds nothing wrong
        verified = game._call("GET", f"/api/games/{game.id}/verify")
        assert verified["ok"] is True, verified
        game.advance_until(lambda view: view["game"]["version"] > version)

        # Then both pages, opened again, name the first version changed and both its hashes
        for person in (court_page, history_page):
            person.reload_after_outage()
            banner_names(person, CHANGED, "rewritten")
            banner = person.page.locator("#witness")
            expect(banner).to_contain_text(f"{CHANGED} is the first that differs")
            expect(banner).to_contain_text(seen_changed)
            expect(banner).to_contain_text(server_changed)
            assert not person.errors, person.errors
            # What the page kept is not overwritten by the server's new story
            assert (kept(person, game.id) or {}).get("hash") == seen_hash
        no_green_badge(history_page, CHANGED)

        # And the evidence the page offers holds the server to what it signed before
        with court_page.page.expect_download() as download:
            court_page.page.get_by_role("button", name="Download the evidence").click()
        evidence = tmp_path / "evidence.json"
        download.value.save_as(evidence)
        saved = json.loads(evidence.read_text())
        assert saved["game_id"] == game.id and saved["version"] == CHANGED
        assert saved["held"][str(CHANGED)] == seen_changed
        assert first in {c["version"] for c in saved["checkpoints"]}

    verify = create_app({"DATABASE_URL": f"sqlite:///{db}", "DEADLINES": False})
    result = verify.test_cli_runner().invoke(
        args=["court", "verify", game.id, "--witness", str(evidence)]
    )
    assert result.exit_code == 1, result.output
    assert f"broken: version {CHANGED} is the first" in result.output


def edit_in_place(db: Path, game_id: str, version: int, **changes: object) -> None:
    """Change the public part of the record at `version` and nothing else: its hash stays."""
    with sqlite3.connect(db) as conn:
        (data,) = conn.execute(
            "SELECT data FROM event_records WHERE game_id = ? AND version = ?", (game_id, version)
        ).fetchone()
    conn.close()
    edited = canonical({**json.loads(data), **changes})
    tamper(
        db,
        (
            "UPDATE event_records SET data = ? WHERE game_id = ? AND version = ?",
            (edited, game_id, version),
        ),
    )


def test_a_record_edited_in_place_is_named_by_every_history_page(
    chromium: Any, tmp_path: Path
) -> None:
    db = tmp_path / "court.db"
    # Given a game past its third round's start whose history a page checked, and which the
    # server checked deeply too (it remembers where, and checks only what comes after)
    with LiveServer(db, deadlines=False) as server:
        game, head = played_past(server)
        seen = open_person(chromium, "ann", f"{server.url}/games/{game.id}/history")
        wait_held(seen, game.id, head)
        expect(seen.page.locator("[data-testid=verification]")).to_contain_text("verified")

        # When the start of the third round is edited in the database, no hash touched
        edit_in_place(db, game.id, CHANGED, first_player=0)
        # ... the server's check so far still passes: the edit is before where it checked
        assert game._call("GET", f"/api/games/{game.id}/verify")["ok"] is True

        # Then the page that saw the game, and one that never did, name that version, and
        # neither shows the server's green badge beside it
        fresh = open_person(chromium, "ben", f"{server.url}/games/{game.id}/history")
        seen.page.reload()
        for person in (seen, fresh):
            banner_names(person, CHANGED, "changed")
            no_green_badge(person, CHANGED)
            assert not person.errors, person.errors
        # ... and the court as it stood after it keeps the banner
        fresh.page.locator(f"#events li[data-version='{CHANGED + 1}'] button").click()
        expect(fresh.page.locator("#houses")).to_have_attribute("data-version", str(CHANGED + 1))
        banner_names(fresh, CHANGED, "changed")

    verify = create_app({"DATABASE_URL": f"sqlite:///{db}", "DEADLINES": False})
    result = verify.test_cli_runner().invoke(args=["court", "verify", game.id])
    assert result.exit_code == 1, result.output
    assert f"(version {CHANGED})" in result.output


def test_a_server_signing_with_another_key_or_a_forged_signature_raises_the_banner(
    chromium: Any, tmp_path: Path
) -> None:
    db = tmp_path / "court.db"
    first, second = (SigningKeys.random().text() for _ in range(2))
    # Given a court page that kept the server's key at its first visit
    with LiveServer(db, deadlines=False, settings={"SIGNING_KEY": first}) as server:
        port, game = server.http.server_port, HttpCourt(server.url)
        url = f"{server.url}/games/{game.id}"
        person = open_person(chromium, "ann", url)
        wait_kept(person, game.id, len(game.records()))
        person.page.wait_for_function("() => localStorage.getItem('small-council.witness-key')")
        # When a view's checkpoint comes with a signature the key did not make
        other = open_person(chromium, "ben", url)
        forge_signatures(other.page, game.id)
        other.page.goto(f"{url}/history")
        banner_names(other, len(game.records()), "signature")

    # When the server starts again signing with another key
    with LiveServer(db, deadlines=False, port=port, settings={"SIGNING_KEY": second}):
        person.page.reload()
        # Then the page names the key it kept and the one the server signs with now
        banner = person.page.locator("#witness")
        expect(banner).to_have_attribute("data-problem", "key")
        expect(banner).to_contain_text(key_id_of(SigningKeys.of(second, "test").public))


# A browser whose WebCrypto has no Ed25519, as older ones.
NO_ED25519 = """
const importKey = crypto.subtle.importKey.bind(crypto.subtle);
crypto.subtle.importKey = (format, key, algorithm, ...rest) =>
  algorithm?.name === "Ed25519"
    ? Promise.reject(new DOMException("Ed25519 is not supported", "NotSupportedError"))
    : importKey(format, key, algorithm, ...rest);
"""


def test_without_ed25519_in_webcrypto_the_page_checks_signatures_with_the_served_library(
    chromium: Any, server: LiveServer
) -> None:
    game = HttpCourt(server.url)
    person = open_person(chromium, "ann", "about:blank")
    person.context.add_init_script(NO_ED25519)
    person.page.goto(f"{server.url}/games/{game.id}/history")
    # The history's head checkpoint verifies with @noble/curves, served from node_modules
    badge = person.page.locator("[data-testid=verification]")
    expect(badge).to_contain_text("checked the server's signature of the head")
    expect(person.page.locator("#witness")).to_be_hidden()
    assert any("/vendor/noble-curves/ed25519.js" in url for _, url in person.requests)
    assert not person.errors, person.errors

    # ... and a checkpoint the key did not sign still raises the banner
    forge_signatures(person.page, game.id)
    person.page.reload()
    banner_names(person, len(game.records()), "signature")


def test_a_record_edited_in_place_is_named_by_the_game_page_whose_feed_shows_it(
    chromium: Any, tmp_path: Path
) -> None:
    db = tmp_path / "court.db"
    # Given a game whose page a device opened and checked to its head
    with LiveServer(db, deadlines=False) as server:
        game, head = played_past(server)
        assert head - CHANGED < 30  # the feed shows the newest 30 records (static/panels/feed.js)
        seen = open_person(chromium, "ann", f"{server.url}/games/{game.id}")
        wait_held(seen, game.id, head)
        expect(seen.page.locator(f"#feed [data-version='{CHANGED}']")).to_have_count(1)

        # When a record the feed shows is edited in the database, its hash left alone
        edit_in_place(db, game.id, CHANGED, first_player=0)

        # Then the game page, opened again, names that version as changed: the chain it
        # already holds is not checked again, the records its feed shows are
        seen.page.reload()
        banner_names(seen, CHANGED, "changed")
        assert not seen.errors, seen.errors
