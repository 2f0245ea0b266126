"""Ballot secrets never reach the server's logs (R-7.1 step 3, secrets on every path)."""

from __future__ import annotations

import logging

import pytest
from flask import Flask

from app import create_app
from tests.databases import migrated
from tests.server.http.court_client import lobby_game, next_round, start
from tests.server.live.live import NORTH, connect, send


@pytest.fixture
def app(tmp_path) -> Flask:
    return create_app({"DATABASE_URL": migrated(tmp_path / "court.db"), "DEADLINES": False})


def test_a_whole_election_logs_no_kind_and_no_salt(app: Flask, caplog) -> None:
    caplog.set_level(logging.DEBUG)
    http = app.test_client()
    game = lobby_game(http)
    start(http, game)
    stark = connect(app, game, game.tokens["stark"])
    for village in NORTH:
        send(stark, "record_village", {"village": village, "house": "stark", "cause": "battle"})
    next_round(http, game)
    lannister = connect(app, game, game.tokens["lannister"])
    tyrell = connect(app, game, game.tokens["tyrell"])
    send(lannister, "pass")
    send(tyrell, "pass")
    send(stark, "stand", {"noble": "robb-stark"})
    ack = send(stark, "place_ballot", {"markers": [{"kind": "decoy", "candidate": "robb-stark"}]})
    bad = send(stark, "place_ballot", {"markers": [{"kind": "for", "candidate": "robb-stark"}]})
    assert ack["ok"] and not bad["ok"]
    salt = ack["receipt"]["markers"][0]["salt"]
    text = caplog.text
    assert salt not in text and "decoy" not in text
    assert game.tokens["stark"] not in text
