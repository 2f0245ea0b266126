"""One event as the record the service would store for it, for tests of what a record tells."""

from __future__ import annotations

from court.events import Event
from court.log import codec
from court.log.chain import Record
from tests.court.given import GAME


def record_of(event: Event) -> Record:
    name, data, private = codec.encode(event)
    return Record(
        game_id=GAME,
        version=9,
        type=name,
        schema_version=codec.schema_version(name),
        recorded_at="2026-11-24T10:00:00.000000Z",
        seat=None,
        data=data,
        private=private,
        private_sha256="",
        hash="0" * 64,
    )
