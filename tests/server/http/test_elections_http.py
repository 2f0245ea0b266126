"""A Warden election over HTTP: markers stay secret until the reveal; receipts check out
(R-7.1 step 3, R-7.4, section 10)."""

from __future__ import annotations

import hashlib
import json

from flask.testing import FlaskClient

from court.log.chain import Record, verify
from tests.server.http.court_client import Game, log_state
from tests.server.http.north_election import post, to_the_north_election


def test_a_warden_election_over_http_keeps_markers_secret_until_the_reveal(
    client: FlaskClient, game: Game
) -> None:
    to_the_north_election(client, game)
    post(client, game, "commands/stand", game.auth("lannister"), {"noble": "jaime-lannister"})
    post(client, game, "commands/pass", game.auth("tyrell"))
    post(client, game, "commands/stand", game.auth("stark"), {"noble": "robb-stark"})
    view = client.get(f"/api/games/{game.id}", headers=game.auth("stark")).get_json()
    assert view["election"]["stage"] == "ballot"
    assert {w["seat"]: w["votes"] for w in view["election"]["weights"]}[game.seats["stark"]] == 5

    # Stark is the only voter, so his placement is followed at once by the reveal.
    answer = post(
        client,
        game,
        "commands/place_ballot",
        game.auth("stark"),
        {
            "markers": [
                {"kind": "decoy", "candidate": "jaime-lannister"},
                {"kind": "for", "candidate": "robb-stark"},
            ]
        },
    )
    receipt = answer["receipt"]
    assert len(receipt["commitments"]) == 2
    for marker, commitment in zip(receipt["markers"], receipt["commitments"], strict=True):
        text = f"{marker['kind']}:{marker['candidate']}:{marker['salt']}"
        assert hashlib.sha256(text.encode()).hexdigest() == commitment

    # the placement record as another seat saw it in the history: no kinds, no salts
    history = client.get(
        f"/api/games/{game.id}/events?after=0&limit=200", headers=game.auth("lannister")
    ).get_json()["records"]
    placed = next(r for r in history if r["type"] == "BallotPlaced")
    assert placed["private"] is None
    assert "for" not in json.dumps(placed["data"]) and "decoy" not in json.dumps(placed["data"])
    assert placed["hash"] == receipt["record_hash"]

    # after the reveal, everyone can check every commitment from the exported log
    revealed = next(r for r in history if r["type"] == "BallotsRevealed")
    assert revealed["data"]["winner"] == "robb-stark"
    for m in revealed["data"]["markers"]:
        text = f"{m['kind']}:{m['candidate']}:{m['salt']}"
        assert hashlib.sha256(text.encode()).hexdigest() == m["commitment"]
    exported = client.get(f"/api/games/{game.id}/export").get_data(as_text=True)
    records = [Record.from_json(json.loads(line)) for line in exported.splitlines()]
    assert verify(records).ok
    post(client, game, "commands/accept_title", game.auth("stark"))
    court = client.get(f"/api/games/{game.id}").get_json()
    assert next(t for t in court["titles"] if t["id"] == "warden-north")["holder"] == "robb-stark"


def test_election_commands_out_of_turn_are_refused_and_change_nothing(
    client: FlaskClient, game: Game
) -> None:
    to_the_north_election(client, game)
    before = log_state(client, game.id)
    response = client.post(
        f"/api/games/{game.id}/commands/stand",
        json={"noble": "robb-stark"},
        headers=game.auth("stark"),
    )
    assert response.status_code == 409 and response.get_json()["code"] == "not_your_turn"
    response = client.post(
        f"/api/games/{game.id}/commands/place_ballot",
        json={"markers": [{"kind": "for", "candidate": "robb-stark"}]},
        headers=game.auth("lannister"),
    )
    assert response.status_code == 409 and response.get_json()["code"] == "wrong_step"
    response = client.post(f"/api/games/{game.id}/commands/pass")
    assert response.status_code == 401
    assert log_state(client, game.id) == before
