"""HTTP checks and renders with one instance of each schema, as Socket.IO does
(server/messages/message.py `schema_of`): building a marshmallow schema binds and copies each
of its fields, which costs more than the load itself, so no request builds one."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient
from marshmallow import Schema

from tests.server.http.court_client import Game


def requests(client: FlaskClient, game: Game, name: str) -> None:
    """A command with a body, a GET with a query, and a GET rendered through its schema."""
    said = client.post(
        f"/api/games/{game.id}/commands/rename_game", json={"name": name}, headers=game.host
    )
    assert said.status_code == 200, said.get_json()
    assert client.get(f"/api/games/{game.id}/events?after=0&limit=5").status_code == 200
    assert client.get(f"/api/games/{game.id}", headers=game.host).status_code == 200


def test_no_request_builds_a_schema(
    client: FlaskClient, game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Given a started game whose routes have each served once, when a command, a page of
    the log and the court are asked for again, then no schema is built for them."""
    requests(client, game, "Once")
    built: list[str] = []
    init = Schema.__init__

    def counted(self: Schema, *args: Any, **kwargs: Any) -> None:
        built.append(type(self).__name__)
        init(self, *args, **kwargs)

    monkeypatch.setattr(Schema, "__init__", counted)
    requests(client, game, "Twice")
    assert built == []
