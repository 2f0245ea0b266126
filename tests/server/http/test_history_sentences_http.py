"""GET /api/games/<id>/history: each record as one sentence about the court as it stood right
after it, in pages, with no private part."""

from __future__ import annotations

import json
import re

from flask.testing import FlaskClient

from tests.server.http.court_client import Game, pass_decrees
from tests.server.http.north_election import elect_robb, entries, post, to_the_north_election


def to_round_three(client: FlaskClient, game: Game) -> None:
    """The host closes phases; when the council seat is for sale, every bidder passes, and
    every player is done with his purchases (R-4.1, R-4.6)."""
    house_of = {seat: house for house, seat in game.seats.items()}
    for _ in range(40):
        view = client.get(f"/api/games/{game.id}").get_json()
        if view["game"]["round"] == 3:
            return
        if view["auction"] and view["auction"]["waiting"]:
            seat = view["auction"]["waiting"][0]
            post(client, game, "commands/pass_bid", game.auth(house_of[seat]))
        elif view["purchases"] and view["purchases"]["current"] is not None:
            post(
                client,
                game,
                "commands/end_purchases",
                game.auth(house_of[view["purchases"]["current"]]),
            )
        elif view["decree"] and view["decree"]["current"] is not None:
            post(client, game, "commands/pass", game.auth(house_of[view["decree"]["current"]]))
        else:
            post(client, game, "commands/advance_phase", game.host)
    raise AssertionError("round 3 did not begin")


def test_a_reveal_reads_the_round_it_happened_in_after_later_rounds(
    client: FlaskClient, game: Game
) -> None:
    elect_robb(client, game)
    to_round_three(client, game)
    assert client.get(f"/api/games/{game.id}").get_json()["game"]["round"] == 3

    page = entries(client, game, limit=200)

    revealed = next(e for e in page["entries"] if e["type"] == "BallotsRevealed")
    assert revealed["text"] == "Round 2, Warden of the North: Robb Stark elected with 5 votes."
    assert revealed["round"] == 2 and revealed["phase"] == "decrees"
    assert revealed["data"]["winner"] == "robb-stark"
    created = page["entries"][0]
    assert created["version"] == 1 and created["text"] == "Eddard created a game for 3 players."


def test_pages_follow_one_another_to_the_head(client: FlaskClient, game: Game) -> None:
    head = entries(client, game)["version"]

    first = entries(client, game, after=0, limit=3)
    second = entries(client, game, after=first["next_after"], limit=200)

    assert [e["version"] for e in first["entries"]] == [1, 2, 3]
    assert first["next_after"] == 3
    assert [e["version"] for e in second["entries"]] == list(range(4, head + 1))
    assert second["next_after"] is None


def test_the_history_never_carries_a_private_part_or_a_marker_kind(
    client: FlaskClient, game: Game
) -> None:
    to_the_north_election(client, game)
    post(client, game, "commands/stand", game.auth("lannister"), {"noble": "jaime-lannister"})
    post(client, game, "commands/pass", game.auth("tyrell"))
    post(client, game, "commands/stand", game.auth("stark"), {"noble": "robb-stark"})
    # Give Lannister a vote so the ballot stays open after Stark's placement.
    view = client.get(f"/api/games/{game.id}").get_json()
    assert view["election"]["stage"] == "ballot"
    markers = [{"kind": "for", "candidate": "robb-stark"}]
    post(client, game, "commands/place_ballot", game.auth("stark"), {"markers": markers})

    for headers in ({}, game.auth("stark"), game.auth("lannister")):
        page = client.get(f"/api/games/{game.id}/history?limit=200", headers=headers).get_json()
        placed = next(e for e in page["entries"] if e["type"] == "BallotPlaced")
        assert "private" not in placed
        assert '"for"' not in json.dumps(placed)


def test_a_bad_token_is_refused(client: FlaskClient, game: Game) -> None:
    response = client.get(
        f"/api/games/{game.id}/history", headers={"Authorization": "Bearer forged"}
    )
    assert response.status_code == 401
    assert response.get_json()["code"] == "bad_token"


def test_every_record_of_a_round_with_a_marriage_reads_as_a_sentence(
    client: FlaskClient, lobby: Game
) -> None:
    started = client.post(f"/api/games/{lobby.id}/commands/start", json={}, headers=lobby.host)
    assert started.status_code == 200
    game = lobby
    body = {"noble": "robb-stark", "to": "margaery-tyrell"}
    post(client, game, "commands/propose_marriage", game.auth("stark"), body)
    post(client, game, "commands/answer_marriage", game.auth("tyrell"), {"accept": True})
    pass_decrees(client, game)

    texts = [e["text"] for e in entries(client, game, limit=200)["entries"]]

    generic = [t for t in texts if re.fullmatch(r"\w+ \(version \d+\)\.", t)]
    assert generic == []
    assert "Robb Stark married Margaery Tyrell." in texts
    assert any(t.startswith("Decree step 1.1.1 Marriages opened; turn order: ") for t in texts)
    assert any(
        t.startswith("Player of stark (House Stark) proposed a marriage of Robb Stark")
        for t in texts
    )


def test_the_events_page_also_reads_a_reveal_in_the_round_it_happened_in(
    client: FlaskClient, game: Game
) -> None:
    """/events and a reconnecting client's catch-up tell an old reveal with its own round."""
    elect_robb(client, game)
    to_round_three(client, game)

    page = client.get(f"/api/games/{game.id}/events?limit=200").get_json()

    revealed = next(r for r in page["records"] if r["type"] == "BallotsRevealed")
    assert revealed["text"] == "Round 2, Warden of the North: Robb Stark elected with 5 votes."
