"""The deep audit's checks of one record's own fields: well formed, ids and names as the API
takes them, and a private part recorded for the seat it belongs to."""

from __future__ import annotations

import calendar
import re
from collections.abc import Mapping, Sequence
from typing import Any

from court.audit.failed import Failed
from court.errors import CourtError
from court.events import Event, GameCreated, NobleAdded, SeatHanded, SeatJoined
from court.log import codec
from court.log.chain import Record
from court.model.text import NOBLE_ID, clean_name, id_problem, unprintable
from court.state import CourtState

# The log's times, as server.service.ports.iso_time writes them.
RECORDED_AT = re.compile(r"(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)\.\d{6}Z")
TEXT_LIMIT = 2000  # the longest sentence the engine writes into an event is far shorter


def readable(record: Record, upcasters: Mapping[codec.UpcasterKey, codec.Upcaster]) -> Event:
    """The record's fields are well formed and its event decodes."""
    problem = id_problem(record.game_id)
    if problem:
        raise Failed("record", f"the game id: {problem}")
    if not isinstance(record.type, str) or not isinstance(record.schema_version, int):
        raise Failed("record", "the type and schema version are a name and a whole number")
    if not _utc_time(record.recorded_at):
        raise Failed("record", f"recorded_at {record.recorded_at!r:.40} is not a UTC time")
    if record.seat is not None and (type(record.seat) is not int or record.seat < 0):
        raise Failed("record", f"seat {record.seat!r:.40} is not a seat number")
    if not isinstance(record.data, dict) or not isinstance(record.private, dict | None):
        raise Failed("record", "the public and private parts are JSON objects")
    try:
        event = codec.decode(
            record.type, record.schema_version, record.data, record.private, upcasters
        )
    except CourtError as exc:
        raise Failed("record", exc.message) from None
    private_fields = type(event).PRIVATE
    if not private_fields and (record.private is not None or record.private_sha256 != ""):
        raise Failed("record", f"a {record.type} record has no private part, but this one has")
    if private_fields and not record.private_sha256:
        raise Failed("record", f"a {record.type} record's private part has no digest")
    if record.private is not None and not _private_fields_match(record, private_fields):
        raise Failed("record", f"the private part of a {record.type} holds other fields")
    return event


def _private_fields_match(record: Record, private_fields: frozenset[str]) -> bool:
    """A record of the current shape holds every private field; an older shape (upcast on
    reading) holds some of them and nothing else."""
    held = set(record.private or ())
    if record.schema_version == codec.schema_version(record.type):
        return held == private_fields
    return held <= private_fields


def _utc_time(text: object) -> bool:
    """A time as the log writes it (2026-11-24T10:00:00.000000Z) that names a real moment."""
    match = RECORDED_AT.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        return False
    year, month, day, hour, minute, second = (int(g) for g in match.groups())
    return (
        year >= 1970
        and 1 <= month <= 12
        and 1 <= day <= calendar.monthrange(year, month)[1]
        and hour < 24
        and minute < 60
        and second < 60
    )


def names(record: Record, event: Event) -> None:
    """Ids and names as the API takes them; no text with control characters."""
    problem = _text_problem(record.data)
    if problem:
        raise Failed("names", problem)
    names: Sequence[object]  # as the log holds them: a forged one may be no text at all
    if isinstance(event, GameCreated):
        if event.game_id != record.game_id:
            raise Failed("names", "the game created is not the game of the log")
        names = [event.host_name] + ([event.game_master_name] if event.game_master_name else [])
    elif isinstance(event, SeatJoined | SeatHanded):
        names = [event.player_name]
    elif isinstance(event, NobleAdded):
        problem = id_problem(event.noble.id, NOBLE_ID)
        if problem:
            raise Failed("names", f"the new Noble's id: {problem}")
        names = [event.noble.name]
    else:
        return
    for name in names:
        try:
            if not isinstance(name, str) or clean_name(name) != name:
                raise Failed("names", f"the name {name!r:.60} is not one the court takes")
        except CourtError as exc:
            raise Failed("names", f"the name {name!r:.60}: {exc.message}") from None


def _text_problem(value: Any) -> str | None:
    if isinstance(value, str):
        if len(value) > TEXT_LIMIT:
            return f"a text of {len(value)} characters is longer than any the court writes"
        problem = unprintable(value)
        return f"a text cannot be shown as written: {problem}" if problem else None
    if isinstance(value, dict):
        value = [*value.keys(), *value.values()]
    if isinstance(value, list | tuple):
        return next((p for v in value if (p := _text_problem(v))), None)
    return None


def seat(record: Record, event: Event, state: CourtState) -> None:
    """The acting seat is a seat of this game; a private part goes with the seat it belongs
    to, so the log cannot be edited to show one player's secret to another."""
    if isinstance(event, GameCreated) and record.seat is not None:
        raise Failed("record", "a game is created by its host, before any seat")
    if event.OWNER is not None and record.seat != getattr(event, event.OWNER):
        raise Failed(
            "record",
            f"the {record.type} of seat {getattr(event, event.OWNER)} is recorded for seat "
            f"{record.seat}: its private part would be shown to the wrong player",
        )
    if record.seat is not None and record.seat >= state.joins:
        raise Failed("record", f"seat {record.seat} was never taken in this game")
    if isinstance(event, SeatHanded) and event.at_version not in (0, record.version):
        raise Failed(
            "record",
            f"the hand-over of version {record.version} names version {event.at_version}: the "
            "new holder would be shown what the seat held before",
        )
