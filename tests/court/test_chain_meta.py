"""A record's meta part is hashed as its canonical JSON whatever its fields hold (court/log/chain.py
writes the usual shape out by hand; the hash must be the encoder's to the byte)."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from court.log.chain import _meta, canonical

FIELDS = ("game_id", "version", "type", "schema_version", "recorded_at", "seat")
odd = st.one_of(st.booleans(), st.floats(allow_nan=False), st.none(), st.text(max_size=8))
number = st.integers() | odd
text = st.text() | odd


@given(
    game_id=text,
    version=number,
    type=text,
    schema_version=number,
    recorded_at=text,
    seat=number,
)
def test_the_meta_part_is_the_canonical_json_of_its_fields(**fields: Any) -> None:
    # Given any fields a record may carry, written or imported
    # When its meta part is written
    written = _meta(**fields)
    # Then it is the canonical JSON of those fields, byte for byte
    assert written == canonical({name: fields[name] for name in FIELDS})


def test_the_usual_shape_is_written_with_every_escape() -> None:
    # Given the texts a record may hold: quotes, a backslash, control and non-ASCII characters
    fields = {
        "game_id": 'g"\\1',
        "version": 2**60,
        "type": "Voted\n\t\x00",
        "schema_version": 3,
        "recorded_at": "Ÿ€😀\u2028",
        "seat": None,
    }
    # When its meta part is written; Then the encoder writes the same
    assert _meta(**fields) == canonical(fields)
