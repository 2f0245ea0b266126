"""What each viewer may see of the log: a private part is shown to the seat that owns it, and
to everyone once the game has ended. Records are shown in the current shape of their type."""

from __future__ import annotations

from typing import Any

from court import codec
from court.chain import Record
from court.commands import Actor
from court.events import EVENT_TYPES
from court.sentences import describe
from court.state import CourtState, GameStatus


def private_visible(record: Record, viewer: Actor, ended: bool) -> bool:
    return ended or (viewer.seat is not None and record.seat == viewer.seat)


def record_view(record: Record, viewer: Actor, state: CourtState) -> dict[str, Any]:
    """One log record as the viewer may see it, with a readable sentence.

    `data` and `private` are read through the upcasters (court/codec.py), so a client meets
    one shape per event type, the one docs/protocol.md lists; `schema_version` names it.
    `hash` stays the stored record's: the export gives the records as stored, to verify."""
    ended = state.status is GameStatus.ENDED
    out = record.to_json()
    private = record.private if private_visible(record, viewer, ended) else None
    out["data"], out["private"], out["schema_version"] = current_shape(record, private)
    out["text"] = describe(record, state)
    return out


def current_shape(
    record: Record, private: dict[str, Any] | None
) -> tuple[dict[str, Any], dict[str, Any] | None, int]:
    """The record's public and (when given) private parts in the current shape of its type,
    and that shape's schema version; a type this server does not know is shown as stored."""
    if record.type not in EVENT_TYPES:
        return record.data, private, record.schema_version
    cls, current = EVENT_TYPES[record.type]
    if record.schema_version == current:
        return record.data, private, current
    merged = codec.upcast(record.type, record.schema_version, {**record.data, **(private or {})})
    public = {k: v for k, v in merged.items() if k not in cls.PRIVATE}
    hidden = {k: v for k, v in merged.items() if k in cls.PRIVATE}
    return public, (hidden if private is not None else None), current


def export_lines(records: list[Record], viewer: Actor, state: CourtState) -> list[dict[str, Any]]:
    ended = state.status is GameStatus.ENDED
    return [(r if private_visible(r, viewer, ended) else r.withheld()).to_json() for r in records]
