"""FOR and DECOY markers, their commitments, and the checks on one player's placement (R-7.1.3).

A marker's commitment is SHA-256 of "<kind>:<candidate>:<salt>" (UTF-8), with a
random salt of 32 hex digits. It is published when the marker is placed; kind and
salt are published at the reveal, so anyone can recompute it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from enum import StrEnum


class MarkerKind(StrEnum):
    FOR = "for"
    DECOY = "decoy"


class BallotError(ValueError):
    """A placement the voting rules refuse; `code` is stable."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True, kw_only=True)
class Marker:
    """A marker as its owner places it: kind, candidate and salt."""

    kind: MarkerKind
    candidate: str
    salt: str

    @property
    def commitment(self) -> str:
        return commitment(self.kind, self.candidate, self.salt)


def commitment(kind: str, candidate: str, salt: str) -> str:
    return hashlib.sha256(f"{kind}:{candidate}:{salt}".encode()).hexdigest()


def check_placement(markers: Sequence[Marker], candidates: Collection[str]) -> None:
    """None, one or both of a player's two markers, each on a candidate (R-7.1 step 3)."""
    if len(markers) > 2:
        raise BallotError("too_many_markers", "You hold one FOR and one DECOY marker, no more.")
    kinds = [m.kind for m in markers]
    if len(set(kinds)) != len(kinds):
        raise BallotError(
            "duplicate_marker",
            f"You hold only one {kinds[0].value.upper()} marker (R-7.1).",
        )
    for m in markers:
        if m.candidate not in candidates:
            raise BallotError(
                "not_a_candidate", f"{m.candidate!r} is not a candidate in this election."
            )
    if len({m.salt for m in markers}) != len(markers):
        raise BallotError("reused_salt", "Each marker needs its own salt.")


def ordered(markers: Sequence[Marker]) -> tuple[Marker, ...]:
    """Markers in the order of their commitments, which says nothing of their kinds."""
    return tuple(sorted(markers, key=lambda m: m.commitment))
