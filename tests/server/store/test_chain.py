"""The hash chain shows any edit, removal or reordering of records (section 10)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from court.commands import AdjustGold
from court.errors import BadRecord
from court.log.chain import GENESIS, Record, private_digest, verify
from tests.server.store.conftest import NewDatabase, Table, open_service

# Service tests: each runs on the in-memory store as well, but for those marked `sql`.
pytestmark = pytest.mark.service


@pytest.fixture
def records(table: Table) -> list[Record]:
    table.service.handle(table.game_id, AdjustGold(house="tyrell", amount=2, cause="x"), table.host)
    return list(table.store.read(table.game_id))


def test_an_untouched_log_verifies_to_its_head(records: list[Record]) -> None:
    result = verify(records)
    assert result.ok and result.records == len(records) and result.head == records[-1].hash


def test_the_first_record_chains_from_the_genesis_hash(records: list[Record]) -> None:
    assert records[0].expected_hash(GENESIS) == records[0].hash


def test_an_edited_public_part_is_found_at_its_record(records: list[Record]) -> None:
    records[3] = replace(records[3], data={**records[3].data, "house": "martell"})
    result = verify(records)
    assert not result.ok and result.bad_index == 3 and result.bad_version == 4


def test_an_edited_time_or_seat_is_found(records: list[Record]) -> None:
    assert verify([*records[:2], replace(records[2], seat=0), *records[3:]]).bad_index == 2
    edited = replace(records[5], recorded_at="2030-01-01T00:00:00.000000Z")
    assert verify([*records[:5], edited, *records[6:]]).bad_index == 5


def test_a_record_edited_and_hashed_again_is_found_at_the_record_after_it(
    records: list[Record],
) -> None:
    """Section 10: each hash covers the one before it, so a record edited together with its own
    hash still breaks the chain at the record that follows."""
    edited = replace(records[3], data={**records[3].data, "house": "martell"})
    records[3] = replace(edited, hash=edited.expected_hash(records[2].hash))

    result = verify(records)

    assert not result.ok and result.bad_index == 4 and result.bad_version == 5


def test_an_edited_private_part_is_found(records: list[Record]) -> None:
    records[1] = replace(records[1], private={"token_sha256": "0" * 64})
    result = verify(records)
    assert not result.ok and result.bad_index == 1 and "private" in result.reason


def test_a_private_part_edited_together_with_its_digest_still_breaks_the_chain(
    records: list[Record],
) -> None:
    private = {"token_sha256": "0" * 64}
    records[1] = replace(records[1], private=private, private_sha256=private_digest(private))
    assert verify(records).bad_index == 1


def test_a_log_with_private_parts_withheld_still_verifies(records: list[Record]) -> None:
    withheld = [r.withheld() for r in records]
    assert all(r.private is None for r in withheld)
    assert verify(withheld).ok and verify(withheld).head == verify(records).head


def test_a_removed_record_is_found(records: list[Record]) -> None:
    result = verify(records[:3] + records[4:])
    assert not result.ok and result.bad_index == 3


def test_reordered_records_are_found(records: list[Record]) -> None:
    records[2], records[3] = records[3], records[2]
    assert verify(records).bad_index == 2


def test_a_record_renumbered_to_hide_a_removal_is_found(records: list[Record]) -> None:
    shifted = [replace(r, version=r.version - 1) for r in records[4:]]
    assert verify(records[:3] + shifted).bad_index == 3


def test_a_record_of_another_game_is_found(records: list[Record]) -> None:
    records[2] = replace(records[2], game_id="other")
    assert verify(records).bad_index == 2


def test_export_then_import_gives_the_same_verified_game(
    table: Table, records, new_database: NewDatabase
) -> None:
    lines = [r.to_json() for r in records]
    target, store = open_service(new_database())
    result = target.import_log(lines)
    assert result.ok and result.head == records[-1].hash
    assert target.current(table.game_id).state == table.service.current(table.game_id).state
    store.close()


@pytest.mark.parametrize(
    ("tamper", "index"),
    [
        (lambda ls: [*ls[:4], {**ls[4], "data": {**ls[4]["data"], "first_player": 2}}, *ls[5:]], 4),
        (lambda ls: ls[:2] + ls[3:], 2),
        (lambda ls: [ls[0], ls[2], ls[1], *ls[3:]], 1),
    ],
    ids=["edited", "removed", "reordered"],
)
def test_a_tampered_import_is_refused_naming_the_first_bad_record(
    records, new_database: NewDatabase, tamper, index
) -> None:
    target, store = open_service(new_database())
    with pytest.raises(BadRecord) as err:
        target.import_log(tamper([r.to_json() for r in records]))
    assert err.value.code == "tampered_log"
    assert f"(record {index}) fails the chain check" in err.value.message
    assert target.games() == []
    store.close()


def test_an_import_of_a_game_already_stored_is_refused(table: Table, records) -> None:
    with pytest.raises(Exception) as err:
        table.service.import_log([r.to_json() for r in records])
    assert getattr(err.value, "code", None) == "game_exists"


@pytest.mark.parametrize(
    "lines",
    [[], [{"nope": 1}], [{"game_id": 1}], ["text"]],
)
def test_an_import_that_is_not_a_log_is_refused(new_database: NewDatabase, lines) -> None:
    target, store = open_service(new_database())
    with pytest.raises(BadRecord):
        target.import_log(lines)
    store.close()
