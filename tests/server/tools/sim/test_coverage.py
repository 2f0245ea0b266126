"""The simulator plays everything the table can send: a few seeded games reach every event type
and every rule id of the court rules at least once (the host's corrections, R-9.1, and the
table's votes, R-9.2, among them), unless server/tools/coverage.py names it unreachable with
its reason, in one place. A capability added later without teaching the simulator fails here;
so does a rule id nothing a run counts is declared to exercise (its count would be 0 whether
or not a game reached it)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from config.rulesdata import load_ruleset
from court.events import EVENT_TYPES
from server.store.sql import SqlEventStore
from server.tools.coverage import (
    DECISIONS,
    REFUSALS,
    UNREACHABLE,
    Coverage,
    declared_rules,
    rule_ids,
)
from server.tools.sim_table import GameSummary
from server.tools.simulate import every_mix, plan, simulate
from tests.server.tools.sim.coverage_plan import CORRECTION_MOMENTS, PLAYERS, ROUNDS, reached_by

ROOT = Path(__file__).resolve().parents[4]
# Games that together reach everything, cheaply: devtools/coverage_seeds.py picks them anew
# when the simulator changes what a seed plays.
SEEDS = (8, 22, 23, 32, 34, 39, 48, 51, 60, 99)


def test_every_rule_id_of_the_court_rules_is_declared_exercised_by_something_counted() -> None:
    """R-9.1, R-9.2 and every other id: a record's type or decision, or a refusal's code."""
    assert {"R-9.1", "R-9.2"} <= set(rule_ids())
    assert set(rule_ids()) - declared_rules() == set()


def test_what_is_named_unreachable_exists_and_says_why() -> None:
    assert set(UNREACHABLE) <= {*EVENT_TYPES, *rule_ids()}
    assert all(len(why) > 20 for why in UNREACHABLE.values())


def test_every_refusal_code_and_decision_declared_is_the_courts_own() -> None:
    """A code nobody raises or a type nobody records would count nothing."""
    source = "\n".join(p.read_text() for p in (ROOT / "court").rglob("*.py"))
    assert [c for c in REFUSALS if not re.search(rf'"{c}"', source)] == []
    assert [n for n, d in DECISIONS.items() if d.event not in EVENT_TYPES] == []


def test_a_correction_counts_the_rules_its_kind_of_fact_exercises() -> None:
    """R-9.1: a death corrected also exercised R-1.4; a refusal counts its code's rules and
    those its message names."""
    reached = Coverage()
    made = {"correction": {"fact": "death"}, "votes": 2, "seats": 3, "voters": [0, 1]}
    reached.add("CorrectionMade", "The table accepted the correction.", made)
    reached.refused("death_had_consequences", "His titles passed on (R-1.4, R-5.4).")
    assert reached.rules == {"§9": 1, "R-9.1": 2, "R-1.4": 2, "R-5.4": 1}
    assert reached.refusals == {"death_had_consequences": 1}


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> list[GameSummary]:
    store = SqlEventStore(f"sqlite:///{tmp_path_factory.mktemp('cover') / 'cover.db'}")
    store.create_schema()
    ruleset, games = load_ruleset(), []
    try:
        for seed in SEEDS:
            players, mix = plan(seed, list(PLAYERS), every_mix())
            games.append(
                simulate(store, ruleset, players=players, rounds=ROUNDS, seed=seed, variants=mix)
            )
    finally:
        store.close()
    return games


@pytest.fixture(scope="module")
def reached(played: list[GameSummary]) -> Coverage:
    reached = Coverage()
    for summary in played:
        reached.merge(summary.coverage)
    return reached


def test_the_seeded_games_keep_every_rule(played: list[GameSummary]) -> None:
    assert {s.seed: s.problems[:3] for s in played if s.problems} == {}


def test_a_few_seeded_games_reach_every_event_type_and_rule_id(reached: Coverage) -> None:
    never = [name for name, _, _ in reached.short(floor=1) if name not in UNREACHABLE]
    assert never == [], (
        "the simulator never reached these: teach it (server/tools/sim_*.py), or name them in "
        "server/tools/coverage.py's UNREACHABLE with the reason; if it still reaches them in "
        "other games, pick the seeds anew with devtools/coverage_seeds.py"
    )


def test_what_is_named_unreachable_is_not_reached(reached: Coverage) -> None:
    counts = {**reached.events, **reached.rules}
    assert [name for name in UNREACHABLE if counts.get(name)] == []


def test_corrections_are_taken_to_a_vote_at_every_moment_of_the_round(
    played: list[GameSummary],
) -> None:
    """R-9.1: mid-ballot, mid-sale, mid-choice, mid-decree, at the table, after later records."""
    taken = set().union(*(reached_by(s) for s in played))
    assert [m for m in CORRECTION_MOMENTS if f"a correction at {m}" not in taken] == []
