"""The canonical JSON the chain hashes is the standard encoder's to the byte, and so is a record's
meta part whatever its fields hold (court/log/chain.py writes both without the encoder's
per-call set-up; the hash must be the encoder's)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from court.log.chain import canonical, meta_json

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
def test_themeta_json_part_is_the_canonical_json_of_its_fields(**fields: Any) -> None:
    # Given any fields a record may carry, written or imported
    # When its meta part is written
    written = meta_json(**fields)
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
    assert meta_json(**fields) == canonical(fields)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@given(value=json_values)
def test_canonical_json_is_the_standard_encoders_with_sorted_keys(value: Any) -> None:
    # Given any JSON value; When it is written as the chain hashes it
    # Then it is what the standard library's encoder writes with sorted keys and no spaces
    expected = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert canonical(value) == expected
