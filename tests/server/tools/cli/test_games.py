"""`flask court games` lists each stored game in words an operator reads: its id first (for the
other commands), whose game it is, where it stands, its seats, whether it is listed, and how
many records it holds; `--ids` prints the ids alone, for scripts."""

from __future__ import annotations

from flask import Flask

from tests.server.tools.cli.court_shell import Court, Played


def test_each_game_is_listed_with_its_host_state_seats_and_records(
    app: Flask, court: Court, played: Played
) -> None:
    lobby = app.test_client().post(
        "/api/games", json={"players": 4, "host_name": "Cat", "listed": True}
    )
    waiting = lobby.get_json()["game_id"]

    listed = court(app, "games")

    assert listed.exit_code == 0, listed.output
    lines = {line.split()[0]: line for line in listed.output.splitlines()}
    assert set(lines) == {played.id, waiting}
    assert lines[played.id] == (
        f"{played.id}  Eddard's game  round 1, decrees phase  3 of 3 seats  private  "
        f"{played.gold[1]} records"
    )
    assert lines[waiting] == f"{waiting}  Cat's game  in the lobby  0 of 4 seats  listed  1 record"
    assert sorted(court(app, "games", "--ids").output.split()) == sorted([played.id, waiting])


def test_a_named_game_is_listed_by_its_name_and_its_host(app: Flask, court: Court) -> None:
    made = app.test_client().post(
        "/api/games", json={"players": 3, "host_name": "Ann", "name": "The Red Wedding"}
    )
    game_id = made.get_json()["game_id"]

    listed = court(app, "games")

    assert listed.exit_code == 0, listed.output
    assert listed.output.splitlines() == [
        f"{game_id}  “The Red Wedding”, Ann's game  in the lobby  0 of 3 seats  private  1 record"
    ]
