"""The marriages step over Socket.IO: a proposal in turn order, an answer by the other
House, and every client told (R-4.2, R-5.1, R-5.3)."""

from __future__ import annotations

from flask import Flask

from tests.server.http.court_client import lobby_game
from tests.server.live.live import connect, pushed, send


def test_a_marriage_is_proposed_answered_and_pushed_to_everyone(app: Flask) -> None:
    http = app.test_client()
    game = lobby_game(http)
    assert (
        http.post(f"/api/games/{game.id}/commands/start", json={}, headers=game.host).status_code
        == 200
    )
    view = http.get(f"/api/games/{game.id}").get_json()
    assert view["decree"]["step"] == "marriages" and view["decree"]["current"] == 0
    stark = connect(app, game, game.tokens["stark"])
    lannister = connect(app, game, game.tokens["lannister"])
    spectator = connect(app, game, None)

    early = send(lannister, "propose_marriage", {"noble": "jaime-lannister", "to": "sansa-stark"})
    assert early["ok"] is False and early["code"] == "not_your_turn"
    assert send(stark, "propose_marriage", {"noble": "robb-stark", "to": "genna-lannister"})["ok"]
    assert send(lannister, "answer_marriage", {"accept": True})["ok"]

    made = next(r for r in pushed(spectator) if r["type"] == "MarriageMade")
    assert made["data"]["lord"] == "robb-stark" and made["data"]["alliance"] is False
    view = http.get(f"/api/games/{game.id}").get_json()
    assert view["decree"]["current"] == 1  # Stark's turn is over; Lannister's begins
    robb = next(n for h in view["houses"] for n in h["nobles"] if n["id"] == "robb-stark")
    assert robb["spouse"] == "genna-lannister"
