"""`flask court verify GAME`: the hash chain holds, and any edit made behind the server's back
(the append-only triggers dropped) is found, naming the first bad record (section 10)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable

import pytest
from flask import Flask

from tests.server.tools.cli.court_shell import Court, Played, tamper

MakeApp = Callable[[str], Flask]
GAME = "game_id = ? AND version = ?"


def test_verify_an_intact_game_prints_ok_and_exits_0(
    app: Flask, court: Court, played: Played
) -> None:
    result = court(app, "verify", played.id)

    assert result.exit_code == 0
    assert result.output.startswith(f"ok: {played.gold[1]} records, head ")
    head = app.test_client().get(f"/api/games/{played.id}/verify").get_json()["head"]
    assert head in result.output


def test_verify_an_unknown_game_fails_naming_it(app: Flask, court: Court) -> None:
    result = court(app, "verify", "no-such-game")

    assert result.exit_code not in (0, 1)
    assert "unknown_game" in result.output


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE event_records SET data = '{}' WHERE version = 7",
        "DELETE FROM event_records WHERE version = 7",
    ],
    ids=["update", "delete"],
)
def test_the_database_refuses_to_change_a_stored_record(played: Played, sql: str) -> None:
    """The log is append-only: SQLite triggers refuse UPDATE and DELETE."""
    with (
        sqlite3.connect(played.db) as conn,
        pytest.raises(sqlite3.DatabaseError, match="append-only"),
    ):
        conn.execute(sql)
    conn.close()


Statement = tuple[str, tuple[object, ...]]


def edited_data(played: Played, version: int, **changes: object) -> str:
    with sqlite3.connect(played.db) as conn:
        (raw,) = conn.execute(
            f"SELECT data FROM event_records WHERE {GAME}", (played.id, version)
        ).fetchone()
    conn.close()
    return json.dumps({**json.loads(raw), **changes})


def set_column(played: Played, version: int, column: str, value: object) -> list[Statement]:
    return [(f"UPDATE event_records SET {column} = ? WHERE {GAME}", (value, played.id, version))]


def delete(played: Played, version: int) -> list[Statement]:
    return [(f"DELETE FROM event_records WHERE {GAME}", (played.id, version))]


def swap(played: Played, a: int, b: int) -> list[Statement]:
    """Exchange the versions of two records (through -1: (game, version) is unique)."""
    return [
        *set_column(played, a, "version", -1),
        *set_column(played, b, "version", a),
        *set_column(played, -1, "version", b),
    ]


SEAT_TOKEN = json.dumps({"token_sha256": "0" * 64})
OTHER_TIME = "2000-01-01T00:00:00.000000Z"

# Each edit of a played game, and the (index, version) of the first record that no longer fits
# the chain; a record's index is its version - 1. `p.gold` are the gold facts (the last: the head).
Tampering = tuple[list[Statement], int, int]
TAMPERING: dict[str, Callable[[Played], Tampering]] = {
    "gold-amount-edited": lambda p: (
        set_column(p, p.gold[0], "data", edited_data(p, p.gold[0], amount=500)),
        p.gold[0] - 1,
        p.gold[0],
    ),
    "cause-edited": lambda p: (
        set_column(p, p.gold[1], "data", edited_data(p, p.gold[1], cause="Gift")),
        p.gold[1] - 1,
        p.gold[1],
    ),
    "private-part-edited": lambda p: (set_column(p, 3, "private", SEAT_TOKEN), 2, 3),
    "recorded-at-edited": lambda p: (set_column(p, 5, "recorded_at", OTHER_TIME), 4, 5),
    "seat-edited": lambda p: (set_column(p, 4, "seat", 0), 3, 4),
    "middle-gold-deleted": lambda p: (delete(p, p.gold[0]), p.gold[0] - 1, p.gold[0] + 1),
    "gold-versions-swapped": lambda p: (swap(p, *p.gold), p.gold[0] - 1, p.gold[0]),
    "seat-versions-swapped": lambda p: (swap(p, 3, 4), 2, 3),
}


@pytest.mark.parametrize("edit", list(TAMPERING))
def test_verify_a_tampered_log_exits_1_naming_the_first_bad_record(
    app: Flask, make_app: MakeApp, court: Court, played: Played, edit: str
) -> None:
    statements, index, version = TAMPERING[edit](played)
    tamper(played.db, *statements)

    result = court(make_app("t"), "verify", played.id)

    assert result.exit_code == 1, result.output
    assert result.output.startswith(f"broken: record {index} (version {version}): ")


def test_verify_over_http_reports_the_same_first_bad_record(
    make_app: MakeApp, played: Played
) -> None:
    statements, _, _ = TAMPERING["gold-amount-edited"](played)
    tamper(played.db, *statements)
    first_gold = played.gold[0]

    body = make_app("t").test_client().get(f"/api/games/{played.id}/verify").get_json()

    assert body["ok"] is False
    assert (body["bad_index"], body["bad_version"], body["records"]) == (
        first_gold - 1,
        first_gold,
        first_gold - 1,
    )


@pytest.mark.parametrize(
    ("edit", "index", "version"),
    [
        (lambda p: delete(p, 3), 2, 4),
        (lambda p: set_column(p, 2, "data", "{}"), 1, 2),
    ],
    ids=["seat-record-deleted", "seat-record-emptied"],
)
def test_verify_reports_a_tampered_log_that_no_longer_replays(
    make_app: MakeApp,
    court: Court,
    played: Played,
    edit: Callable[[Played], list[Statement]],
    index: int,
    version: int,
) -> None:
    tamper(played.db, *edit(played))

    result = court(make_app("t"), "verify", played.id)

    assert result.exit_code == 1, result.output
    assert result.output.startswith(f"broken: record {index} (version {version}): ")


def test_verify_over_http_checks_the_log_so_far_and_the_cli_from_version_1(
    make_app: MakeApp, court: Court, played: Played
) -> None:
    # Given a server that checked the game once, and the head record then edited
    app = make_app("t")
    client = app.test_client()
    url = f"/api/games/{played.id}/verify"
    first = client.get(url).get_json()
    assert first["ok"] and (first["since"], first["records"]) == (0, played.gold[1])
    again = client.get(url).get_json()
    assert again["ok"] and again["since"] == played.gold[1]
    # When the gold fact before the head is edited in the database
    tamper(played.db, *set_column(played, played.gold[0], "recorded_at", OTHER_TIME))
    # Then the check so far, which starts at its checkpoint (the head), still passes, while
    # the CLI's check from version 1 names the record
    assert client.get(url).get_json()["ok"]
    result = court(make_app("t"), "verify", played.id)
    assert result.exit_code == 1
    assert f"(version {played.gold[0]})" in result.output
