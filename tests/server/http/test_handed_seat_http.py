"""A seat the host hands to a new link keeps its old player's secrets from the new one, on every
HTTP path: the court view, the court at an older version, the records, the export and the talk
(R-7.1 step 3, R-4.6). The seat's own token, never handed, carries everything, as before."""

from __future__ import annotations

import json
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from tests.server.http.council_seat_sale import to_the_sale
from tests.server.http.court_client import Game, bearer, log_state
from tests.server.http.north_ballot import to_the_ballot
from tests.server.live.live import NAMESPACE, connect, send


def post(client: FlaskClient, game: Game, path: str, headers: dict, body: Any = None) -> Any:
    response = client.post(f"/api/games/{game.id}/{path}", json=body or {}, headers=headers)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def get(client: FlaskClient, path: str, token: str) -> Any:
    response = client.get(path, headers=bearer(token))
    assert response.status_code == 200, (path, response.get_json())
    return response.get_json()


def privates(client: FlaskClient, game: Game, token: str, kind: str) -> list[Any]:
    """The private parts of the records of a type as `token` is shown them: in /events, then
    in the export."""
    records = get(client, f"/api/games/{game.id}/events?limit=200", token)["records"]
    exported = client.get(f"/api/games/{game.id}/export", headers=bearer(token))
    lines = [json.loads(line) for line in exported.get_data(as_text=True).splitlines()]
    return [r["private"] for r in records + lines if r.get("type") == kind]


def said(app: Flask, game: Game, token: str, message: str, payload: dict[str, Any]) -> None:
    """A line said over Socket.IO, where talk is sent (docs/protocol.md)."""
    client = connect(app, game, token)
    ack = send(client, message, payload)
    client.disconnect(namespace=NAMESPACE)
    assert ack["ok"] is True, ack


def hand(client: FlaskClient, game: Game, house: str, name: str | None = "Eve") -> dict[str, Any]:
    body = {"seat": game.seats[house], **({"player_name": name} if name else {})}
    return post(client, game, "commands/hand_seat", game.host, body)


def test_a_replacement_link_opens_no_marker_kind_of_the_old_player(
    client: FlaskClient, game: Game
) -> None:
    to_the_ballot(client, game)
    ballot = {
        "markers": [
            {"kind": "for", "candidate": "jaime-lannister"},
            {"kind": "decoy", "candidate": "robb-stark"},
        ]
    }
    placed = post(client, game, "commands/place_ballot", game.auth("lannister"), ballot)
    own = get(client, f"/api/games/{game.id}", game.tokens["lannister"])
    assert {m["kind"] for m in own["election"]["my_markers"]} == {"for", "decoy"}

    handed = hand(client, game, "lannister")
    eve = handed["token"]

    view = get(client, f"/api/games/{game.id}", eve)
    assert view["viewer"]["seat"] == game.seats["lannister"]
    assert view["election"]["my_markers"] == []
    assert view["viewer"]["handed_over"] == {"at_version": handed["version"], "by": "host"}
    assert [p["seat"] for p in view["election"]["placed"]] == [game.seats["lannister"]]
    for version in range(placed["version"] - 1, handed["version"] + 1):
        old = get(client, f"/api/games/{game.id}/versions/{version}", eve)
        assert old["election"]["my_markers"] == [], version
    assert privates(client, game, eve, "BallotPlaced") == [None, None]
    stark = get(client, f"/api/games/{game.id}", game.tokens["stark"])
    assert stark["viewer"]["handed_over"] is None
    log_state(client, game.id)


def test_after_the_reveal_the_new_player_reads_the_markers_with_everyone(
    client: FlaskClient, game: Game
) -> None:
    to_the_ballot(client, game)
    ballot = {"markers": [{"kind": "for", "candidate": "jaime-lannister"}]}
    post(client, game, "commands/place_ballot", game.auth("lannister"), ballot)
    eve = hand(client, game, "lannister")["token"]
    stark = {"markers": [{"kind": "for", "candidate": "robb-stark"}]}
    post(client, game, "commands/place_ballot", game.auth("stark"), stark)

    records = get(client, f"/api/games/{game.id}/events?limit=200", eve)["records"]
    revealed = next(r for r in records if r["type"] == "BallotsRevealed")
    kinds = {(m["candidate"], m["kind"]) for m in revealed["data"]["markers"]}
    assert ("jaime-lannister", "for") in kinds


def test_a_replacement_link_reads_no_whisper_of_the_old_player(
    app: Flask, client: FlaskClient, game: Game
) -> None:
    """Whispers sent and received by the old player stay his and his partners'; the table talk
    and everything said after the hand-over reach the new player."""
    stark, lannister = game.seats["stark"], game.seats["lannister"]
    said(app, game, game.tokens["stark"], "whisper", {"to": lannister, "text": "Vote Robb"})
    said(app, game, game.tokens["lannister"], "whisper", {"to": stark, "text": "Never"})
    said(app, game, game.tokens["stark"], "say", {"text": "Winter is coming"})

    eve = hand(client, game, "lannister")["token"]
    said(app, game, eve, "whisper", {"to": stark, "text": "Hello"})

    lines = get(client, f"/api/games/{game.id}/talk", eve)["lines"]
    assert [line["text"] for line in lines] == ["Winter is coming", "Hello"]
    checks = get(client, f"/api/games/{game.id}/talk/verify", eve)
    assert checks["ok"] is True, checks
    exported = client.get(f"/api/games/{game.id}/export", headers=bearer(eve))
    text = exported.get_data(as_text=True)
    assert "Vote Robb" not in text and "Never" not in text and "Hello" in text
    partner = get(client, f"/api/games/{game.id}/talk", game.tokens["stark"])["lines"]
    assert [line["text"] for line in partner] == [
        "Vote Robb",
        "Never",
        "Winter is coming",
        "Hello",
    ]


def test_a_replacement_link_reads_no_sealed_bid_of_the_old_player(
    client: FlaskClient, game: Game
) -> None:
    """R-4.6: a bid's amount stays its bidder's until the reveal."""
    auction = to_the_sale(client, game)["auction"]
    assert game.seats["lannister"] in auction["waiting"]
    post(client, game, "commands/place_bid", game.auth("lannister"), {"amount": 3})
    own = privates(client, game, game.tokens["lannister"], "BidPlaced")
    assert [p["secret"]["amount"] for p in own] == [3, 3]

    eve = hand(client, game, "lannister")["token"]

    assert privates(client, game, eve, "BidPlaced") == [None, None]
