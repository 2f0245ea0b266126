"""Corrections through the HTTP API (R-9.1): a death corrected mid-ballot gives the candidacy
back, so the votes on him count (R-7.2); an acceptance that would break the court's rules (two
Heirs, R-3.9) is not listed in `moves` and is refused with the rule's code, never as an engine
defect; a record that is no fact is named for what it is."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from tests.server.http.court_client import Game, error_body, next_round
from tests.server.http.north_election import post

NORTH = ("winterfell", "white-harbor", "the-dreadfort", "moat-cailin")


def view(client: FlaskClient, game: Game, house: str | None = None) -> dict[str, Any]:
    headers = game.auth(house) if house else {}
    body: dict[str, Any] = client.get(f"/api/games/{game.id}", headers=headers).get_json()
    return body


def history(client: FlaskClient, game: Game) -> list[dict[str, Any]]:
    """Every entry of the game's history, page after page."""
    found: list[dict[str, Any]] = []
    after: int | None = 0
    while after is not None:
        page = client.get(f"/api/games/{game.id}/history?after={after}&limit=200").get_json()
        found += page["entries"]
        after = page["next_after"]
    return found


def last_of(client: FlaskClient, game: Game, kind: str, **data: object) -> dict[str, Any]:
    """The last history entry of this type whose data holds these fields."""
    found = [
        e
        for e in history(client, game)
        if e["type"] == kind and all(e["data"].get(k) == v for k, v in data.items())
    ]
    assert found, kind
    return found[-1]


def answers(client: FlaskClient, game: Game, house: str) -> list[dict[str, Any]]:
    return [
        m["payload"]
        for m in view(client, game, house)["moves"]
        if m["message"] == "answer_correction"
    ]


def fact(client: FlaskClient, game: Game, message: str, body: dict[str, Any]) -> None:
    post(client, game, f"commands/{message}", game.host, {**body, "cause": "at the table"})


def head(app: Flask, game: Game) -> tuple[int, str] | None:
    return app.extensions["court_store"].head(game.id)


def test_a_death_corrected_mid_ballot_lets_the_votes_on_him_count(
    client: FlaskClient, game: Game
) -> None:
    """R-9.1, R-7.2: Lannister's 4 votes are on Kevan when his death is recorded (he is
    withdrawn); 2 of 3 seats accept its correction, so Kevan stands again and the reveal
    elects him, not Bran with Stark's 1 vote."""
    for village, house in zip(NORTH, ("lannister", "lannister", "lannister", "stark"), strict=True):
        fact(client, game, "record_village", {"village": village, "house": house})
    next_round(client, game)
    post(client, game, "commands/stand", game.auth("lannister"), {"noble": "kevan-lannister"})
    post(client, game, "commands/pass", game.auth("tyrell"))
    post(client, game, "commands/stand", game.auth("stark"), {"noble": "bran-stark"})
    markers = [{"kind": "for", "candidate": "kevan-lannister"}]
    post(client, game, "commands/place_ballot", game.auth("lannister"), {"markers": markers})
    fact(client, game, "record_death", {"noble": "kevan-lannister", "kind": "battle"})
    death = last_of(client, game, "NobleDied", noble="kevan-lannister")["version"]

    post(client, game, "commands/propose_correction", game.host, {"version": death, "cause": "x"})
    assert {"accept": True} in answers(client, game, "tyrell")
    post(client, game, "commands/answer_correction", game.auth("tyrell"), {"accept": True})
    election = view(client, game)["election"]
    assert election["withdrawn"] == [], election

    markers = [{"kind": "for", "candidate": "bran-stark"}]
    post(client, game, "commands/place_ballot", game.auth("stark"), {"markers": markers})
    revealed = last_of(client, game, "BallotsRevealed")
    assert revealed["data"]["winner"] == "kevan-lannister", revealed


def test_an_acceptance_that_would_make_two_heirs_is_not_listed_and_is_refused_with_the_rule(
    app: Flask, client: FlaskClient, game: Game
) -> None:
    """R-9.1, R-3.9: the host proposes to correct the death of Bran, the Heir; Benjen is born
    Heir meanwhile. Tyrell's acceptance would decide it: it is not among his moves, and sent
    anyway it is refused 409 with the rule's code and R-3.9 named, never `engine_defect`;
    nothing is stored. Refusing is still listed."""
    fact(client, game, "heir_born", {"noble": "bran-stark"})
    fact(client, game, "record_death", {"noble": "bran-stark", "kind": "battle"})
    death = last_of(client, game, "NobleDied", noble="bran-stark")["version"]
    post(client, game, "commands/propose_correction", game.host, {"version": death, "cause": "x"})
    fact(client, game, "heir_born", {"noble": "benjen-stark"})

    assert answers(client, game, "tyrell") == [{"accept": False}]
    before = head(app, game)
    response = client.post(
        f"/api/games/{game.id}/commands/answer_correction",
        json={"accept": True},
        headers=game.auth("tyrell"),
    )
    body = error_body(response, 409, "correction_breaks_rules")
    assert "R-3.9" in body["message"], body
    assert head(app, game) == before


def test_the_first_record_is_named_as_the_games_creation(client: FlaskClient, game: Game) -> None:
    """R-9.1: record 1 exists; it is no fact the host recorded."""
    response = client.post(
        f"/api/games/{game.id}/commands/propose_correction",
        json={"version": 1, "cause": "x"},
        headers=game.host,
    )
    body = error_body(response, 409, "not_correctable")
    assert "Record 1" in body["message"] and "created a game" in body["message"], body
