"""Oversized payloads cost the sender, not the server: a list or string longer than its
documented maximum is refused with one short error before any item is built, a request that
needs a token is refused before its body is read, and error bodies stay small."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from marshmallow import Schema, fields

from app import api_routes, create_app
from server.http.api import openapi_document
from server.live.sockets import NAMESPACE, ConnectSchema
from server.messages import fields as f
from server.messages.catalogue import CATALOGUE
from server.messages.message import Message
from server.messages.signed import wire_schema
from tests.databases import migrated
from tests.server.http.court_client import Game, bearer, error_body, lobby_game, start

MARKERS = 85_000  # 249 KB of `{}`: the ballot of the finding
BIG = 1024 * 1024  # a body limit high enough to let the 249 KB ballot reach the schema
# CPU seconds of this thread (the test client serves in it): far above what a refusal takes,
# far below the 2.2 s that building 85,000 items and their errors took.
SECONDS = 0.1
SMALL = 2048  # bytes of an error body
GAME = {"players": 3, "host_name": "Ned"}


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    app = create_app(
        {"DATABASE_URL": migrated(tmp_path / "t.db"), "DEADLINES": False, "MAX_REQUEST_BYTES": BIG}
    )
    yield app
    app.extensions["court_store"].close()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def game(client: FlaskClient) -> Game:
    game = lobby_game(client)
    return replace(game, started=start(client, game))


@pytest.fixture
def built(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the fields marshmallow deserialized: items of a list among them."""
    seen: list[str] = []
    original = fields.Field.deserialize

    def spy(self: fields.Field, *args: Any, **kwargs: Any) -> Any:
        seen.append(type(self).__name__)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(fields.Field, "deserialize", spy)
    return seen


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the messages whose payload was loaded."""
    seen: list[str] = []
    original = Message.load

    def spy(self: Message, payload: Any) -> Any:
        seen.append(self.name)
        return original(self, payload)

    monkeypatch.setattr(Message, "load", spy)
    return seen


def timed_post(client: FlaskClient, path: str, body: Any, headers: dict[str, str]) -> Any:
    """The answer, and the CPU seconds the server spent on it."""
    data = json.dumps(body)
    began = time.thread_time()
    response = client.post(path, data=data, headers=headers, content_type="application/json")
    return response, time.thread_time() - began


OVERSIZED = [
    ("place_ballot", {"markers": [{}] * MARKERS}, "markers"),
    ("start", {"seat_order": [0] * MARKERS}, "seat_order"),
    (
        "add_noble",
        {
            "house": "stark",
            "noble": "x",
            "name": "X",
            "gender": "lord",
            "cause": "c",
            "attributes": ["cruel"] * MARKERS,
        },
        "attributes",
    ),
    ("offer_ransom", {"captive": "x", "captives": ["x"] * MARKERS}, "captives"),
    ("record_villages", {"changes": [{}] * MARKERS, "cause": "c"}, "changes"),
]


@pytest.mark.parametrize(("name", "body", "field"), OVERSIZED, ids=[o[0] for o in OVERSIZED])
def test_an_oversized_list_gets_one_error_about_its_length_before_any_item_is_built(
    client: FlaskClient, game: Game, built: list[str], name: str, body: dict, field: str
) -> None:
    """Given a seat or host token, when a list holds 85,000 items, then one error names the
    list's maximum, in a small body, and none of the items was deserialized."""
    headers = game.host if name in ("start", "add_noble", "record_villages") else game.auth("stark")

    response = client.post(f"/api/games/{game.id}/commands/{name}", json=body, headers=headers)

    answer = error_body(response, 400, "bad_request")
    assert answer["fields"] == {field: [answer["fields"][field][0]]}
    assert "length" in answer["fields"][field][0].lower()
    assert len(response.data) < SMALL
    assert len(built) < 10, f"{len(built)} fields deserialized"


@pytest.mark.parametrize("token", [None, "not-a-seat-token"], ids=["no-token", "bad-token"])
def test_a_seat_command_without_a_good_token_is_refused_before_its_body_is_read(
    client: FlaskClient, game: Game, loads: list[str], token: str | None
) -> None:
    body = {"markers": [{}] * MARKERS}
    path = f"/api/games/{game.id}/commands/place_ballot"
    timed_post(client, path, {}, bearer(token) if token else {})  # the first request warms up

    response, seconds = timed_post(client, path, body, bearer(token) if token else {})

    error_body(response, 401, "bad_token" if token else "token_required")
    assert loads == [] and len(response.data) < SMALL and seconds < SECONDS


def test_a_string_longer_than_its_maximum_is_refused_unread(
    client: FlaskClient, game: Game
) -> None:
    name = "x\x00" * 100_000  # control characters too: the length is all that is told

    response = client.post(
        f"/api/games/{game.id}/commands/record_gold",
        json={"house": "stark", "amount": 1, "cause": name},
        headers=game.host,
    )

    assert error_body(response, 400, "bad_request")["fields"] == {
        "cause": ["Length must be between 1 and 120."]
    }


