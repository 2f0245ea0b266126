"""What each viewer may see of the log: a private part is shown to the seat that owns it, and
to everyone once the game has ended."""

from __future__ import annotations

from typing import Any

from court.chain import Record
from court.commands import Actor
from court.sentences import describe
from court.state import CourtState, GameStatus


def private_visible(record: Record, viewer: Actor, ended: bool) -> bool:
    return ended or (viewer.seat is not None and record.seat == viewer.seat)


def record_view(record: Record, viewer: Actor, state: CourtState) -> dict[str, Any]:
    """One log record as the viewer may see it, with a readable sentence."""
    ended = state.status is GameStatus.ENDED
    out = record.to_json()
    if not private_visible(record, viewer, ended):
        out["private"] = None
    out["text"] = describe(record, state)
    return out


def export_lines(records: list[Record], viewer: Actor, state: CourtState) -> list[dict[str, Any]]:
    ended = state.status is GameStatus.ENDED
    return [(r if private_visible(r, viewer, ended) else r.withheld()).to_json() for r in records]
