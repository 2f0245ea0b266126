"""The reveal and the count: FOR markers move all of a voter's votes, DECOYs count for nothing."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from elections.markers import MarkerKind


@dataclass(frozen=True, slots=True, kw_only=True)
class Revealed:
    voter: str
    candidate: str
    kind: MarkerKind


@dataclass(frozen=True, slots=True, kw_only=True)
class Tally:
    votes: dict[str, int]
    winner: str | None
    reason: str


def count(
    weights: Mapping[str, int],
    markers: Sequence[Revealed],
    candidates: Sequence[str],
    minimum: int = 0,
) -> Tally:
    """Result of R-7.1 steps 4-5: strict top, at least `minimum` votes; else nobody."""
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
    if len(leaders) > 1:
        return Tally(votes=votes, winner=None, reason="tie")
    if top < minimum:
        return Tally(votes=votes, winner=None, reason="below_minimum")
    return Tally(votes=votes, winner=leaders[0], reason="elected")
