"""Logs the service would write for events, as exported lines, chained again after an edit:
what the audit tests feed to the deep check."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from court.commands import Pass, RecordVillageControl, StandForElection
from court.events import EVENT_TYPES, Event
from court.ids import NobleId
from court.log import codec
from court.log.chain import GENESIS, Record, canonical, link, private_digest
from tests.court.given import GAME, Table, seat, started
from tests.court.moments import NORTH

Line = dict[str, Any]


def chained(events: Sequence[Event], game_id: str = GAME) -> list[Line]:
    """The log the service would write for these events, as exported lines (full)."""
    lines: list[Line] = []
    prev = GENESIS
    for version, event in enumerate(events, start=1):
        name, data, private = codec.encode(event)
        owner = getattr(event, event.OWNER) if event.OWNER else None
        line: Line = {
            "game_id": game_id,
            "version": version,
            "type": name,
            "schema_version": codec.schema_version(name),
            "recorded_at": "2026-11-24T10:00:00.000000Z",
            "seat": owner,
            "data": data,
            "private": private,
            "private_sha256": private_digest(private),
        }
        prev = line["hash"] = link(
            prev,
            game_id=game_id,
            version=version,
            type=name,
            schema_version=line["schema_version"],
            recorded_at=line["recorded_at"],
            seat=owner,
            data_json=canonical(data),
            private_sha256=line["private_sha256"],
        )
        lines.append(line)
    return lines


def stored_as_exported(stored: Sequence[Line]) -> list[Line]:
    """Records as a log of `tests/court/data/fold_logs` stores them (type, schema version, data,
    private), chained into the lines a full export of that game holds, their data untouched."""
    game_id = stored[0]["data"]["game_id"]
    lines: list[Line] = []
    prev = GENESIS
    for version, record in enumerate(stored, start=1):
        owner_field = EVENT_TYPES[record["type"]][0].OWNER
        line: Line = {
            "game_id": game_id,
            "version": version,
            "type": record["type"],
            "schema_version": record["schema_version"],
            "recorded_at": "2026-11-24T10:00:00.000000Z",
            "seat": record["data"][owner_field] if owner_field else None,
            "data": record["data"],
            "private": record["private"],
            "private_sha256": private_digest(record["private"]),
        }
        prev = line["hash"] = Record.from_json({**line, "hash": ""}).expected_hash(prev)
        lines.append(line)
    return lines


def rechain(lines: list[Line]) -> list[Record]:
    """Recompute digests and hashes as a forger with the file and the algorithm could."""
    prev, records = GENESIS, []
    for line in lines:
        line["private_sha256"] = private_digest(line["private"])
        line["hash"] = prev = Record.from_json({**line, "hash": ""}).expected_hash(prev)
        records.append(Record.from_json(line))
    return records


def records(lines: list[Line]) -> list[Record]:
    return [Record.from_json(line) for line in lines]


def north_ballot() -> Table:
    """Round 2 of a game of 3 where Stark holds three villages of the North and Lannister one,
    at the ballot of the Warden election: Jaime and Robb stand, Lannister places first."""
    table = Table(*started(3))
    for village, house in [(v, "stark") for v in NORTH[:3]] + [(NORTH[3], "lannister")]:
        table.act(RecordVillageControl(village=village, house=house, cause="battle"))
    table.next_round()
    table.act(StandForElection(noble=NobleId("jaime-lannister")), seat(1))
    table.act(Pass(), seat(2))
    table.act(StandForElection(noble=NobleId("robb-stark")), seat(0))
    return table
