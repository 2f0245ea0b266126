"""The reveal and the count: FOR markers move all of a voter's votes, DECOYs count for nothing."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from elections.markers import MarkerKind

# A candidate's id: any string type the caller names its candidates with.
C = TypeVar("C", bound=str)


@dataclass(frozen=True, slots=True, kw_only=True)
class Revealed(Generic[C]):
    voter: str
    candidate: C
    kind: MarkerKind


@dataclass(frozen=True, slots=True, kw_only=True)
class Tally(Generic[C]):
    votes: dict[C, int]
    winner: C | None
    reason: str


def count(
    weights: Mapping[str, int],
    markers: Sequence[Revealed[C]],
    candidates: Sequence[C],
    minimum: int = 0,
    tie_break: Sequence[C] | None = None,
) -> Tally[C]:
    """Result of R-7.1 steps 4-5: strict top, at least `minimum` votes; else nobody. With a
    `tie_break` order, a tie at the top goes to the leader who comes first in it."""
    votes = {c: 0 for c in candidates}
    for m in markers:
        if m.kind is MarkerKind.FOR and m.candidate in votes:
            votes[m.candidate] += weights.get(m.voter, 0)
    if not candidates:
        return Tally(votes=votes, winner=None, reason="no_candidate")
    top = max(votes.values())
    leaders = [c for c, v in votes.items() if v == top]
    if top == 0:
        return Tally(votes=votes, winner=None, reason="no_votes")
    reason = "elected"
    if len(leaders) > 1:
        if tie_break is None:
            return Tally(votes=votes, winner=None, reason="tie")
        leaders = sorted(leaders, key=lambda c: _rank(tie_break, c))[:1]
        reason = "tie_broken"
    if top < minimum:
        return Tally(votes=votes, winner=None, reason="below_minimum")
    return Tally(votes=votes, winner=leaders[0], reason=reason)


def _rank(order: Sequence[C], candidate: C) -> int:
    return order.index(candidate) if candidate in order else len(order)