def test_an_object_with_too_many_keys_gets_one_error(client: FlaskClient) -> None:
    body = {f"k{i}": i for i in range(20_000)}

    response = client.post("/api/games", json=body)

    answer = error_body(response, 400, "bad_request")
    assert answer["fields"] == {"_schema": [answer["fields"]["_schema"][0]]}
    assert len(response.data) < SMALL


def test_a_body_larger_than_any_request_is_refused_with_413(tmp_path: Path) -> None:
    app = create_app({"DATABASE_URL": migrated(tmp_path / "t.db"), "DEADLINES": False})
    body = {**GAME, "host_name": "x" * 20_000}

    response = app.test_client().post("/api/games", json=body)

    assert error_body(response, 413)["code"] == "request_entity_too_large"
    app.extensions["court_store"].close()


def test_error_bodies_tell_at_most_ten_errors_each_capped() -> None:
    many = {str(i): ["x" * 10_000] for i in range(MARKERS)}

    told = f.capped({"markers": many, "other": ["short"]})

    shown = sum(len(v) for v in told["markers"].values()) + len(told.get("other", []))
    assert shown == f.FIELD_ERRORS_MAX
    assert told["_more"] == [f"and {MARKERS + 1 - f.FIELD_ERRORS_MAX} more errors"]
    assert max(len(m) for v in told["markers"].values() for m in v) == f.ERROR_CHARS_MAX
    assert len(json.dumps(told)) < 4 * SMALL


def test_a_spectator_connection_cannot_send_seat_commands_and_its_payload_is_not_read(
    app: Flask, game: Game, loads: list[str]
) -> None:
    spectator = app.extensions["socketio"].test_client(
        app, namespace=NAMESPACE, auth={"game": game.id, "token": None}
    )

    ack = spectator.emit(
        "place_ballot", {"markers": [{}] * MARKERS}, namespace=NAMESPACE, callback=True
    )

    assert ack["ok"] is False and ack["code"] == "token_required", ack
    assert loads == []


def test_an_oversized_socket_payload_gets_one_error_before_any_item_is_built(
    app: Flask, game: Game, built: list[str]
) -> None:
    seat = app.extensions["socketio"].test_client(
        app, namespace=NAMESPACE, auth={"game": game.id, "token": game.tokens["stark"]}
    )
    built.clear()

    ack = seat.emit("place_ballot", {"markers": [{}] * MARKERS}, namespace=NAMESPACE, callback=True)

    assert len(built) < 10, f"{len(built)} fields deserialized"
    assert ack["code"] == "bad_request" and list(ack["fields"]) == ["markers"], ack
    assert len(ack["fields"]["markers"]) == 1


# -- every list and string a client sends has a maximum, documented -----------------------


def _loaded(schema: type[Schema] | Schema) -> Iterator[tuple[str, fields.Field]]:
    instance = schema() if isinstance(schema, type) else schema
    for name, field in instance.load_fields.items():
        yield name, field
        if isinstance(field, fields.List):
            yield f"{name}[]", field.inner
            if isinstance(field.inner, fields.Nested):
                yield from _loaded(field.inner.schema)
        if isinstance(field, fields.Nested):
            yield from _loaded(field.schema)


def request_schemas() -> list[type[Schema]]:
    found = [m.schema for m in CATALOGUE.values() if m.schema is not None]
    found += [op.body for part in api_routes() for op in part.operations if op.body is not None]
    return [*found, ConnectSchema]


@pytest.mark.parametrize("schema", request_schemas(), ids=lambda s: s.__name__)
def test_every_list_and_string_a_client_sends_has_a_maximum_checked_first(
    schema: type[Schema],
) -> None:
    for name, field in _loaded(schema):
        if isinstance(field, (fields.String, fields.List)):
            assert isinstance(field, f.LengthFirst), (schema.__name__, name)
            assert any(
                isinstance(v, type(f.NAME)) and v.max is not None for v in field.validators
            ), (schema.__name__, name)


def test_the_document_gives_every_request_list_and_string_its_maximum() -> None:
    spec = openapi_document(api_routes())["components"]["schemas"]
    # A message's body is documented under its wire schema's name (server/messages/signed.py).
    bodies = {wire_schema(m).__name__.removesuffix("Schema") for m in CATALOGUE.values()}

    for name in bodies | {"CreateGame", "Marker"}:
        for prop, shape in spec[name]["properties"].items():
            if shape.get("type") == "string":
                assert "maxLength" in shape, (name, prop)
            if shape.get("type") == "array":
                assert "maxItems" in shape, (name, prop)
