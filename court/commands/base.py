"""Who sends a command: the actor a seat token stands for."""

from __future__ import annotations

from dataclasses import dataclass

from court.ids import Seat


@dataclass(frozen=True, slots=True, kw_only=True)
class Actor:
    """Who sends a command: a seat, the host, both, the game master named at creation (who
    records facts, section 9), or a spectator (none of them)."""

    seat: Seat | None = None
    host: bool = False
    master: bool = False

    @property
    def spectator(self) -> bool:
        return self.seat is None and not self.host and not self.master

    @property
    def recorder(self) -> bool:
        """May record what happened outside the court (section 9)."""
        return self.host or self.master


SPECTATOR = Actor()
