"""Commands of an election: stand, place markers (R-7)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

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
    """None, one or both markers. The salts are the server's, or the player's device's when it
    signs the move: it signs `committed`, the markers as the record publishes them (each
    commitment, with its candidate unless ballots are sealed), which `markers` must open."""

    markers: tuple[MarkerChoice, ...]
    committed: tuple[dict[str, Any], ...] | None = None


ElectionCommand = StandForElection | PlaceBallot
