"""HTTP routes of a game's webhook (server/notify/): the host sets, reads, tests and removes
the URL the game's notices are posted to, and what they tell (the digest). Nobody else may
read the URL back: it holds the webhook's secret, so no answer but the host's own and no log
line ever shows it."""

from __future__ import annotations

from typing import Any

from flask import current_app
from marshmallow import Schema, fields, validate

from court.commands import Actor
from court.errors import BadToken, CourtError, NotAllowed
from court.sentences.names import game as game_name
from server.http.api import Routes
from server.http.games import caller, service
from server.messages.fields import Choice, Shape, String
from server.notify.delivery import DeliveryFailed
from server.notify.digest import TOLD, Digest
from server.notify.outbox import Notifier
from server.notify.urls import URL_MAX

routes = Routes("webhook", __name__)

ROUTE = "/games/<game_id>/webhook"


DIGEST = (
    "What the chat is told: `moves` (every move, and whose turn it is each time it changes), "
    "`steps` (what each step changed, told when it ends, and whose turn it is as the next "
    "begins) or `results` (elections, the council seat's sale and the end); notices that "
    "follow each other within a few seconds go out as one post"
)
DIGESTS = [d.value for d in Digest]


class WebhookSchema(Shape):
    url = String(max_length=URL_MAX, required=True, validate=validate.Length(1, URL_MAX))
    digest = Choice(DIGESTS, load_default=Digest.STEPS.value, metadata={"description": DIGEST})


class WebhookSetSchema(Schema):
    url = fields.String(
        allow_none=True, required=True, metadata={"description": "The webhook, or null"}
    )
    digest = fields.String(required=True, metadata={"description": DIGEST, "enum": DIGESTS})
    told = fields.String(
        required=True, metadata={"description": "What the chat is told, in a sentence"}
    )


class WebhookRemovedSchema(Schema):
    removed = fields.Boolean(required=True)


class WebhookTestedSchema(Schema):
    ok = fields.Boolean(required=True)


def notifier() -> Notifier:
    found: Notifier = current_app.extensions["notices"]
    return found


def host(game_id: str) -> Actor:
    actor = caller(game_id)
    if actor.spectator:
        raise BadToken("token_required", "This needs the host's token (Authorization: Bearer ...).")
    if not actor.host:
        raise NotAllowed("host_only", "Only the host sets the game's webhook.")
    return actor


@routes.route(
    ROUTE,
    "GET",
    "The game's webhook URL (host only)",
    response=WebhookSetSchema,
    auth=True,
    guard=host,
    sender="host",
)
def get_webhook(game_id: str, actor: Actor) -> dict[str, Any]:
    return _setting(game_id)


def _setting(game_id: str) -> dict[str, Any]:
    url, digest = notifier().setting(game_id)
    return {"url": url, "digest": digest.value, "told": TOLD[digest]}


@routes.route(
    ROUTE,
    "PUT",
    "Set the game's webhook and what it is told (host only): its turns, steps, results and "
    "end are posted there",
    body=WebhookSchema,
    response=WebhookSetSchema,
    limit="messages",
    auth=True,
    guard=host,
    sender="host",
    example={"url": "https://discord.com/api/webhooks/1/secret", "digest": "steps"},
)
def set_webhook(game_id: str, actor: Actor, body: dict[str, Any]) -> dict[str, Any]:
    notifier().set_webhook(game_id, body["url"], Digest(body["digest"]))
    return _setting(game_id)


@routes.route(
    ROUTE,
    "DELETE",
    "Remove the game's webhook (host only)",
    response=WebhookRemovedSchema,
    auth=True,
    guard=host,
    sender="host",
)
def remove_webhook(game_id: str, actor: Actor) -> dict[str, Any]:
    return {"removed": notifier().remove_webhook(game_id)}


@routes.route(
    ROUTE + "/test",
    "POST",
    "Post a test message to the game's webhook now, naming the game and what the chat will "
    "be told (host only)",
    response=WebhookTestedSchema,
    limit="messages",
    auth=True,
    guard=host,
    sender="host",
)
def test_webhook(game_id: str, actor: Actor) -> dict[str, Any]:
    url = notifier().webhook(game_id)
    if url is None:
        raise CourtError("no_webhook", "This game has no webhook to test; set one first.")
    try:
        name = game_name(service().current(game_id).state)
        notifier().send_test(game_id, url, name, current_app.config["WEBHOOK_TIMEOUT"])
    except DeliveryFailed as exc:
        raise CourtError(
            "webhook_failed", f"The test message did not arrive: {exc.reason}."
        ) from None
    return {"ok": True}
