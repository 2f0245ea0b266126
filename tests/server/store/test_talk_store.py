"""The talk store on SQLite and PostgreSQL: lines in a table of their own, chained per channel,
append-only, read back by channel and position."""

from __future__ import annotations

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from court import talk
from court.errors import ConcurrencyError
from court.talk import Said, chained_line, check_channels
from tests.server.store.conftest import Table

WHISPER = talk.whisper_channel("seat:0", "seat:1")


def said(channel: str, words: str) -> Said:
    return Said(
        game_id="g1",
        channel=channel,
        sender="seat:0",
        recipients=("seat:1",),
        court_version=3,
        said_at="2026-12-01T10:00:00.000000Z",
        text=words,
    )


def add(table: Table, channel: str, words: str):
    store = table.store.talk
    return store.add(chained_line(said(channel, words), store.channel_head("g1", channel)))


def test_lines_are_kept_apart_from_the_court_log_chained_per_channel(table: Table) -> None:
    before = table.store.head(table.game_id)
    first = add(table, talk.TABLE, "Greetings")
    secret = add(table, WHISPER, "Psst")
    second = add(table, talk.TABLE, "Well met")
    assert table.store.head(table.game_id) == before
    assert first.position < secret.position < second.position
    assert (second.number, second.prev_hash) == (2, first.hash)
    assert table.store.talk.channel_head("g1", talk.TABLE) == (2, second.hash)
    table_only = table.store.talk.lines_of("g1", [talk.TABLE])
    assert [line.text for line in table_only] == ["Greetings", "Well met"]
    everything = table.store.talk.lines_of("g1", [talk.TABLE, WHISPER], after=first.position)
    assert everything == [secret, second]
    assert all(c.ok for c in check_channels(table.store.talk.lines_of("g1", [talk.TABLE])))


def test_a_number_taken_in_the_channel_is_refused_as_a_lost_race(table: Table) -> None:
    add(table, talk.TABLE, "First")
    with pytest.raises(ConcurrencyError):
        table.store.talk.add(chained_line(said(talk.TABLE, "Also first"), None))
    assert len(table.store.talk.lines_of("g1", [talk.TABLE])) == 1


@pytest.mark.parametrize(
    "statement", ["UPDATE talk_lines SET text = 'forged'", "DELETE FROM talk_lines"]
)
def test_the_database_refuses_to_change_or_delete_a_line(table: Table, statement: str) -> None:
    add(table, talk.TABLE, "Said once")
    with pytest.raises(DBAPIError), table.store.engine.begin() as conn:
        conn.execute(text(statement))
    assert [line.text for line in table.store.talk.lines_of("g1", [talk.TABLE])] == ["Said once"]
