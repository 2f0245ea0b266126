"""Chained records built by hand, for tests that append to the store without the service."""

from __future__ import annotations

from typing import Any

from court.events import GoldAdjusted
from court.ids import HouseId
from court.log.chain import GENESIS, Record, canonical, link
from court.log.records import chained
from server.service.ports import EventStore

COLUMNS = (
    "game_id, version, type, schema_version, recorded_at, seat, data, private, private_sha256, hash"
)


def chain(
    game_id: str, count: int, *, after: tuple[int, str] = (0, GENESIS), **data: Any
) -> list[Record]:
    """`count` records of `game_id` following (version, hash) `after`, each holding `data`."""
    prev = after[1]
    records = []
    for version in range(after[0] + 1, after[0] + count + 1):
        body = {**data, "n": version}
        prev = link(
            prev,
            game_id=game_id,
            version=version,
            type="TestFact",
            schema_version=1,
            recorded_at="2026-11-22T00:00:00.000000Z",
            seat=None,
            data_json=canonical(body),
            private_sha256="",
        )
        records.append(
            Record(
                game_id=game_id,
                version=version,
                type="TestFact",
                schema_version=1,
                recorded_at="2026-11-22T00:00:00.000000Z",
                seat=None,
                data=body,
                private=None,
                private_sha256="",
                hash=prev,
            )
        )
    return records


def row(record: Record) -> tuple[Any, ...]:
    """The record as the values of an INSERT INTO event_records (COLUMNS)."""
    return (
        record.game_id,
        record.version,
        record.type,
        record.schema_version,
        record.recorded_at,
        record.seat,
        canonical(record.data),
        None,
        record.private_sha256,
        record.hash,
    )


def grow_log(store: EventStore, game_id: str, count: int, batch: int = 1000) -> int:
    """Append `count` chained GoldAdjusted records (Stark +1, -1, ...) to a started game's
    stored log, `batch` a transaction, as a long game would stand; the version it ends at.
    A service's cached court of the game is then stale: it folds the rest when next asked."""
    head = store.head(game_id)
    assert head is not None
    version, last = head
    end = version + count
    while version < end:
        events = [
            GoldAdjusted(house=HouseId("stark"), amount=1 if v % 2 else -1, cause="test")
            for v in range(version + 1, min(end, version + batch) + 1)
        ]
        records, encoded = chained(
            game_id, (version, last), events, None, "2026-11-22T00:00:00.000000Z"
        )
        store.append(records, version, encoded)
        version, last = records[-1].version, records[-1].hash
    return version
