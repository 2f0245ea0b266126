"""The seats take the host role over only from a host who has had no connection for the
profile's time, by a majority of the other seats, with several real clients: the host's
connections say whether he is present, and a vote of an earlier absence counts no more once he
came back."""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

import pytest
from flask import Flask

from tests.server.http.court_client import Game, bearer, create_game, join, lobby_game, start
from tests.server.live.live import NAMESPACE, connect, pushed, send


def game_with(app: Flask, takeover_after: int) -> Game:
    """A started game of Stark (the host's seat), Lannister and Tyrell whose seats may take
    the host role over after `takeover_after` seconds without the host."""
    client = app.test_client()
    game = lobby_game(client, host_role={"takeover_after": takeover_after})
    return replace(game, started=start(client, game))


def presences(client: Any) -> list[dict[str, Any]]:
    return [m["args"][0] for m in client.get_received(NAMESPACE) if m["name"] == "presence"]


def court(app: Flask, game: Game, token: str | None = None) -> dict[str, Any]:
    headers = bearer(token) if token else {}
    view: dict[str, Any] = app.test_client().get(f"/api/games/{game.id}", headers=headers).json
    return view


@pytest.fixture
def quick(app: Flask) -> Game:
    return game_with(app, 0)


def test_two_players_cannot_depose_a_host_who_is_connected(app: Flask, game: Game) -> None:
    """Given the host's page open, when Lannister and Tyrell both vote to make Tyrell host,
    then each vote is refused with `host_present` and Stark stays the host."""
    quick = game
    host = connect(app, quick, quick.host_token)
    lannister = connect(app, quick, quick.tokens["lannister"])
    tyrell = connect(app, quick, quick.tokens["tyrell"])
    version = court(app, quick)["game"]["version"]

    for client in (lannister, tyrell):
        ack = send(client, "vote_host", {"seat": quick.seats["tyrell"]})
        assert ack["ok"] is False and ack["code"] == "host_present", ack
        assert "host" in ack["message"]

    assert court(app, quick)["game"]["version"] == version
    assert court(app, quick, quick.host_token)["viewer"]["host"] is True
    assert presences(tyrell)[-1]["host_away_since"] is None
    host.disconnect(namespace=NAMESPACE)


def test_the_other_seats_take_the_role_over_after_the_host_left_for_the_profile_time(
    app: Flask,
) -> None:
    """Given a game whose seats may take over after 1 s, when the host closes his page, then
    the others are told since when he is away; a vote before the second is up is refused;
    after it Lannister's vote alone is not enough (1 of the 2 other seats), and Tyrell's makes
    Tyrell host: every client is pushed the takeover, naming both voters."""
    game = game_with(app, 1)
    host = connect(app, game, game.host_token)
    lannister = connect(app, game, game.tokens["lannister"])
    tyrell = connect(app, game, game.tokens["tyrell"])
    watcher = connect(app, game, None)
    for client in (lannister, tyrell, watcher):
        client.get_received(NAMESPACE)

    left = time.time()
    host.disconnect(namespace=NAMESPACE)

    away = presences(tyrell)[-1]["host_away_since"]
    assert away is not None and left - 1 <= away <= time.time()
    early = send(lannister, "vote_host", {"seat": game.seats["tyrell"]})
    assert early["code"] == "host_not_away_long", early
    deadline = time.monotonic() + 5
    while time.time() < away + 1.05 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert send(lannister, "vote_host", {"seat": game.seats["tyrell"]})["ok"] is True
    assert court(app, game, game.tokens["tyrell"])["viewer"]["host"] is False
    assert send(tyrell, "vote_host", {"seat": game.seats["tyrell"]})["ok"] is True

    for client in (lannister, tyrell, watcher):
        taken = [r for r in pushed(client) if r["type"] == "HostTakenOver"]
        assert len(taken) == 1, client
        data = taken[0]["data"]
        assert data["voters"] == sorted([game.seats["lannister"], game.seats["tyrell"]])
        assert data["seats"] == 2 and data["host_away_since"] == pytest.approx(away)
        assert "Player of lannister (House Lannister) and Player of tyrell" in taken[0]["text"]
    assert court(app, game, game.tokens["tyrell"])["viewer"]["host"] is True
    assert court(app, game, game.host_token)["viewer"] == {
        "seat": game.seats["stark"],
        "host": False,
        "role": "player",
        "holder": f"seat:{game.seats['stark']}",
        "handed_over": None,
    }


def test_a_vote_of_an_earlier_absence_counts_no_more_once_the_host_came_back(
    app: Flask, quick: Game
) -> None:
    lannister = connect(app, quick, quick.tokens["lannister"])
    tyrell = connect(app, quick, quick.tokens["tyrell"])
    to_tyrell = {"seat": quick.seats["tyrell"]}
    assert send(lannister, "vote_host", to_tyrell)["ok"] is True

    host = connect(app, quick, quick.host_token)
    assert send(tyrell, "vote_host", to_tyrell)["code"] == "host_present"
    host.disconnect(namespace=NAMESPACE)
    time.sleep(0.01)  # the new absence begins after Lannister's vote on any clock

    assert send(tyrell, "vote_host", to_tyrell)["ok"] is True
    assert court(app, quick, quick.tokens["tyrell"])["viewer"]["host"] is False
    assert send(lannister, "vote_host", to_tyrell)["ok"] is True
    assert court(app, quick, quick.tokens["tyrell"])["viewer"]["host"] is True


def test_a_creator_who_never_sat_is_present_through_his_host_connection(app: Flask) -> None:
    """Given a started game whose creator holds no seat, while his host page is open no vote
    is taken; once it is closed, two of the three seats make a new host."""
    client = app.test_client()
    created = create_game(client, host_role={"takeover_after": 0})
    tokens = {h: join(client, created["game_id"], h)["token"] for h in ("stark", "lannister")}
    tokens["tyrell"] = join(client, created["game_id"], "tyrell")["token"]
    game = Game(created["game_id"], created["host_token"], tokens, {"stark": 0, "lannister": 1})
    start(client, replace(game, seats={"stark": 0, "lannister": 1, "tyrell": 2}))
    host = connect(app, game, game.host_token)
    stark = connect(app, game, tokens["stark"])
    lannister = connect(app, game, tokens["lannister"])

    assert send(stark, "vote_host", {"seat": 1})["code"] == "host_present"
    host.disconnect(namespace=NAMESPACE)
    assert send(stark, "vote_host", {"seat": 1})["ok"] is True
    assert send(lannister, "vote_host", {"seat": 1})["ok"] is True

    taken = next(r for r in pushed(stark) if r["type"] == "HostTakenOver")["data"]
    assert taken["from_seat"] is None and taken["seats"] == 3 and taken["voters"] == [0, 1]
    assert court(app, game, tokens["lannister"])["viewer"]["host"] is True
