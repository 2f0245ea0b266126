"""Events into the records of a game's log: encoded, numbered and chained onto the last one."""

from __future__ import annotations

from collections.abc import Sequence

from court.events import Event
from court.ids import Seat
from court.log import codec
from court.log.chain import Record, canonical, linked, meta_json, private_digest_of


def chained(
    game_id: str,
    after: tuple[int, str],
    events: Sequence[Event],
    seat: Seat | None,
    recorded_at: str,
) -> tuple[list[Record], list[tuple[str, str | None]]]:
    """The records of `events` following version and hash `after`, with the canonical JSON
    of each record's public and private parts (hashed here, stored as they are: encoded
    once). A record belongs to the event's own seat where it names one (its OWNER field),
    else to the acting `seat`."""
    records: list[Record] = []
    encoded: list[tuple[str, str | None]] = []
    version, prev = after
    for event in events:
        name, data, private = codec.encode(event)
        version += 1
        data_json = canonical(data)
        private_json = None if private is None else canonical(private)
        encoded.append((data_json, private_json))
        schema = codec.schema_version(name)
        owner = getattr(event, event.OWNER) if event.OWNER else seat
        digest = private_digest_of(private_json)
        meta = meta_json(game_id, version, name, schema, recorded_at, owner)
        prev = linked(prev, meta, data_json, digest)
        records.append(
            Record(
                game_id=game_id,
                version=version,
                type=name,
                schema_version=schema,
                recorded_at=recorded_at,
                seat=owner,
                data=data,
                private=private,
                private_sha256=digest,
                hash=prev,
            )
        )
    return records, encoded
