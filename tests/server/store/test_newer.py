"""What a process learns of another's appends (server/live/relay.py catches its clients up
with it): the newest state and exactly the records it had not folded, in one read."""

from __future__ import annotations

from court.commands import AdjustGold
from server.service.court_service import CourtService
from server.store.sql import SqlEventStore
from tests.server.store.conftest import Table

GOLD = AdjustGold(house="stark", amount=1, cause="tax")


def test_the_records_another_process_appended_are_given_once_with_the_new_head(
    table: Table,
) -> None:
    # Given this process's cached head and another process on the same database
    before = table.service.latest(table.game_id)
    other_store = SqlEventStore(table.url)
    other = CourtService(other_store)
    # When the other appends twice, and this process asks what is newer
    other.handle(table.game_id, GOLD, table.host)
    last = other.handle(table.game_id, GOLD, table.host)
    head, records = table.service.newer(table.game_id)
    # Then it gets every record after its head, in order, and the state they made
    assert [r.version for r in records] == list(range(before.version + 1, last.version + 1))
    assert head.version == last.version and head.hash == records[-1].hash
    assert head.state == last.state
    assert table.service.latest(table.game_id) == head
    # And asking again gives nothing new
    again, none = table.service.newer(table.game_id)
    assert again == head and none == []
    other_store.close()
