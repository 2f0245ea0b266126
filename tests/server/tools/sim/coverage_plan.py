"""What the simulator's coverage test plays and counts: the table sizes, the rounds, where
corrections are taken to a vote, and what a game reached (devtools/coverage_seeds.py picks the
test's seeds with them)."""

from __future__ import annotations

from server.tools.sim_table import GameSummary

PLAYERS = (3, 4, 5, 6)
ROUNDS = 30


# Where the host's corrections are taken to a vote: in the middle of a ballot, of the
# council seat's sale and of a title choice, in a decree step, and of records others followed.
CORRECTION_MOMENTS = (
    "election ballot",
    "council seat sale",
    "title choice (acceptance)",
    "decree marriages",
    "phase battles",
    "after later records",
)


def reached_by(summary: GameSummary) -> set[str]:
    """What a game reached: event types, rule ids, and the moments of its corrections."""
    moments = {f"a correction at {m}" for m in summary.corrections}
    return {*summary.coverage.events, *summary.coverage.rules, *moments}
