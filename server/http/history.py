"""HTTP route of the history page: every record as one sentence about the court as it stood
right after it, with the round and phase it happened in."""

from __future__ import annotations

from typing import Any

from flask import current_app
from marshmallow import Schema, fields

from court.evolve import evolve, initial
from court.ids import GameId
from court.sentences import describe
from server.http import schemas as s
from server.http.games import api, bp, caller, service


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


def sentences(game_id: str, after: int, limit: int) -> dict[str, Any]:
    """Replay from the first record, describing each one of the page with the state it made.

    The public part only: private parts stay with /events and /export, which check the
    caller's seat."""
    court = service()
    head = court.current(game_id)
    state = initial(GameId(game_id))
    entries: list[dict[str, Any]] = []
    for record in court.records(game_id, upto=after + limit):
        state = evolve(state, court.decode(record))
        if record.version <= after:
            continue
        entries.append(
            {
                "version": record.version,
                "type": record.type,
                "seat": record.seat,
                "recorded_at": record.recorded_at,
                "hash": record.hash,
                "round": state.round,
                "phase": state.phase.value if state.phase else None,
                "data": record.data,
                "text": describe(record, state),
            }
        )
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
    caller(game_id)
    limit = min(query["limit"], current_app.config["HISTORY_PAGE_LIMIT"])
    return sentences(game_id, query["after"], limit)
