"""The court page names moves and phases as the server does: a move's label comes from the
catalogue's labels (server/messages/labels.py) with the page, a phase's name from the court
view's `game.phases` (court/sentences/names.py, R-4.1); the page keeps no table of its own, so
a name the server changes is the name the player reads."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from court.views.court import PHASE_NAMES
from server.messages.labels import LABELS
from tests.browser.court_http import HttpCourt
from tests.browser.players import open_seat
from tests.live_server import LiveServer


def test_a_label_and_a_phase_name_the_server_changes_show_on_the_page(
    chromium: Any, server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(LABELS, "pass", "Let this decree go by")
    monkeypatch.setitem(PHASE_NAMES, "decrees", "1. The King's decrees, then elections")
    game = HttpCourt(server.url)
    current = game.view()["decree"]["current"]
    url = f"{server.url}/games/{game.id}"

    person = open_seat(chromium, "decreeing", url, game.id, game.tokens[current])

    expect(person.page.locator("#move-pass")).to_have_text("Let this decree go by")
    expect(person.page.locator("[data-testid=phase]")).to_have_text(
        "1. The King's decrees, then elections"
    )
    assert person.errors == []


def test_the_history_names_each_phase_as_the_court_view_does(
    chromium: Any, server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(PHASE_NAMES, "decrees", "1. The King's decrees, then elections")
    game = HttpCourt(server.url)

    person = open_seat(
        chromium, "host", f"{server.url}/games/{game.id}/history", game.id, game.host
    )

    expect(person.page.locator(".round-mark").last).to_have_text(
        "Round 1 · 1. The King's decrees, then elections"
    )
    assert person.errors == []
