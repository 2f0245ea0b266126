"""The talk messages (server/messages/talk.py) as docs/protocol.md tells them, each with its
Socket.IO handler, and their payloads' shapes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from marshmallow import ValidationError

from server.live.sockets import CourtNamespace
from server.messages.catalogue import CATALOGUE
from server.messages.talk import TALK, talk_table

ROOT = Path(__file__).resolve().parents[3]


def test_the_protocol_document_shows_the_talk_messages_as_they_are() -> None:
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    found = re.search(r"<!-- talk:[^\n]*-->\n(.*?)\n<!-- /talk -->", text, re.S)
    assert found is not None, "docs/protocol.md has lost its talk markers"
    assert found.group(1) == talk_table()


@pytest.mark.parametrize("name", sorted(TALK))
def test_each_talk_message_has_its_handler_and_names_its_fields(name: str) -> None:
    namespace = CourtNamespace(None, None, None, None, None)  # type: ignore[arg-type]
    assert callable(getattr(namespace, f"on_{name}"))
    assert name not in CATALOGUE
    message = TALK[name]
    told = set(re.findall(r"(\w+)(?=[:,}])", message.payload))
    assert told == set(message.schema().fields)


@pytest.mark.parametrize(("to", "loaded"), [(0, 0), (5, 5), ("master", "master")])
def test_a_whisper_goes_to_a_seat_number_or_the_master(to: object, loaded: object) -> None:
    assert TALK["whisper"].load({"to": to, "text": "hi"}) == {"to": loaded, "text": "hi"}


@pytest.mark.parametrize("to", [-1, 6, "1", True, None, 1.5, "host"])
def test_a_whisper_to_anything_else_is_refused_by_its_shape(to: object) -> None:
    with pytest.raises(ValidationError):
        TALK["whisper"].load({"to": to, "text": "hi"})
