"""The host's recorded facts of a Noble's life over HTTP, end to end: accepted facts change the
court and read as sentences naming the host; refused ones leave the log as it was (section 9,
R-1.2, R-6.5, R-8.1)."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from tests.server.http.court_client import Game, error_body, logs


def post(client: FlaskClient, game: Game, path: str, body: dict, headers: dict | None = None):
    return client.post(
        f"/api/games/{game.id}/{path}", json=body, headers=game.host if headers is None else headers
    )


def noble_of(client: FlaskClient, game: Game, noble: str) -> dict[str, Any]:
    court = client.get(f"/api/games/{game.id}").get_json()
    return next(n for h in court["houses"] for n in h["nobles"] if n["id"] == noble)


def texts_after(client: FlaskClient, game: Game, version: int) -> list[str]:
    page = client.get(f"/api/games/{game.id}/events?after={version}").get_json()
    return [r["text"] for r in page["records"]]


def test_a_capture_and_a_release_are_recorded_by_the_host(
    client: FlaskClient, app: Flask, game: Game
) -> None:
    """R-8.1: capture and release are recorded facts; a second capture is refused unchanged."""
    body = {"noble": "robb-stark", "house": "lannister", "by": "tywin-lannister"}
    captured = post(client, game, "commands/record_capture", {**body, "cause": "Green Fork"})
    assert captured.status_code == 200, captured.get_json()
    assert noble_of(client, game, "robb-stark")["status"] == "captive"
    assert noble_of(client, game, "robb-stark")["captor"] == "lannister"
    before = logs(app, client)

    again = post(client, game, "commands/record_capture", {**body, "cause": "again"})

    error_body(again, 409, "already_captive")
    assert logs(app, client) == before

    released = post(
        client, game, "commands/record_release", {"noble": "robb-stark", "cause": "mercy"}
    )
    assert released.status_code == 200, released.get_json()
    assert noble_of(client, game, "robb-stark")["status"] == "in_play"
    texts = texts_after(client, game, game.started)
    assert texts == [
        "Eddard, the host, recorded a fact: capture.",
        "Robb Stark was taken captive by House Lannister, by Tywin Lannister (Green Fork).",
        "Eddard, the host, recorded a fact: release.",
        "Robb Stark is free again (released: mercy).",
    ]


def test_justice_on_a_noble_who_is_not_an_outlaw_is_refused_and_a_new_noble_is_added(
    client: FlaskClient, app: Flask, game: Game
) -> None:
    """R-6.5: Justice only kills an Outlaw; R-1.2: a Court Event brings a new Noble into play."""
    before = logs(app, client)

    justice = post(
        client,
        game,
        "commands/record_death",
        {"noble": "robb-stark", "kind": "justice", "cause": "card"},
    )

    body = error_body(justice, 409, "not_outlaw")
    assert "R-6.5" in body["message"]
    assert logs(app, client) == before

    added = post(
        client,
        game,
        "commands/add_noble",
        {
            "house": "stark",
            "noble": "rickon-stark",
            "name": "Rickon Stark",
            "gender": "lord",
            "attributes": ["cruel"],
            "cause": "Court Event",
        },
    )
    assert added.status_code == 200, added.get_json()
    rickon = noble_of(client, game, "rickon-stark")
    assert (rickon["house"], rickon["attributes"], rickon["status"]) == (
        "stark",
        ["cruel"],
        "in_play",
    )
    assert texts_after(client, game, game.started) == [
        "Eddard, the host, recorded a fact: new noble.",
        "Rickon Stark came into play for House Stark (Court Event).",
    ]


def test_a_player_cannot_record_a_fact_and_the_log_stays_unchanged(
    client: FlaskClient, app: Flask, game: Game
) -> None:
    """Section 9: only the host records facts."""
    before = logs(app, client)

    response = post(
        client,
        game,
        "commands/record_death",
        {"noble": "robb-stark", "kind": "battle", "cause": "x"},
        headers=game.auth("lannister"),
    )

    error_body(response, 403, "host_only")
    assert logs(app, client) == before


def test_a_fact_of_the_wrong_shape_is_a_400_naming_the_field(
    client: FlaskClient, app: Flask, game: Game
) -> None:
    """Unknown kinds and unknown fields are refused before the rules are asked."""
    before = logs(app, client)

    bad_kind = post(
        client,
        game,
        "commands/record_death",
        {"noble": "robb-stark", "kind": "boredom", "cause": "x"},
    )
    extra = post(
        client, game, "commands/heir_born", {"noble": "bran-stark", "cause": "x", "seat": 1}
    )

    assert "kind" in error_body(bad_kind, 400, "bad_request")["fields"]
    assert "seat" in error_body(extra, 400, "bad_request")["fields"]
    assert logs(app, client) == before
