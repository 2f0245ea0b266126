"""The rules soak: `flask court simulate`'s games at scale, and the stateful property test
played far longer than in `make test`.

Run from the repo root: `.venv/bin/python bench/soak.py [--games N] [--rounds R]`. Plays N
seeded games (default 1,200) of 40 rounds over 3, 4, 5 and 6 players and every mix of the
variants, each with its rules profile drawn (every setting from its allowed values), one
worker process a core, each game in a throwaway SQLite database, the court checked after every
event and the log verified deeply at the end; then the property test (tests/property/machine.py)
with many more examples. Prints `name: value` lines, then how many times each event type and
rule id occurred (server/tools/coverage.py) and the known findings (breaches already reproduced
by a strict xfail test of tests/court/test_soak_findings.py), and exits 1 with `FAILED: <name>`
lines when any game has another problem, when the run reached an event type or rule id fewer
than 10 times without saying why it cannot, or when the property test fails: the floor is zero
problems.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from common import ROOT, emit, machine_line  # repo root on sys.path

from config.rulesdata import load_ruleset
from server.store.sql import SqlEventStore
from server.tools.coverage import UNREACHABLE, Coverage
from server.tools.sim_oracles import FINDINGS, known
from server.tools.simulate import every_mix, plan, simulate

PLAYERS = (3, 4, 5, 6)


def _batch(args: tuple[int, int, int]) -> tuple[int, int, int, list[str], Coverage, Counter[str]]:
    """Games `start` to `stop`: (games, events, facts, problems, what they reached, the known
    findings by the test that reproduces each)."""
    start, stop, rounds = args
    ruleset = load_ruleset()
    games = events = facts = 0
    problems: list[str] = []
    reached, findings = Coverage(), Counter[str]()
    mixes = every_mix()
    with tempfile.TemporaryDirectory(prefix="soak-") as scratch:
        store = SqlEventStore(f"sqlite:///{Path(scratch) / 'soak.db'}")
        store.create_schema()
        try:
            for n in range(start, stop):
                players, mix = plan(n, list(PLAYERS), mixes)
                summary = simulate(
                    store, ruleset, players=players, rounds=rounds, seed=n, variants=mix
                )
                reached.merge(summary.coverage)
                findings.update(str(known(p)) for p in summary.known)
                games += 1
                events += summary.records
                facts += summary.facts + summary.facts_refused
                problems += [f"seed {n}: {p}" for p in summary.problems[:3]]
        finally:
            store.close()
    return games, events, facts, problems, reached, findings


def simulated(games: int, rounds: int, workers: int) -> tuple[bool, bool]:
    """Whether the games had no problem, and whether they reached every event type and rule
    id often enough (or said why not)."""
    size = max(1, games // (workers * 8))
    batches = [(n, min(n + size, games), rounds) for n in range(0, games, size)]
    started = time.perf_counter()
    with ProcessPoolExecutor(workers) as pool:
        results = list(pool.map(_batch, batches))
    seconds = time.perf_counter() - started
    played = sum(r[0] for r in results)
    problems = [p for r in results for p in r[3]]
    emit("soak_games", played)
    emit("soak_rounds", rounds)
    emit("soak_events", sum(r[1] for r in results))
    emit("soak_facts", sum(r[2] for r in results))
    emit("soak_games_per_s", played / seconds, 2)
    emit("soak_events_per_s", sum(r[1] for r in results) / seconds)
    emit("soak_problems", len(problems))
    for problem in problems[:20]:
        print(f"  problem: {problem}", file=sys.stderr)
    findings = sum((r[5] for r in results), Counter[str]())
    emit("soak_known_findings", sum(findings.values()))
    for test, n in sorted(findings.items()):
        print(f"  known ({FINDINGS}): {test}: {n}")
    reached = Coverage()
    for result in results:
        reached.merge(result[4])
    short = reached.short()
    emit("soak_short_of_coverage", len(short))
    print("\n".join(reached.table()))
    return not problems, all(name in UNREACHABLE for name, _, _ in short)


def machine(examples: int, steps: int) -> bool:
    env = {
        **os.environ,
        "COURT_MACHINE_EXAMPLES": str(examples),
        "COURT_MACHINE_STEPS": str(steps),
        "CI": "",  # random examples, not the suite's fixed ones
    }
    started = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/property"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    emit("machine_examples", examples)
    emit("machine_steps", steps)
    emit("machine_seconds", time.perf_counter() - started, 1)
    emit("machine_failures", 0 if result.returncode == 0 else 1)
    if result.returncode != 0:
        print(result.stdout[-4000:], file=sys.stderr)
    return result.returncode == 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1200)
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--examples", type=int, default=400)
    parser.add_argument("--steps", type=int, default=400)
    args = parser.parse_args()
    failed = []
    sound, covered = simulated(args.games, args.rounds, args.workers)
    if not sound:
        failed.append("soak_problems")
    if not covered:
        failed.append("soak_coverage")
    if not machine(args.examples, args.steps):
        failed.append("machine_failures")
    emit("machine", machine_line())
    for name in failed:
        print(f"FAILED: {name}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
