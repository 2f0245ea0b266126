"""`flask court simulate`: whole seeded games played through the real service and store,
stored like real games, with a summary line each."""

from __future__ import annotations

import re

from flask import Flask

from tests.cli.court_shell import Court

LINE = re.compile(
    r"game (?P<id>[0-9a-f]{12}) seed (?P<seed>\d+): (?P<players>\d) players, variants \S+, "
    r"(?P<status>playing|ended) in round (?P<round>\d+), (?P<events>\d+) events, .* problems 0"
)


def test_simulate_plays_seeded_games_into_the_store_and_prints_a_summary(
    app: Flask, court: Court
) -> None:
    result = court(
        app, "simulate", "--players", "4", "--rounds", "2", "--seed", "7", "--games", "2"
    )

    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    games = [LINE.fullmatch(line) for line in lines[:2]]
    assert all(games), lines
    assert [g["seed"] for g in games] == ["7", "8"]
    assert all(g["players"] == "4" and int(g["round"]) >= 2 for g in games)
    assert lines[2] == "2 game(s), 0 with problems"
    stored = court(app, "games").output.split()
    assert {g["id"] for g in games} <= set(stored)
    for game in games:
        verified = court(app, "verify", game["id"])
        assert verified.output.startswith(f"ok: {game['events']} records"), verified.output


def test_simulate_refuses_a_player_count_the_rules_do_not_allow(app: Flask, court: Court) -> None:
    """R-1.1: 3 to 6 players."""
    result = court(app, "simulate", "--players", "7")
    assert result.exit_code == 2
    assert "3<=x<=6" in result.output or "range" in result.output
