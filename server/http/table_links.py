"""HTTP route of the links the table's votes handed seats to: each voter reads the link his vote
helped make until its new player opens it (server/service/table_links.py)."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields

from server.http.api import Routes
from server.http.games import seated, service
from server.service.table_links import voted_links

routes = Routes("table_links", __name__)


class VotedLinkSchema(Schema):
    seat = fields.Integer(required=True, metadata={"description": "The seat handed on"})
    token = fields.String(required=True, metadata={"description": "Its new secret token"})


class VotedLinksSchema(Schema):
    links = fields.List(
        fields.Nested(VotedLinkSchema),
        required=True,
        metadata={
            "description": "The seats the caller's seat voted to hand to a new link, whose new "
            "player has not connected since: each with the token of its link"
        },
    )


@routes.route(
    "/games/<game_id>/table/links",
    "GET",
    "The new links of the seats the caller's vote helped replace, until each new player opens his",
    response=VotedLinksSchema,
    auth=True,
)
def table_links(game_id: str) -> dict[str, Any]:
    actor, head = seated(game_id)
    court = service()
    links = voted_links(head.state, game_id, actor.seat, court.keys.secret, court.presence)
    return {"links": links}
