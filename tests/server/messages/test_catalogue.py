"""One catalogue of client commands (server/messages/): each declared once, and HTTP, Socket.IO,
OpenAPI, the listed moves and docs/protocol.md all come from it."""

from __future__ import annotations

import dataclasses
import inspect
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from marshmallow import ValidationError

import server.http.play  # noqa: F401 - registers the routes of the catalogue
from app import api_routes
from court import commands
from court.commands import Command
from court.views.padding import PAD
from server.http.api import openapi_document
from server.live.sockets import CourtNamespace
from server.messages.catalogue import BY_COMMAND, CATALOGUE, message_table
from server.messages.labels import LABELS
from server.messages.message import schema_of

ROOT = Path(__file__).resolve().parents[3]
# Commands the server sends itself: a game is created by its route, and a key's links are
# added and dropped by the key service (server/service/seat_keys.py), never by a client message.
# The bot's moves are the server's own (server/live/bots.py).
SERVER_ONLY = {"CreateGame", "AddSeatLink", "DropSeatLink", "BotMove"}


def client_commands() -> set[type]:
    return {
        cls
        for module in (commands,)
        for _, cls in inspect.getmembers(module, inspect.isclass)
        if issubclass(cls, Command)
        and dataclasses.is_dataclass(cls)
        and cls.__name__ not in SERVER_ONLY
    }


def test_every_command_a_client_can_send_is_declared_once() -> None:
    assert set(BY_COMMAND) == client_commands()
    assert len(BY_COMMAND) == len(CATALOGUE)


def test_the_protocol_document_shows_the_catalogue_as_it_is() -> None:
    """docs/protocol.md's table is the one `python -m server.messages.catalogue` prints."""
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    found = re.search(r"<!-- catalogue:[^\n]*-->\n(.*?)\n<!-- /catalogue -->", text, re.S)
    assert found is not None, "docs/protocol.md has lost its catalogue markers"
    assert found.group(1) == message_table()


@pytest.mark.parametrize("name", sorted(CATALOGUE))
def test_each_message_has_its_http_route_and_socket_handler_under_one_name(name: str) -> None:
    message = CATALOGUE[name]
    paths = openapi_document(api_routes())["paths"]
    route = "/api" + message.route.replace("<game_id>", "{game_id}")
    operation = paths[route]["post"]
    assert route.endswith("/commands/" + name)
    assert operation["summary"] == message.summary
    namespace = CourtNamespace(None, None, None, None, None)  # type: ignore[arg-type]
    assert callable(getattr(namespace, f"on_{name}"))


def test_a_name_outside_the_catalogue_has_no_socket_handler() -> None:
    namespace = CourtNamespace(None, None, None, None, None)  # type: ignore[arg-type]
    assert not hasattr(namespace, "on_buy_fief")
    assert not hasattr(namespace, "on_record_" + "nothing")


@pytest.mark.parametrize("name", sorted(n for n, m in CATALOGUE.items() if m.schema is not None))
def test_a_payload_names_its_fields_as_the_command_does(name: str) -> None:
    """One vocabulary: a payload's fields are the command's own (tests/server/live/
    test_move_payloads.py checks that listed moves build back the very command)."""
    message = CATALOGUE[name]
    assert message.schema is not None
    fields = set(message.schema().fields) - {PAD}  # a sealed choice's padding, dropped
    command_fields = {f.name for f in dataclasses.fields(message.command)}
    assert fields <= command_fields, f"{name}: payload fields outside the command"


def test_one_schema_instance_loads_every_payload_of_a_message_and_keeps_none_of_them() -> None:
    """Given the shared instance of place_ballot's schema, when a bad payload and then a
    good one are loaded through it, from several threads at once, then each load answers
    its own payload alone: the instance carries nothing from one load to the next."""
    message = CATALOGUE["place_ballot"]
    assert message.schema is not None
    assert schema_of(message.schema) is schema_of(message.schema)

    def load(i: int) -> object:
        payload = {"markers": [{"kind": "for", "candidate": f"noble-{i}"}]}
        if i % 2:
            payload = {"markers": [{"kind": "against", "candidate": f"noble-{i}"}]}
        try:
            return message.load(payload)
        except ValidationError as exc:
            return exc.messages

    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(load, range(200)))

    for i, answer in enumerate(answers):
        if i % 2:
            assert answer == {"markers": {0: {"kind": ["Must be one of: for, decoy."]}}}
        else:
            assert answer == {
                "markers": [{"kind": "for", "candidate": f"noble-{i}", "salt": None}],
                "committed": None,
                "pad": "",
                "signed": None,
            }


def test_every_label_names_a_message_of_the_catalogue() -> None:
    """The pages name a move by the label the server gives it (server/messages/labels.py):
    a label for a message the catalogue does not hold would name nothing."""
    assert set(LABELS) <= set(CATALOGUE)
    assert all(label.strip() and label[0].isupper() for label in LABELS.values())
