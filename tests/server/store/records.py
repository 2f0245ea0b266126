"""Chained records built by hand, for tests that append to the store without the service."""

from __future__ import annotations

from typing import Any

from court.chain import GENESIS, Record, canonical, link

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
