"""A person's key over Socket.IO: a device that took a seat through the key plays it with the
key's own link; once the key is revoked or renewed, every connection of that link is told
`seat_ended` at once and its next command is refused with `bad_token`, while the seat's owner
plays on; every other connection is told that the link opens nothing, and nothing more."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from tests.server.http.court_client import Game, bearer, log_state
from tests.server.live.live import NAMESPACE, connect, pushed, send

MINE = "/api/keys/mine"


def names(client: Any) -> list[tuple[str, Any]]:
    return [(m["name"], m["args"][0]) for m in client.get_received(NAMESPACE)]


@pytest.mark.parametrize("how", ["revoke", "renew"])
def test_a_thief_s_connection_through_a_key_ends_when_the_key_is_revoked_or_renewed(
    app: Flask, game: Game, how: str
) -> None:
    """Given Lannister's player with a key of her seat, a thief who opened its link and plays
    the seat on two connections, her own connection and a spectator's, when she revokes the key
    (or makes a new one), then both of the thief's connections are told `seat_ended`, watch as
    spectators and are refused (`bad_token`) on every message; hers plays on; the spectator is
    told, in the history's words, that the link opens nothing now."""
    http = app.test_client()
    seat = game.seats["lannister"]
    made = http.post(
        "/api/keys", json={"seats": [{"game_id": game.id, "token": game.tokens["lannister"]}]}
    )
    assert made.status_code == 201, made.get_json()
    link = http.get(MINE, headers=bearer(made.get_json()["key"])).get_json()["seats"][0]["token"]
    thieves = [connect(app, game, link) for _ in range(2)]
    owner = connect(app, game, game.tokens["lannister"])
    watcher = connect(app, game, None)
    for thief in thieves:
        welcome = next(a for n, a in names(thief) if n == "welcome")
        assert welcome["court"]["viewer"]["seat"] == seat
    assert send(thieves[0], "vote_end", {"end": True})["ok"] is True  # the link plays the seat
    assert send(thieves[0], "vote_end", {"end": False})["ok"] is True
    for client in (*thieves, owner, watcher):
        client.get_received(NAMESPACE)

    if how == "revoke":
        done = http.delete(MINE, headers=bearer(made.get_json()["maker"]))
    else:
        done = http.post(
            "/api/keys", json={"seats": [{"game_id": game.id, "token": game.tokens["lannister"]}]}
        )
    assert done.status_code in (200, 201), done.get_json()

    for thief in thieves:
        ended = [a for n, a in names(thief) if n == "seat_ended"]
        assert ended and ended[0]["seat"] == seat and "spectator" in ended[0]["message"]
        for message, payload in (
            ("vote_end", {"end": True}),
            ("pass", {}),
            ("sync", {"last_version": 1}),
        ):
            assert send(thief, message, payload)["code"] == "bad_token", message
    assert [n for n, _ in names(owner) if n == "seat_ended"] == []
    assert send(owner, "vote_end", {"end": True})["ok"] is True
    dropped = [r for r in pushed(watcher) if r["type"] == "SeatLinkDropped"]
    assert len(dropped) == 1 and dropped[0]["private"] is None
    assert dropped[0]["text"].startswith("Player of lannister's seat (House Lannister): link 1")
    refused = http.get(f"/api/games/{game.id}", headers=bearer(link))
    assert refused.status_code == 401 and refused.get_json()["code"] == "bad_token"
    log_state(http, game.id)  # the audit of the whole log accepts the links
