"""`flask court simulate`: whole seeded games played through the real service and store,
stored like real games, with a summary line each."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import Flask

from app import create_app
from court.events import EVENT_TYPES
from server.service.profiles import Profiles
from tests.config.operator_config import config_folder
from tests.server.tools.cli.court_shell import Court, Played

LINE = re.compile(
    r"game (?P<id>[0-9a-f]{12}) seed (?P<seed>\d+): (?P<players>\d) players, variants \S+, "
    r"profile (?P<profile>[a-z0-9_-]+), (?P<status>playing|ended) in round (?P<round>\d+), "
    r"(?P<events>\d+) events, .* problems 0"
)


SUMMARY = re.compile(r"(?P<games>\d+) game\(s\), 0 with problems, [0-9.]+ games per second")


def test_simulate_plays_seeded_games_into_a_throwaway_database_and_prints_a_summary(
    app: Flask, court: Court, played: Played
) -> None:
    """Simulated games never reach the live database unless it is named."""
    result = court(
        app, "simulate", "--players", "4", "--rounds", "2", "--seed", "7", "--games", "2"
    )

    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    games = [LINE.fullmatch(line) for line in lines[:2]]
    assert all(games), lines
    assert [g["seed"] for g in games] == ["7", "8"]
    assert all(g["players"] == "4" and int(g["round"]) >= 2 for g in games)
    assert SUMMARY.fullmatch(lines[2]), lines[2]
    assert court(app, "games", "--ids").output.split() == [played.id]


def test_simulate_stores_the_games_in_the_database_it_is_told(
    app: Flask, court: Court, tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path}/kept.db"
    result = court(app, "simulate", "--rounds", "1", "--games", "2", "--database", url)
    assert result.exit_code == 0, result.output
    kept = create_app({"DATABASE_URL": url})
    try:
        stored = court(kept, "games", "--ids").output.split()
        assert len(stored) == 2
        for game in stored:
            assert court(kept, "verify", game).output.startswith("ok: ")
    finally:
        kept.extensions["court_store"].close()


def test_simulate_cycles_player_counts_and_variant_mixes(app: Flask, court: Court) -> None:
    """Every player count R-1.1 allows with every mix of the variants, in turn; the first
    games of a run play every variant (the first all at once, the clocks among them)."""
    result = court(
        app, "simulate", "--players", "3-6", "--variants", "all", "--rounds", "1", "--games", "8"
    )
    assert result.exit_code == 0, result.output
    lines = [LINE.fullmatch(line) for line in result.output.splitlines()[:8]]
    assert [g["players"] for g in lines if g] == ["3", "4", "5", "6"] * 2
    mixes = [line.split("variants ")[1].split(", ")[0] for line in result.output.splitlines()[:8]]
    assert mixes[:6] == [
        "nights_watch,title_concession,sealed_ballots,clocks",
        "none",
        "nights_watch",
        "title_concession",
        "sealed_ballots",
        "clocks",
    ]


def test_simulate_draws_each_games_profile_unless_one_is_named(app: Flask, court: Court) -> None:
    """Every [D] setting drawn from its allowed values (court/model/profile.py), or a named profile
    played as it is."""
    drawn = court(app, "simulate", "--rounds", "1", "--games", "2")
    named = court(app, "simulate", "--rounds", "1", "--profile", "default")
    assert drawn.exit_code == 0 and named.exit_code == 0, drawn.output + named.output
    assert [LINE.fullmatch(x)["profile"] for x in drawn.output.splitlines()[:2]] == ["random"] * 2
    assert LINE.fullmatch(named.output.splitlines()[0])["profile"] == "default"


def test_simulate_counts_the_event_types_and_rule_ids_a_run_reached(
    app: Flask, court: Court
) -> None:
    """--coverage: every event type and every rule id of the court rules with its count in
    the run, then what it reached fewer than 10 times."""
    result = court(app, "simulate", "--rounds", "2", "--games", "2", "--coverage")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    counts = {}
    for line in lines[lines.index("event type                 count") + 1 :]:
        if not line.strip():
            break
        name, count = line.split()
        counts[name] = int(count)
    assert set(counts) == set(EVENT_TYPES) and counts["GameCreated"] == 2
    rules = lines[lines.index("rule id                    count") + 1 :]
    assert rules[0].split()[0] == "R-1.1" and int(rules[0].split()[1]) > 0
    at = next(i for i, line in enumerate(lines) if line.startswith("reached fewer than 10 "))
    listed = lines[at + 1 :]
    assert len(listed) == int(lines[at].rsplit(" ", 1)[1]) > 0
    assert "  GameEnded: 0 (not reached often enough)" in listed  # two games of two rounds


@pytest.mark.parametrize(
    ("option", "value"),
    [("--players", "7"), ("--players", "2-4"), ("--players", "x"), ("--variants", "dragons")],
)
def test_simulate_refuses_options_the_rules_do_not_allow(
    app: Flask, court: Court, option: str, value: str
) -> None:
    """R-1.1: 3 to 6 players; the variants are the profile's."""
    result = court(app, "simulate", option, value)
    assert result.exit_code == 2
    assert "Invalid value" in result.output


def test_simulate_plays_a_profile_beside_one_that_cannot_be_used(
    app: Flask, court: Court, tmp_path: Path
) -> None:
    """An operator's profile with an old rule number is refused by name and reason; the
    others play as ever."""
    app.extensions["profiles"] = Profiles(config_dir=config_folder(tmp_path))

    quick = court(app, "simulate", "--profile", "quick", "--rounds", "1")
    old = court(app, "simulate", "--profile", "old", "--rounds", "1")

    assert quick.exit_code == 0, quick.output
    assert LINE.fullmatch(quick.output.splitlines()[0])["profile"] == "quick"  # type: ignore[index]
    assert old.exit_code == 2
    assert "error: unknown_profile: profiles/old.toml: purchases.sept_cost 5" in old.output
