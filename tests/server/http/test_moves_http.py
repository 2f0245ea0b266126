"""Every court view says whose turn it is and what the viewer can do now (R-4.2)."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.server.http.court_client import lobby_game


def turn_moves(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The moves of a turn: a vote to end the game is every seat's all game long."""
    return [m for m in view["moves"] if m["message"] != "vote_end"]


def test_the_view_lists_the_moves_of_the_seat_whose_turn_it_is_and_no_one_else(
    client: FlaskClient,
) -> None:
    game = lobby_game(client)
    assert (
        client.post(f"/api/games/{game.id}/commands/start", json={}, headers=game.host).status_code
        == 200
    )
    stark = client.get(f"/api/games/{game.id}", headers=game.auth("stark")).get_json()
    assert stark["decree"]["step"] == "marriages" and stark["decree"]["current"] == 0
    messages = {m["message"] for m in turn_moves(stark)}
    assert {"pass", "propose_marriage"} <= messages
    proposal = next(m for m in stark["moves"] if m["message"] == "propose_marriage")
    assert set(proposal["payload"]) == {"noble", "to"}
    for viewer in (game.auth("lannister"), {}):
        other = client.get(f"/api/games/{game.id}", headers=viewer).get_json()
        assert turn_moves(other) == []
    # a listed move is accepted as listed
    response = client.post(
        f"/api/games/{game.id}/commands/propose_marriage",
        json=proposal["payload"],
        headers=game.auth("stark"),
    )
    assert response.status_code == 200, response.get_json()
    lannister = client.get(f"/api/games/{game.id}", headers=game.auth("lannister")).get_json()
    assert {m["message"] for m in turn_moves(lannister)} == {"answer_marriage"}
