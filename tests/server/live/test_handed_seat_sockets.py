"""A seat handed to a new link over Socket.IO, with several real clients: the new player's
welcome, catch-up, `sync` and talk backlog hold nothing the seat held sealed before (R-7.1
step 3), while the seat's partner keeps his whispers and everyone reads the reveal."""

from __future__ import annotations

from typing import Any

from flask import Flask

from tests.server.http.court_client import Game
from tests.server.http.north_ballot import to_the_ballot
from tests.server.live.live import NAMESPACE, connect, pushed, send


def messages(client: Any, name: str) -> list[dict[str, Any]]:
    return [m["args"][0] for m in client.get_received(NAMESPACE) if m["name"] == name]


def test_a_new_player_connecting_is_sent_none_of_the_old_players_secrets(
    app: Flask, game: Game
) -> None:
    client = app.test_client()
    to_the_ballot(client, game)
    stark, lannister = game.seats["stark"], game.seats["lannister"]
    bob = connect(app, game, game.tokens["lannister"])
    ned = connect(app, game, game.tokens["stark"])
    host = connect(app, game, game.host_token)
    assert send(ned, "whisper", {"to": lannister, "text": "Vote Robb"})["ok"] is True
    assert send(bob, "whisper", {"to": stark, "text": "Never"})["ok"] is True
    markers = [
        {"kind": "for", "candidate": "jaime-lannister"},
        {"kind": "decoy", "candidate": "robb-stark"},
    ]
    placed = send(bob, "place_ballot", {"markers": markers})
    assert placed["ok"] is True
    assert {m["kind"] for m in placed["receipt"]["markers"]} == {"for", "decoy"}

    answer = send(host, "hand_seat", {"seat": lannister, "player_name": "Eve"})
    assert answer["ok"] is True, answer
    eve = connect(app, game, answer["token"], last_version=0)

    received = eve.get_received(NAMESPACE)
    welcome = next(m["args"][0] for m in received if m["name"] == "welcome")
    assert welcome["court"]["election"]["my_markers"] == []
    assert welcome["court"]["viewer"]["handed_over"]["by"] == "host"
    caught_up = [r for m in received if m["name"] == "events" for r in m["args"][0]["records"]]
    assert next(r for r in caught_up if r["type"] == "BallotPlaced")["private"] is None
    backlog = [m["args"][0] for m in received if m["name"] == "talk"]
    assert all(line["text"] not in ("Vote Robb", "Never") for b in backlog for line in b["lines"])
    page = send(eve, "sync", {"last_version": 0})
    assert next(r for r in page["records"] if r["type"] == "BallotPlaced")["private"] is None
    assert "decoy" not in str(received) + str(page)

    ned.get_received(NAMESPACE)
    assert send(ned, "place_ballot", {"markers": [{"kind": "for", "candidate": "robb-stark"}]})[
        "ok"
    ]
    revealed = next(r for r in pushed(eve) if r["type"] == "BallotsRevealed")
    kinds = {(m["candidate"], m["kind"]) for m in revealed["data"]["markers"] if m["seat"] == 1}
    assert ("robb-stark", "decoy") in kinds
    partner = app.test_client().get(f"/api/games/{game.id}/talk", headers=game.auth("stark"))
    assert [line["text"] for line in partner.get_json()["lines"]] == ["Vote Robb", "Never"]


def test_no_message_can_say_since_when_the_host_is_away(app: Flask, game: Game) -> None:
    lannister = connect(app, game, game.tokens["lannister"])

    ack = send(lannister, "vote_host", {"seat": game.seats["tyrell"], "host_away_since": 0})

    assert ack["ok"] is False and ack["code"] == "bad_request"
    assert "host_away_since" in ack["fields"]


def test_the_new_player_says_his_name_before_his_seat_counts_in_a_vote(
    app: Flask, game: Game
) -> None:
    """R-9.2: Lannister voted to end the game and his seat went to a new link: his vote is
    gone; the new player's own vote is refused (`seat_unclaimed`) until he says his name; then
    every client is told "Eve ... plays it now" and the seat's player is Eve, and her vote
    counts."""
    lannister = game.seats["lannister"]
    bob = connect(app, game, game.tokens["lannister"])
    host = connect(app, game, game.host_token)
    tyrell = connect(app, game, game.tokens["tyrell"])
    assert send(bob, "vote_end", {})["ok"] is True
    answer = send(host, "hand_seat", {"seat": lannister})
    assert answer["ok"] is True, answer
    view = app.test_client().get(f"/api/games/{game.id}").get_json()
    assert view["table"]["end"]["voters"] == [] and view["table"]["end"]["seats"] == 2
    newcomer = connect(app, game, answer["token"])

    early = send(newcomer, "vote_end", {})
    assert early["ok"] is False and early["code"] == "seat_unclaimed" and early["message"]
    blank = send(newcomer, "claim_seat", {"player_name": ""})
    assert blank["ok"] is False and blank["code"] == "bad_request", blank
    claimed = send(newcomer, "claim_seat", {"player_name": "Eve"})
    assert claimed["ok"] is True, claimed
    for client in (host, tyrell, newcomer):
        told = [r for r in pushed(client) if r["type"] == "SeatClaimed"]
        assert len(told) == 1 and "Eve opened the link" in told[0]["text"], client
    again = send(newcomer, "claim_seat", {"player_name": "Mallory"})
    assert again["code"] == "seat_claimed", again
    seats = app.test_client().get(f"/api/games/{game.id}").get_json()["seats"]
    eve = next(s for s in seats if s["seat"] == lannister)
    assert (eve["player_name"], eve["unclaimed"]) == ("Eve", False)
    assert send(newcomer, "vote_end", {})["ok"] is True
