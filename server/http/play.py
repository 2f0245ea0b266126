"""HTTP routes of every command in the catalogue (server/messages/): `POST
/api/games/<id>/commands/<message>`, with the Socket.IO message's name and payload.

The acting seat comes from the bearer token, checked before the body is read; a message any
spectator may send needs none. A seat claim (`join`) takes a token of its address's seat
limit, every other command one of its message limit (server/clients/limits.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from court.commands import Actor
from server.http.api import Routes
from server.http.games import caller, player, service
from server.messages.catalogue import CATALOGUE
from server.messages.message import Message, Sender


def command_routes() -> Routes:
    """A route for every message of the catalogue, on a blueprint of its own: made afresh
    for each app, as the catalogue's routes are made from data rather than declared."""
    routes = Routes("commands", __name__)
    for message in CATALOGUE.values():
        _route(routes, message)
    return routes


def _route(routes: Routes, message: Message) -> None:
    who: Callable[[str], Actor] = caller if message.sender is Sender.ANYONE else player

    def view(game_id: str, actor: Actor, body: dict[str, Any] | None = None) -> dict[str, Any]:
        return message.send(service(), game_id, actor, body or {})

    view.__name__ = f"command_{message.name}"
    routes.route(
        message.route,
        "POST",
        message.summary,
        body=message.wire,
        response=message.answer,
        status=message.status,
        auth=message.sender is not Sender.ANYONE,
        limit="seats" if message.name == "join" else "messages",
        guard=who,
        example=message.sample,
        sender=message.sender.value,
        optional_body=message.schema is None,
    )(view)
