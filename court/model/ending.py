"""How a game ended, as the court holds it once it has: by the victory check of phase 8
(R-4.7), at the last round (R-4.8) or by the table's vote (R-9.2), with every seat's victory
points then."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from court.ids import Seat


class How(StrEnum):
    VICTORY = "victory"
    LAST_ROUND = "last_round"
    TABLE = "table"


@dataclass(frozen=True, slots=True, kw_only=True)
class Ending:
    how: How
    points: dict[Seat, int] = field(default_factory=dict)
