"""The in-memory store of tests/fakes.py keeps the store's contract as SqlEventStore does, so that
the service tests run on it prove what they would on a database: the same assertions, on memory,
SQLite and PostgreSQL. Records read back in version order, positions in append order, the
(game, version) pair taken once (the optimistic lock), imports whole or not at all, snapshots
kept and found alike (R-10)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from court.errors import ConcurrencyError
from court.log.chain import canonical
from server.store.rows import Kept, SnapshotMark, StreamHead
from tests.server.store.conftest import NewDatabase, open_store
from tests.server.store.records import chain

pytestmark = pytest.mark.service


@pytest.fixture
def store(new_database: NewDatabase) -> Iterator[Any]:
    store = open_store(new_database())
    yield store
    store.close()


def stored(store: Any, game_id: str) -> list[tuple[int, dict[str, Any]]]:
    return [(r.version, r.data) for r in store.read(game_id)]


def test_records_read_back_in_version_order_as_they_were_appended(store: Any) -> None:
    first, rest = chain("g1", 2), None
    store.append(first, 0)
    rest = chain("g1", 3, after=(2, first[-1].hash))
    store.append(rest, 2)
    records = list(store.read("g1"))
    assert [r.version for r in records] == [1, 2, 3, 4, 5]
    assert [(r.data, r.hash, r.type, r.seat) for r in records] == [
        (r.data, r.hash, r.type, r.seat) for r in first + rest
    ]
    assert store.head("g1") == StreamHead(5, rest[-1].hash)
    assert store.head("unknown") is None and list(store.read("unknown")) == []


def test_a_taken_version_is_refused_whole_and_changes_nothing(store: Any) -> None:
    records = chain("g1", 3)
    store.append(records[:2], 0)
    # A rival's append from version 1 again, with one version that is still free
    with pytest.raises(ConcurrencyError):
        store.append(chain("g1", 3, n=99), 0)
    assert stored(store, "g1") == [(1, {"n": 1}), (2, {"n": 2})]
    store.append(records[2:], 2)
    assert store.head("g1") == StreamHead(3, records[2].hash)


def test_another_game_takes_the_same_versions(store: Any) -> None:
    store.append(chain("g1", 2), 0)
    store.append(chain("g2", 2), 0)
    assert stored(store, "g2") == [(1, {"n": 1}), (2, {"n": 2})]
    assert store.games() == ["g2", "g1"]  # newest first


def test_rows_are_read_after_a_version_up_to_another_and_within_a_limit(store: Any) -> None:
    store.append(chain("g1", 9), 0)
    assert [r.version for r in store.rows("g1", after=3)] == [4, 5, 6, 7, 8, 9]
    assert [r.version for r in store.rows("g1", after=3, upto=6)] == [4, 5, 6]
    assert [r.version for r in store.rows("g1", after=3, limit=2)] == [4, 5]
    assert [r.version for r in store.read("g1", upto=2)] == [1, 2]
    assert [r.version for r in store.recent("g1", after=7)] == [8, 9]


def test_the_parts_are_kept_as_canonical_json_and_read_back_as_new_objects(store: Any) -> None:
    [record] = chain("g1", 1, nested={"b": [1, 2], "a": "é"})
    encoded = [(canonical(record.data), None)]
    store.append([record], 0, encoded)
    [row] = store.rows("g1")
    assert row.data == canonical(record.data) and row.private is None
    [first] = store.read("g1")
    [again] = store.read("g1")
    assert first.data == record.data and first.data is not again.data


def test_positions_follow_the_appends_of_every_game(store: Any) -> None:
    store.append(chain("g1", 2), 0)
    store.append(chain("g2", 1), 0)
    g1 = chain("g1", 3)
    store.append(g1[2:], 2)
    positions = [(r.game_id, r.version, r.position) for r in store.read_all()]
    assert [p[:2] for p in positions] == [("g1", 1), ("g1", 2), ("g2", 1), ("g1", 3)]
    assert [p[2] for p in positions] == sorted(p[2] for p in positions)
    after = positions[1][2]
    assert [(r.game_id, r.version) for r in store.read_all(after=after, limit=1)] == [("g2", 1)]


def kept(game_id: str, version: int, key_id: str | None = "k1", mac: str | None = "m") -> Kept:
    return Kept(game_id, version, "fold-1", "h" * 64, f'{{"v":{version}}}', key_id, mac)


def test_an_import_is_stored_whole_with_its_snapshots_or_not_at_all(store: Any) -> None:
    records = chain("g1", 6)
    store.append_batches([(records[:3], [kept("g1", 3)]), (records[3:], [])])
    assert [v for v, _ in stored(store, "g1")] == [1, 2, 3, 4, 5, 6]
    assert store.snapshot_at("g1", 3, "fold-1") == kept("g1", 3)
    # The same game again is refused whole
    with pytest.raises(ConcurrencyError):
        store.append_batches([(chain("g1", 2, n=7), [])])
    assert len(stored(store, "g1")) == 6

    def refused_half_way() -> Iterator[Any]:
        yield chain("g2", 2), [kept("g2", 2)]
        raise ValueError("a bad record")

    with pytest.raises(ValueError):
        store.append_batches(refused_half_way())
    assert store.head("g2") is None and store.snapshots("g2") == []
    assert store.games() == ["g1"]


def test_snapshots_are_found_by_seal_and_version_and_one_sealed_alike_stays(store: Any) -> None:
    store.append(chain("g1", 9), 0)
    for version in (3, 6, 9):
        store.save_snapshot(kept("g1", version))
    store.save_snapshot(kept("g1", 5, key_id="k0", mac="old"))
    assert store.snapshot("g1", "fold-1", "k1", 8) == kept("g1", 6)
    assert store.snapshot("g1", "fold-1", "k1", 2) is None
    assert store.snapshot("g1", "fold-1", "k0", 9) == kept("g1", 5, "k0", "old")
    assert store.snapshot("g1", "fold-2", "k1", 9) is None
    assert store.snapshots("g1") == [
        SnapshotMark(3, "fold-1", "k1", "m", "h" * 64),
        SnapshotMark(5, "fold-1", "k0", "old", "h" * 64),
        SnapshotMark(6, "fold-1", "k1", "m", "h" * 64),
        SnapshotMark(9, "fold-1", "k1", "m", "h" * 64),
    ]
    # A row sealed alike by another process stays; one sealed otherwise is written over
    store.save_snapshot(kept("g1", 6)._replace(state='{"v":"other"}'))
    assert store.snapshot_at("g1", 6, "fold-1") == kept("g1", 6)
    store.save_snapshot(kept("g1", 5))
    assert store.snapshot_at("g1", 5, "fold-1") == kept("g1", 5)
    assert store.snapshot_at("g1", 4, "fold-1") is None
