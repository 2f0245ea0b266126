"""docs/protocol.md lists the JSON shape of every event as the codec stores it, made from the
event registry (court/log/shapes.py), and the shape it lists is the shape the codec writes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from court.events import EVENT_TYPES, GameEnded, Score
from court.ids import NobleId, Seat
from court.log import codec
from court.log.shapes import event_table, json_type
from tests.court.played_game import played_to_the_end

ROOT = Path(__file__).resolve().parents[2]


def test_the_protocol_document_shows_every_event_shape_as_it_is() -> None:
    """docs/protocol.md's table is the one `python -m court.log.shapes` prints."""
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    found = re.search(r"<!-- events:[^\n]*-->\n(.*?)\n<!-- /events -->", text, re.S)
    assert found is not None, "docs/protocol.md has lost its events markers"
    assert found.group(1) == event_table()


def test_the_table_has_a_row_per_event_type_with_its_schema_version() -> None:
    rows = {
        m.group(1): int(m.group(2))
        for m in re.finditer(r"^\| `(\w+)` \| (\d+) \|", event_table(), re.M)
    }
    assert rows == {name: version for name, (_, version) in EVENT_TYPES.items()}


@pytest.mark.parametrize(
    ("hint", "shape"),
    [
        (Seat, "Seat"),
        (NobleId | None, "NobleId | null"),
        (tuple[Seat, ...], "[Seat…]"),
        (tuple[Seat, Seat], "[Seat, Seat]"),
        (tuple[Score, ...], "[{seat: Seat, points: integer}…]"),
        (dict[str, int], "object"),
        (float | None, "number | null"),
    ],
)
def test_a_field_type_is_written_as_its_json(hint, shape) -> None:
    assert json_type(hint) == shape


def test_what_the_table_lists_is_what_the_codec_writes() -> None:
    """Every field of every event the game of tests/court/test_upcasters.py writes is in its
    row, public fields in the public column, and a list of objects is stored as objects."""
    table = {
        m.group(1): (m.group(2), m.group(3))
        for m in re.finditer(r"^\| `(\w+)` \| \d+ \| (.*?) \| (.*?) \|$", event_table(), re.M)
    }
    played = played_to_the_end()
    for event in played:
        name, data, private = codec.encode(event)
        public, hidden = table[name]
        assert all(f"{key}: " in public for key in data), name
        assert all(f"{key}: " in hidden for key in private or {}), name
    ended = next(e for e in played if isinstance(e, GameEnded))
    assert codec.encode(ended)[1]["points"][0].keys() == {"seat", "points"}
