"""Commands of an election: stand, place markers (R-7)."""

from __future__ import annotations

from dataclasses import dataclass

from court.ids import NobleId


@dataclass(frozen=True, slots=True, kw_only=True)
class StandForElection:
    noble: NobleId


@dataclass(frozen=True, slots=True, kw_only=True)
class MarkerChoice:
    kind: str
    candidate: NobleId
    salt: str


@dataclass(frozen=True, slots=True, kw_only=True)
class PlaceBallot:
    """None, one or both markers; salts come from the server, never from the client."""

    markers: tuple[MarkerChoice, ...]


ElectionCommand = StandForElection | PlaceBallot
