"""A game master named at creation records facts without playing (section 9): his token
records facts, every fact names him in the history, and he can do nothing else."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from tests.server.http.court_client import bearer, error_body, lobby_game, logs, start


def test_a_game_master_named_at_creation_records_facts_attributed_to_him(
    client: FlaskClient, app: Flask
) -> None:
    """Section 9: the host or a named game master records facts; each names who recorded it."""
    game = lobby_game(client, game_master_name="Maester Aemon")
    created = client.get(f"/api/games/{game.id}").get_json()
    assert created["game"]["game_master_name"] == "Maester Aemon"
    version = start(client, game)
    master_token = game.game_master_token

    view = client.get(f"/api/games/{game.id}", headers=bearer(master_token)).get_json()
    recorded = client.post(
        f"/api/games/{game.id}/commands/record_gold",
        json={"house": "tyrell", "amount": 3, "cause": "card: a good harvest"},
        headers=bearer(master_token),
    )

    assert view["viewer"]["role"] == "game_master"
    assert recorded.status_code == 200, recorded.get_json()
    page = client.get(f"/api/games/{game.id}/events?after={version}").get_json()
    assert [r["text"] for r in page["records"]] == [
        "Maester Aemon, the game master, recorded a fact: gold.",
        "House Tyrell gained 3 Gold Dragons (card: a good harvest).",
    ]


def test_a_game_master_neither_plays_nor_runs_the_table(client: FlaskClient, app: Flask) -> None:
    """Section 9, R-4.1: the game master records facts only; seats and phases are not his."""
    game = lobby_game(client, houses=("stark", "lannister"), game_master_name="Maester Aemon")
    master = bearer(game.game_master_token)
    before = logs(app, client)

    seat = client.post(
        f"/api/games/{game.id}/commands/join",
        json={"house": "tyrell", "player_name": "Aemon"},
        headers=master,
    )
    begin = client.post(f"/api/games/{game.id}/commands/start", json={}, headers=master)

    error_body(seat, 403, "game_master_seat")
    error_body(begin, 403, "host_only")
    assert logs(app, client) == before


def test_without_a_game_master_no_token_is_handed_out(client: FlaskClient) -> None:
    created = client.post("/api/games", json={"players": 3, "host_name": "Eddard"}).get_json()
    assert created["game_master_token"] is None
    view = client.get(f"/api/games/{created['game_id']}").get_json()
    assert view["game"]["game_master_name"] is None
