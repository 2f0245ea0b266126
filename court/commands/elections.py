"""Commands of an election: stand, place markers (R-7)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from court.commands.secrets import Drawn, Secret
from court.ids import NobleId


@dataclass(frozen=True, slots=True, kw_only=True)
class StandForElection:
    noble: NobleId


@dataclass(frozen=True, slots=True, kw_only=True)
class MarkerChoice:
    kind: str
    candidate: NobleId
    salt: str = ""  # empty: the server draws it


@dataclass(frozen=True, slots=True, kw_only=True)
class PlaceBallot:
    """None, one or both markers. The salts are the server's, or the player's device's when it
    signs the move: it signs `committed`, the markers as the record publishes them (each
    commitment, with its candidate unless ballots are sealed), which `markers` must open."""

    markers: tuple[MarkerChoice, ...]
    committed: tuple[dict[str, Any], ...] | None = None

    def needs(self) -> tuple[Secret, ...]:
        """A salt for each marker, unless they came salted (a signed ballot's, committed to
        by the device that drew them)."""
        return () if any(m.salt for m in self.markers) else (Secret.SALT,) * len(self.markers)

    def supplied(self, drawn: Drawn) -> PlaceBallot:
        salts = drawn.every(Secret.SALT)
        if not salts:
            return self
        markers = tuple(replace(m, salt=s) for m, s in zip(self.markers, salts, strict=True))
        return replace(self, markers=markers)


ElectionCommand = StandForElection | PlaceBallot
