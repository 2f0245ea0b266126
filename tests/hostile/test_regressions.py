"""Defects the hostile tests found, each pinned by a test of its own."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app import api_routes, create_app
from server.http.api import openapi_document
from server.live.sockets import NAMESPACE
from tests.databases import migrated
from tests.server.http.court_client import Game, error_body, lobby_game, start


@pytest.fixture
def app(tmp_path: Path) -> Flask:
    return create_app({"DATABASE_URL": migrated(tmp_path / "t.db")})


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def test_a_refused_method_says_which_methods_are_allowed(client: FlaskClient) -> None:
    """RFC 9110: a 405 names the allowed methods in `Allow`."""
    response = client.delete("/api/profiles")

    error_body(response, 405, "method_not_allowed")
    assert {m.strip() for m in response.headers["Allow"].split(",")} >= {"GET"}


def test_the_document_says_typed_text_holds_no_control_characters() -> None:
    """Every player-typed field (names, causes) is documented with the pattern it is held to:
    no control, invisible or direction-changing character."""
    schemas = openapi_document(api_routes())["components"]["schemas"]

    for schema, field in [("CreateGame", "host_name"), ("JoinPayload", "player_name")]:
        pattern = re.compile(schemas[schema]["properties"][field]["pattern"])
        assert pattern.fullmatch("Zoë Ямщиков")
        for hidden in ["\x00", "\x1f", "\x9f", "\u200b", "\u202e", "\u2066", "\ufeff"]:
            assert not pattern.fullmatch(f"Ann{hidden}")


@pytest.mark.parametrize(
    "variants", [{"sealed_ballots": 0}, {"nights_watch": 1}, {"title_concession": "yes"}]
)
def test_a_variant_must_be_true_or_false_not_a_number_or_a_word(
    client: FlaskClient, variants: dict
) -> None:
    response = client.post(
        "/api/games", json={"players": 3, "host_name": "Ned", "variants": variants}
    )

    body = error_body(response, 400, "bad_request")
    assert list(body["fields"]["variants"]) == list(variants)


def test_an_answer_to_a_marriage_must_be_true_or_false(client: FlaskClient) -> None:
    game = lobby_game(client)
    start(client, game)

    response = client.post(
        f"/api/games/{game.id}/commands/answer_marriage",
        json={"accept": 1},
        headers=game.auth("lannister"),
    )

    assert error_body(response, 400, "bad_request")["fields"] == {
        "accept": ["Not a valid boolean."]
    }


@pytest.mark.parametrize("house", ["stark\n", "stark\r\n", "\nstark"])
def test_an_id_with_a_line_break_is_malformed(client: FlaskClient, house: str) -> None:
    game: Game = lobby_game(client, houses=("stark", "lannister"))

    response = client.post(
        f"/api/games/{game.id}/commands/join", json={"house": house, "player_name": "Mace"}
    )

    assert "house" in error_body(response, 400, "bad_request")["fields"]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"first_player_seat": 5}, "bad_first_player"),
        ({"host_name": "   "}, "bad_name"),
        ({"game_master_name": "    "}, "bad_name"),
    ],
)
def test_a_refused_new_game_says_why_instead_of_busy(
    client: FlaskClient, body: dict, code: str
) -> None:
    """A creation the rules refuse was retried as if another writer had raced it, and
    ended as `busy`."""
    response = client.post("/api/games", json={"players": 3, "host_name": "Ned", **body})

    error_body(response, 409, code)


@pytest.mark.parametrize(
    "args", [(), ({},), ("transport close",), ({"game": "nothing-here", "token": None},)]
)
@pytest.mark.parametrize("event", ["connect", "disconnect"])
def test_a_client_cannot_send_the_connections_own_events(
    app: Flask, event: str, args: tuple
) -> None:
    """A message named `disconnect` closed the sender's session while its connection stayed
    up (its next message failed on the server); one named `connect` ran the connection's
    handshake again."""
    client = app.test_client()
    game = lobby_game(client)
    start(client, game)
    host = app.extensions["socketio"].test_client(
        app, namespace=NAMESPACE, auth={"game": game.id, "token": game.host_token}
    )

    ack = host.emit(event, *args, namespace=NAMESPACE, callback=True)

    assert ack["ok"] is False and ack["code"] == "unknown_message"
    assert host.is_connected(NAMESPACE)
    gold = {"house": "stark", "amount": 1, "cause": "tax"}
    assert host.emit("record_gold", gold, namespace=NAMESPACE, callback=True)["ok"] is True
