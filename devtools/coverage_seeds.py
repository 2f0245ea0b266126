"""Seeds for the simulator's coverage test (tests/server/tools/sim/test_coverage.py): plays
simulated games as that test does and prints a few seeds whose games together reach every
event type and rule id the simulator can reach, cheapest first (by events played). Run it
again when the test says the simulator no longer reaches something with its seeds.

Run from the repo root: `.venv/bin/python -m devtools.coverage_seeds [--games N] [--rounds R]`.
"""

from __future__ import annotations

import argparse

from config.rulesdata import load_ruleset
from court.events import EVENT_TYPES
from server.store.sql import SqlEventStore
from server.tools.coverage import UNREACHABLE, rule_ids
from server.tools.sim_table import GameSummary
from server.tools.simulate import every_mix, plan, simulate
from tests.server.tools.sim.coverage_plan import CORRECTION_MOMENTS, PLAYERS, ROUNDS, reached_by


def cheapest_cover(games: list[GameSummary], wanted: set[str]) -> list[GameSummary]:
    """Greedily, the game that reaches most of what is still wanted per event it played."""
    chosen: list[GameSummary] = []
    left = set(wanted)
    while left:
        best = max(games, key=lambda g: len(reached_by(g) & left) / max(g.records, 1))
        if not reached_by(best) & left:
            break
        chosen.append(best)
        left -= reached_by(best)
    return chosen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    args = parser.parse_args()
    ruleset = load_ruleset()
    store = SqlEventStore("sqlite://")
    store.create_schema()
    games = []
    for seed in range(args.games):
        players, mix = plan(seed, list(PLAYERS), every_mix())
        games.append(
            simulate(store, ruleset, players=players, rounds=args.rounds, seed=seed, variants=mix)
        )
    wanted = {*EVENT_TYPES, *rule_ids()} - set(UNREACHABLE)
    wanted |= {f"a correction at {m}" for m in CORRECTION_MOMENTS}
    chosen = cheapest_cover(games, wanted)
    missing = wanted - set().union(*(reached_by(g) for g in chosen))
    print(f"seeds: {sorted(g.seed for g in chosen)}")
    print(f"events played: {sum(g.records for g in chosen)}")
    print(f"never reached in {args.games} games: {sorted(missing)}")


if __name__ == "__main__":
    main()
