"""Every audience is told how a game ended, with several real clients (R-4.8, R-4.7, R-9.2):
a seat, another seat, the host without a seat, the game master and a spectator each hold, from
the pushes, a court view whose `ending` says who won, how and the standings, the same the HTTP
view gives them; `game.last_round` says from the start which round is the last."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from tests.server.http.court_client import Game
from tests.server.live.live import NORTH, connect, pages_of, seated_without_host, send, shown


def post(http: FlaskClient, game: Game, message: str, headers: Any, body: Any = None) -> None:
    answer = http.post(f"/api/games/{game.id}/commands/{message}", json=body or {}, headers=headers)
    assert answer.status_code == 200, answer.get_json()


def play_to_the_end(http: FlaskClient, game: Game) -> None:
    """Stark takes the North and buys Winterfell's Fief title (1 VP, the only VP at the table);
    the host closes the phases and every other player is done, up to the last round's check."""
    for village in NORTH:
        post(
            http,
            game,
            "record_village",
            game.host,
            {"village": village, "house": "stark", "cause": "b"},
        )
    house_of = {seat: house for house, seat in game.seats.items()}
    for _ in range(40):
        view = shown(http, game, None)
        if view["game"]["status"] == "ended":
            return
        auction, purchases = view["auction"], view["purchases"]
        if auction and auction["winner"] is None:
            post(http, game, "pass_bid", game.auth(house_of[auction["waiting"][0]]))
        elif purchases and purchases["current"] is not None:
            house = house_of[purchases["current"]]
            if house == "stark" and "fief-winterfell" not in view_titles(view):
                body = {"title": "fief-winterfell", "noble": "robb-stark"}
                post(http, game, "buy_fief_title", game.auth(house), body)
            post(http, game, "end_purchases", game.auth(house))
        else:
            post(http, game, "advance_phase", game.host)
    raise AssertionError("the game did not end")


def view_titles(view: dict[str, Any]) -> set[str]:
    return {t for h in view["houses"] for n in h["nobles"] for t in n["titles"]}


def test_every_audience_is_pushed_the_end_of_a_game_won_at_its_last_round(app: Flask) -> None:
    http = app.test_client()
    game = seated_without_host(http, last_round=1)
    pages = pages_of(app, game)
    for page in pages.values():
        assert page.court["game"]["last_round"] == 1 and page.court["ending"] is None

    play_to_the_end(http, game)

    for name, page in pages.items():
        page.read()
        ending = page.court["ending"]
        assert ending["how"] == "last_round" and ending["winners"] == [game.seats["stark"]], name
        assert ending["standings"][0] == {
            "seat": game.seats["stark"],
            "house": "stark",
            "player_name": "Player of stark",
            "vp": 1,
            "winner": True,
        }, name
        assert [s["vp"] for s in ending["standings"]] == [1, 0, 0], name
        assert "won with the most victory points" in ending["text"], name
        assert "R-" not in ending["text"], name
        assert page.court["moves"] == [], name
        assert page.court == shown(http, game, page.token), name


def test_every_audience_is_pushed_the_end_the_table_voted(app: Flask) -> None:
    """R-9.2: Lannister's and Tyrell's votes end the game: every audience's view says nobody
    won, by the table's vote, with every seat's standing."""
    http = app.test_client()
    game = seated_without_host(http)
    pages = pages_of(app, game)
    tyrell = connect(app, game, game.tokens["tyrell"])
    assert send(pages["lannister"].client, "vote_end", {})["ok"] is True
    assert send(tyrell, "vote_end", {})["ok"] is True
    for name, page in pages.items():
        page.read()
        ending = page.court["ending"]
        assert (ending["how"], ending["winners"]) == ("table", []), name
        assert len(ending["standings"]) == 3 and not any(s["winner"] for s in ending["standings"])
        assert ending["text"].startswith("The table voted to end the game in round 1"), name
        assert page.court == shown(http, game, page.token), name
