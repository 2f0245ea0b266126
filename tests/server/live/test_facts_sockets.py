"""The host's recorded facts over Socket.IO: the host sends, every room reads the sentence;
a refused fact is acked with its code and pushes nothing (section 9, R-8.1, R-3.9)."""

from __future__ import annotations

from flask import Flask

from tests.server.http.court_client import Game, log_state
from tests.server.live.live import NAMESPACE, connect, pushed, send


def test_the_host_records_a_capture_and_every_player_reads_it(app: Flask, game: Game) -> None:
    """R-8.1: a capture is a recorded fact, pushed to every room as a sentence."""
    host = connect(app, game, game.host_token)
    tyrell = connect(app, game, game.tokens["tyrell"])
    for client in (host, tyrell):
        client.get_received(NAMESPACE)  # the welcome

    ack = send(
        host,
        "record_capture",
        {"noble": "robb-stark", "house": "lannister", "cause": "Green Fork"},
    )

    assert ack["ok"] is True and ack["version"] == game.started + 2
    attribution, record = pushed(tyrell)
    assert attribution["text"] == "Eddard, the host, recorded a fact: capture."
    assert record["type"] == "NobleCaptured"
    assert record["text"] == "Robb Stark was taken captive by House Lannister (Green Fork)."


def test_a_refused_fact_is_acked_with_its_code_and_pushes_nothing(app: Flask, game: Game) -> None:
    """R-8.1: only a captive escapes; R-3.9: the Heir is a Lord."""
    host = connect(app, game, game.host_token)
    host.get_received(NAMESPACE)  # the welcome
    before = log_state(app.test_client(), game.id)

    escape = send(host, "record_escape", {"noble": "robb-stark", "cause": "x"})
    heir = send(host, "heir_born", {"noble": "sansa-stark", "cause": "x"})
    player = send(
        connect(app, game, game.tokens["lannister"]),
        "heir_born",
        {"noble": "bran-stark", "cause": "x"},
    )

    assert (escape["ok"], escape["code"]) == (False, "not_captive")
    assert (heir["ok"], heir["code"]) == (False, "not_a_lord")
    assert (player["ok"], player["code"]) == (False, "host_only")
    assert pushed(host) == []
    assert log_state(app.test_client(), game.id) == before
