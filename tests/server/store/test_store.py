"""The SQL event store and the service over it: append-only, optimistic lock, retries, cache."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest
from sqlalchemy.exc import DBAPIError

from config.rulesdata import load_ruleset
from court.commands import SPECTATOR, Actor, AdjustGold, CreateGame, JoinSeat, LeaveSeat
from court.errors import BadToken, ConcurrencyError, Conflict, CourtError, UnknownGame
from court.ids import HouseId, Seat
from court.log.chain import verify
from server.service.replay import Head
from server.store.sql import SqlEventStore
from tests.server.store.conftest import Table, open_service

# Service tests: each runs on the in-memory store as well, but for those marked `sql`.
pytestmark = pytest.mark.service

GOLD = AdjustGold(house="stark", amount=1, cause="tax")


def log(t: Table) -> list:
    return list(t.store.read(t.game_id))


def test_a_started_game_is_one_stream_of_versioned_records(table: Table) -> None:
    records = log(table)
    assert [r.version for r in records] == list(range(1, table.started + 1))
    assert [r.type for r in records][:6] == [
        "GameCreated",
        "SeatJoined",
        "SeatJoined",
        "SeatJoined",
        "GameStarted",
        "RoundStarted",
    ]
    positions = [r.position for r in records]
    assert positions == sorted(positions) and len(set(positions)) == table.started
    assert verify(records).ok


def test_each_record_names_its_acting_seat(table: Table) -> None:
    records = log(table)
    assert [r.seat for r in records[1:4]] == [0, 1, 2]
    assert records[0].seat is None


def test_appending_with_a_stale_expected_version_is_refused_and_changes_nothing(
    table: Table,
) -> None:
    records = log(table)
    before = len(records)
    stale = records[-1]
    with pytest.raises(ConcurrencyError):
        table.store.append([stale], expected_version=stale.version - 1)
    assert len(log(table)) == before


@pytest.mark.sql
@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE event_records SET data = '{}' WHERE version = 1",
        "UPDATE event_records SET position = position + 1000",
        "DELETE FROM event_records WHERE version = 3",
    ],
)
def test_the_database_refuses_update_and_delete_of_records(table: Table, statement: str) -> None:
    before = log(table)
    with table.store.engine.connect() as conn, pytest.raises(DBAPIError, match="append-only"):
        conn.exec_driver_sql(statement)
    assert log(table) == before


@pytest.mark.sql
def test_the_sqlite_store_runs_in_wal_mode_with_the_chosen_synchronous_level(tmp_path) -> None:
    normal = SqlEventStore(f"sqlite:///{tmp_path}/a.db")
    full = SqlEventStore(f"sqlite:///{tmp_path}/b.db", synchronous="FULL")
    for store, level in ((normal, 1), (full, 2)):
        with store.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == level
        store.close()
    with pytest.raises(ValueError):
        SqlEventStore(f"sqlite:///{tmp_path}/c.db", synchronous="SOMETIMES")


def test_the_service_redecides_on_fresh_state_after_losing_a_race(table: Table) -> None:
    """A rival process appends between our read and our append: we retry on its version."""
    rival, rival_store = open_service(table.url)
    real_append = table.store.append
    raced = []

    def racing_append(records, expected_version, encoded=None):
        if not raced:
            raced.append(rival.handle(table.game_id, GOLD, table.host).version)
        return real_append(records, expected_version, encoded)

    table.store.append = racing_append  # type: ignore[method-assign]
    outcome = table.service.handle(table.game_id, GOLD, table.host)
    # Both commands append the same events: ours lands right after the rival's.
    [rival_version] = raced
    assert outcome.version - rival_version == rival_version - table.started > 0
    assert table.service.current(table.game_id).state.treasury["stark"] == 12
    assert verify(log(table)).ok
    rival_store.close()


def losing(table: Table, times: int) -> list[int]:
    """The store's appends lose the race `times` times before they land, as if another
    process appended first; the versions each lost at are listed in the list returned."""
    lost: list[int] = []
    real_append = table.store.append

    def lost_first(records, expected_version, encoded=None):
        if len(lost) < times:
            lost.append(expected_version)
            raise ConcurrencyError(table.game_id, expected_version)
        return real_append(records, expected_version, encoded)

    table.store.append = lost_first  # type: ignore[method-assign]
    return lost


def test_the_service_gives_up_when_it_has_lost_every_race_for_its_race_seconds(
    table: Table,
) -> None:
    lost: list[int] = []

    def always_lost(records, expected_version, encoded=None):
        lost.append(expected_version)
        raise ConcurrencyError(table.game_id, expected_version)

    ticks = iter(range(1000))
    table.store.append = always_lost  # type: ignore[method-assign]
    table.service.pause = lambda _seconds: None  # type: ignore[method-assign]
    table.service.timer = lambda: float(next(ticks))  # one second a try
    table.service.race_seconds = 5.0
    with pytest.raises(Conflict) as err:
        table.service.handle(table.game_id, GOLD, table.host)
    assert err.value.code == "busy"
    assert len(lost) == 5
    assert table.service.current(table.game_id).version == table.started


def test_a_command_that_loses_many_races_in_a_row_still_lands_within_its_race_seconds(
    table: Table,
) -> None:
    """A rival process with a queue of commands for the game wins race after race: the
    loser keeps deciding again for as long as its race seconds allow, however many tries."""
    lost = losing(table, 100)
    before = table.service.current(table.game_id).state.treasury["stark"]
    table.service.pause = lambda _seconds: None  # type: ignore[method-assign]
    outcome = table.service.handle(table.game_id, GOLD, table.host)
    assert len(lost) == 100 and outcome.version > table.started
    assert table.service.current(table.game_id).state.treasury["stark"] == before + 1


def test_each_race_lost_pauses_a_random_while_that_grows_so_racers_fall_out_of_step(
    table: Table,
) -> None:
    losing(table, 3)
    pauses: list[float] = []
    table.service.pause = pauses.append  # type: ignore[method-assign]
    outcome = table.service.handle(table.game_id, GOLD, table.host)
    assert outcome.version > table.started and len(pauses) == 3
    assert all(0 <= p <= bound for p, bound in zip(pauses, (0.002, 0.004, 0.008), strict=True))


def test_a_refused_command_leaves_the_log_unchanged(table: Table) -> None:
    before = log(table)
    with pytest.raises(CourtError):
        table.service.handle(
            table.game_id, AdjustGold(house="stark", amount=-99, cause="x"), table.host
        )
    assert log(table) == before
    assert table.publisher.published[-1][1][-1].version == table.started


def test_the_cache_follows_appends_made_by_another_service(table: Table) -> None:
    other, other_store = open_service(table.url)
    assert table.service.current(table.game_id).version == table.started
    appended = other.handle(table.game_id, GOLD, table.host).version
    head = table.service.current(table.game_id)
    assert head.version == appended > table.started and head.state.treasury["stark"] == 11
    other_store.close()


def test_a_cached_head_that_ends_on_another_hash_than_the_log_is_not_served(
    table: Table,
) -> None:
    """Given a cached court at the stored version but on another chain (not the log's), the
    court served is the log's, folded again."""
    stored = table.service.current(table.game_id)
    rich = replace(stored.state, treasury={**stored.state.treasury, "stark": 1010})
    table.service.replay.remember(table.game_id, Head(stored.version, "0" * 64, rich))
    head = table.service.current(table.game_id)
    assert (head.version, head.hash) == (stored.version, stored.hash)
    assert head.state.treasury["stark"] == 10


def test_the_state_at_any_version_is_rebuilt_from_the_log(table: Table) -> None:
    gold = table.service.handle(table.game_id, GOLD, table.host).version
    assert table.service.state_at(table.game_id, 4).state.status.value == "lobby"
    start = table.started
    assert table.service.state_at(table.game_id, start).state.treasury["stark"] == 10
    assert table.service.state_at(table.game_id, gold).state.treasury["stark"] == 11
    for bad in (0, gold + 1):
        with pytest.raises(CourtError) as err:
            table.service.state_at(table.game_id, bad)
        assert err.value.code == "unknown_version"


def test_a_fresh_service_rebuilds_the_same_state_from_disk(table: Table) -> None:
    table.service.handle(table.game_id, GOLD, table.host)
    cold, cold_store = open_service(table.url)
    assert cold.current(table.game_id) == table.service.current(table.game_id)
    cold_store.close()


def test_tokens_authenticate_their_seat_and_nothing_else(table: Table) -> None:
    service = table.service
    head = service.current(table.game_id)
    assert service.authenticate(table.game_id, None) == (SPECTATOR, head)
    host, read = service.authenticate(table.game_id, table.tokens[0])
    assert (host, read.version) == (Actor(seat=Seat(0), host=True), head.version)
    assert service.authenticate(table.game_id, table.tokens[2])[0] == Actor(seat=Seat(2))
    with pytest.raises(BadToken):
        service.authenticate(table.game_id, "forged-token")
    with pytest.raises(UnknownGame):
        service.authenticate("no-such-game", table.tokens[0])


def test_records_are_published_after_they_are_stored(table: Table) -> None:
    table.publisher.published.clear()
    outcome = table.service.handle(table.game_id, GOLD, table.host)
    [(game_id, records, state)] = table.publisher.published
    assert game_id == table.game_id
    assert [r.version for r in records] == list(range(table.started + 1, outcome.version + 1))
    stored = log(table)[-1]
    assert (stored.version, stored.hash) == (records[-1].version, records[-1].hash)
    assert state.treasury["stark"] == 11


def test_a_refusal_on_a_stale_cache_is_decided_again_on_the_stored_log(table: Table) -> None:
    """Another process made the command legal: the cached court must not refuse it."""
    rival, rival_store = open_service(table.url)
    tax = AdjustGold(house="stark", amount=5, cause="tax")
    rival_version = rival.handle(table.game_id, tax, table.host).version
    spend = AdjustGold(house="stark", amount=-15, cause="ransom")
    outcome = table.service.handle(table.game_id, spend, table.host)
    assert outcome.version > rival_version and outcome.state.treasury["stark"] == 0
    rival_store.close()


def test_a_seat_given_up_through_another_process_acts_no_more_here(
    new_database: Callable[[], str],
) -> None:
    """Given a lobby whose seat 1 was given up through another service (process), while
    this service's cached head still holds the seat, when the seat sends a command here,
    then the command is decided again on the stored log and refused with bad_token, and
    nothing is stored (R-1.1: the seat's number is never given again)."""
    url = new_database()
    here, store = open_service(url)
    create = CreateGame(ruleset=load_ruleset(), players=3, host_name="Hostess", listed=True)
    game_id = here.handle(None, create, Actor(host=True)).state.game_id
    for house, name in (("stark", "Ann"), ("lannister", "Bob")):
        here.handle(game_id, JoinSeat(house=HouseId(house), player_name=name), SPECTATOR)
    seat_one = Actor(seat=Seat(1))
    there, there_store = open_service(url)
    left = there.handle(game_id, LeaveSeat(), seat_one).version
    assert Seat(1) in here.latest(game_id).state.seats  # this process has not heard yet

    with pytest.raises(BadToken) as err:
        here.handle(game_id, LeaveSeat(), seat_one)

    assert err.value.code == "bad_token"
    assert store.head(game_id).version == left  # type: ignore[union-attr]
    there_store.close()
    store.close()
