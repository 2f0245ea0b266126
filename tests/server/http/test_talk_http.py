"""Talk over HTTP: each caller reads the lines he is party to, pages them, checks his channels'
chains, and finds them in his export, which still imports."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient

from app import create_app
from court.commands import Actor
from court.ids import Seat
from server.keys.signing import talk_message
from tests.databases import migrated
from tests.server.http.court_client import Game, error_body
from tests.server.tools.cli.court_shell import rewrite_talk


def said(app: Flask, game: Game, seat: int, text: str, to: int | None = None):
    talk = app.extensions["talk"]
    actor = Actor(seat=Seat(seat), host=seat == 0)
    if to is None:
        return talk.say(game.id, actor, text)
    return talk.whisper(game.id, actor, to, text)


def test_a_seat_reads_the_table_and_his_own_whispers_in_pages(
    app: Flask, client: FlaskClient, game: Game
) -> None:
    said(app, game, 0, "To all")
    said(app, game, 0, "To Lannister", to=1)
    said(app, game, 1, "To Tyrell", to=2)
    lannister = client.get(f"/api/games/{game.id}/talk", headers=game.auth("lannister"))
    assert [line["text"] for line in lannister.get_json()["lines"]] == [
        "To all",
        "To Lannister",
        "To Tyrell",
    ]
    stark = client.get(f"/api/games/{game.id}/talk?limit=1", headers=game.auth("stark")).get_json()
    assert [line["text"] for line in stark["lines"]] == ["To all"]
    rest = client.get(
        f"/api/games/{game.id}/talk?after={stark['next_after']}", headers=game.auth("stark")
    ).get_json()
    assert [line["text"] for line in rest["lines"]] == ["To Lannister"]
    assert rest["next_after"] is None


def test_a_spectator_reads_no_talk(client: FlaskClient, game: Game) -> None:
    error_body(client.get(f"/api/games/{game.id}/talk"), 401, "token_required")
    error_body(client.get(f"/api/games/{game.id}/talk/verify"), 401, "token_required")
    error_body(client.get(f"/api/games/{game.id}/talk?after=-1", headers=game.auth("stark")), 400)


def test_each_channel_checks_and_a_line_changed_in_the_database_is_found(
    app: Flask, client: FlaskClient, game: Game
) -> None:
    said(app, game, 0, "One")
    said(app, game, 1, "Two")
    said(app, game, 0, "Psst", to=2)
    checked = client.get(f"/api/games/{game.id}/talk/verify", headers=game.auth("tyrell"))
    assert checked.get_json() == {
        "ok": True,
        "channels": [
            {
                "channel": "table",
                "ok": True,
                "lines": 2,
                "head": checked.get_json()["channels"][0]["head"],
                "problem": None,
                "unsigned": 0,
            },
            {
                "channel": "whisper:seat:0|seat:2",
                "ok": True,
                "lines": 1,
                "head": checked.get_json()["channels"][1]["head"],
                "problem": None,
                "unsigned": 0,
            },
        ],
    }
    engine = app.extensions["court_store"].engine
    with engine.begin() as conn:
        conn.exec_driver_sql("DROP TRIGGER talk_lines_no_update")
        conn.exec_driver_sql("UPDATE talk_lines SET text = 'Three' WHERE text = 'Two'")
    tampered = client.get(f"/api/games/{game.id}/talk/verify", headers=game.auth("tyrell"))
    table = tampered.get_json()["channels"][0]
    assert tampered.get_json()["ok"] is False
    assert (table["ok"], table["problem"]) == (False, "line 2 was changed after it was said")


def test_a_whisper_rewritten_and_rehashed_in_the_database_fails_its_check(
    app: Flask, client: FlaskClient, game: Game, tmp_path: Path
) -> None:
    # Given a whisper between Stark and Lannister, answered, each line signed by the server
    said(app, game, 0, "Meet me at the Twins", to=1)
    said(app, game, 1, "I will come", to=0)
    channel = "whisper:seat:0|seat:1"
    lines = client.get(f"/api/games/{game.id}/talk", headers=game.auth("lannister")).get_json()
    signing = app.extensions["court"].keys.signing
    for line in lines["lines"]:
        assert signing.verifies(line["signature"], talk_message(**_signed_fields(line)))
    before = client.get(f"/api/games/{game.id}/talk/verify", headers=game.auth("lannister"))
    assert before.get_json()["ok"] is True

    # When its first line is rewritten in the database and the channel's chain recomputed
    rewrite_talk(tmp_path / "t.db", game.id, channel, 1, "Meet me at the Eyrie")
    served = client.get(f"/api/games/{game.id}/talk", headers=game.auth("lannister")).get_json()
    assert served["lines"][0]["text"] == "Meet me at the Eyrie"

    # Then the chain agrees with itself, but the line carries no signature of the server's
    for reader in ("stark", "lannister"):
        checked = client.get(f"/api/games/{game.id}/talk/verify", headers=game.auth(reader))
        whisper = next(c for c in checked.get_json()["channels"] if c["channel"] == channel)
        assert checked.get_json()["ok"] is False
        assert whisper["problem"] == "line 1 is not signed by the server's key: it was changed"
    # ... and a reader of neither end is told nothing of it
    tyrell = client.get(f"/api/games/{game.id}/talk/verify", headers=game.auth("tyrell"))
    assert tyrell.get_json()["ok"] is True
    assert channel not in {c["channel"] for c in tyrell.get_json()["channels"]}


def test_lines_said_before_the_server_signed_talk_pass_their_check_counted_unsigned(
    app: Flask, client: FlaskClient, game: Game, tmp_path: Path
) -> None:
    # Given a table talk whose first two lines were said before the server signed talk lines
    # (a database upgraded to revision 0009: they have no row in talk_signatures)
    for text in ("One", "Two", "Three"):
        said(app, game, 0, text)
    with sqlite3.connect(tmp_path / "t.db") as conn:
        conn.execute("DELETE FROM talk_signatures WHERE position IN (1, 2)")
    conn.close()

    # When a seat checks it, then the chain holds and the two lines are counted unsigned
    checked = client.get(f"/api/games/{game.id}/talk/verify", headers=game.auth("tyrell"))
    table = checked.get_json()["channels"][0]
    assert checked.get_json()["ok"] is True
    assert (table["ok"], table["lines"], table["unsigned"]) == (True, 3, 2)
    lines = client.get(f"/api/games/{game.id}/talk", headers=game.auth("tyrell")).get_json()
    assert [line["signature"] == "" for line in lines["lines"]] == [True, True, False]

    # And when a signed line after them loses its signature too, the check names it
    with sqlite3.connect(tmp_path / "t.db") as conn:
        conn.execute("DELETE FROM talk_signatures WHERE position = 3")
        conn.execute("INSERT INTO talk_signatures (position, signature) VALUES (1, 'x')")
    conn.close()
    checked = client.get(f"/api/games/{game.id}/talk/verify", headers=game.auth("tyrell"))
    table = checked.get_json()["channels"][0]
    assert (table["ok"], table["unsigned"]) == (False, 0)
    assert table["problem"] == "line 1 is not signed by the server's key: it was changed"


def _signed_fields(line: dict[str, object]) -> dict[str, object]:
    return {
        "game_id": line["game_id"],
        "channel": line["channel"],
        "number": line["number"],
        "hash_": line["hash"],
    }


def test_an_export_holds_the_callers_talk_after_the_log_and_still_imports(
    app: Flask, client: FlaskClient, game: Game, tmp_path: Path
) -> None:
    said(app, game, 0, "To all")
    said(app, game, 0, "To Lannister", to=1)
    exported = client.get(f"/api/games/{game.id}/export", headers=game.auth("tyrell"))
    lines = [json.loads(line) for line in exported.get_data(as_text=True).splitlines()]
    talk = [line["talk"] for line in lines if "talk" in line]
    assert [line["text"] for line in talk] == ["To all"]
    assert all("talk" in line for line in lines[len(lines) - len(talk) :])
    other = create_app({"DATABASE_URL": migrated(tmp_path / "other.db")})
    try:
        result = other.extensions["court"].import_log(iter(lines))
        assert result.ok and result.records == game.started
    finally:
        other.extensions["court_store"].close()
    lannister = client.get(f"/api/games/{game.id}/export", headers=game.auth("lannister"))
    assert "To Lannister" in lannister.get_data(as_text=True)
