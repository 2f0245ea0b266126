"""`flask court replay GAME [--to N]`: the public court as it stood at a version, from the log."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from flask import Flask

from tests.server.tools.cli.court_shell import Court, Played


def treasuries(view: dict) -> dict[str, int | None]:
    return {h["id"]: h["treasury"] for h in view["houses"] if h["treasury"] is not None}


@pytest.mark.parametrize(
    ("version", "status", "seats"),
    [(1, "lobby", 0), (2, "lobby", 1), (3, "lobby", 2), (4, "lobby", 3), (5, "playing", 3)],
)
def test_replay_to_a_version_shows_the_court_at_that_moment(
    app: Flask, court: Court, played: Played, version: int, status: str, seats: int
) -> None:
    result = court(app, "replay", played.id, "--to", str(version))

    assert result.exit_code == 0, result.output
    view = json.loads(result.output)
    assert view["game"]["id"] == played.id
    assert view["game"]["version"] == version
    assert view["game"]["status"] == status
    assert len(view["seats"]) == seats
    assert view["viewer"]["role"] == "spectator"


def test_replay_before_the_start_has_no_treasuries_and_no_round(
    app: Flask, court: Court, played: Played
) -> None:
    view = json.loads(court(app, "replay", played.id, "--to", "4").output)

    assert treasuries(view) == {}
    assert view["game"]["round"] == 0
    assert view["game"]["phase"] is None


def test_replay_follows_each_gold_fact(app: Flask, court: Court, played: Played) -> None:
    """R-2.2 starting treasury, then the recorded facts of section 9 one at a time."""
    started, (first_gold, second_gold) = played.started, played.gold
    by_version = {
        v: treasuries(json.loads(court(app, "replay", played.id, "--to", str(v)).output))
        for v in (started, first_gold, second_gold)
    }

    assert by_version == {
        started: {"stark": 10, "lannister": 10, "tyrell": 10},
        first_gold: {"stark": 15, "lannister": 10, "tyrell": 10},
        second_gold: {"stark": 15, "lannister": 10, "tyrell": 7},
    }


def test_replay_without_to_is_the_newest_public_court_the_api_shows(
    app: Flask, court: Court, played: Played
) -> None:
    result = court(app, "replay", played.id)

    assert result.exit_code == 0
    view = json.loads(result.output)
    assert view["game"]["version"] == played.gold[1]
    shown = app.test_client().get(f"/api/games/{played.id}").get_json()
    # The server signs what it shows a player; the shell's replay is no showing
    assert "checkpoint" in shown and "checkpoint" not in view
    assert view == {k: v for k, v in shown.items() if k != "checkpoint"}


def test_replay_never_prints_a_secret(app: Flask, court: Court, played: Played) -> None:
    output = "".join(
        court(app, "replay", played.id, "--to", str(v)).output for v in range(1, played.gold[1] + 1)
    )

    assert "token_sha256" not in output
    assert played.host_token not in output
    assert all(token not in output for token in played.tokens.values())
    assert '"dice_seed": null' in output


def test_replay_of_an_unknown_game_fails_naming_it(
    app: Flask, court: Court, played: Played
) -> None:
    result = court(app, "replay", "no-such-game")

    assert result.exit_code != 0
    assert "unknown_game" in result.output
    assert "no-such-game" in result.output


@pytest.mark.parametrize(
    "version",
    [lambda head: str(head + 1), lambda head: "0", lambda head: "-1", lambda head: "1000000"],
    ids=["past-the-head", "0", "-1", "1000000"],
)
def test_replay_to_a_version_that_does_not_exist_fails(
    app: Flask, court: Court, played: Played, version: Callable[[int], str]
) -> None:
    result = court(app, "replay", played.id, "--to", version(played.gold[1]))

    assert result.exit_code != 0
    assert "unknown_version" in result.output
    assert "{" not in result.output


def test_games_lists_every_stored_game_newest_first(
    app: Flask, court: Court, played: Played
) -> None:
    newer = app.test_client().post("/api/games", json={"players": 4, "host_name": "Robert"})

    result = court(app, "games")

    assert result.exit_code == 0
    assert result.output.split() == [newer.get_json()["game_id"], played.id]
