"""HTTP route of the history page: every record as one sentence about the court as it stood
right after it, with the round and phase it happened in."""

from __future__ import annotations

from typing import Any

from flask import current_app
from marshmallow import Schema, fields

from court.commands import Actor
from server.http import schemas as s
from server.http.games import api, bp, caller, service
from server.observer import observe


class HistoryEntrySchema(Schema):
    version = fields.Integer(required=True)
    type = fields.String(required=True)
    seat = fields.Integer(allow_none=True, required=True)
    recorded_at = fields.String(required=True)
    hash = fields.String(required=True)
    round = fields.Integer(required=True)
    phase = fields.String(allow_none=True, required=True)
    data = fields.Dict(required=True)
    text = fields.String(required=True)


class HistorySentencesSchema(Schema):
    version = fields.Integer(required=True)
    entries = fields.List(fields.Nested(HistoryEntrySchema), required=True)
    next_after = fields.Integer(allow_none=True, required=True)


def sentences(game_id: str, viewer: Actor, after: int, limit: int) -> dict[str, Any]:
    """A page of the history, each record told with the court as it stood right after it, as
    the observer tells it (court/views/observer.py)."""
    court = service()
    head = court.current(game_id)
    observer = observe(viewer, head.state)
    entries = [
        observer.entry(record, state)
        for record, state in court.told(game_id, after=after, limit=limit)
    ]
    last = entries[-1]["version"] if entries else after
    return {
        "version": head.version,
        "entries": entries,
        "next_after": last if last < head.version else None,
    }


@api.route(
    bp,
    "/games/<game_id>/history",
    "GET",
    "A page of the history as sentences, each told as the court stood right after it",
    query=s.HistoryQuerySchema,
    response=HistorySentencesSchema,
    auth=True,
)
def history_sentences(game_id: str, query: dict[str, Any]) -> dict[str, Any]:
    actor = caller(game_id)
    limit = min(query["limit"], current_app.config["HISTORY_PAGE_LIMIT"])
    return sentences(game_id, actor, query["after"], limit)
