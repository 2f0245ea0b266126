"""Acting in turn order: who acts next, and who has already acted (R-1.1, R-7.1)."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from elections.markers import BallotError


@dataclass(frozen=True, slots=True, kw_only=True)
class Turns:
    order: tuple[Hashable, ...]
    done: tuple[Hashable, ...] = ()

    @property
    def current(self) -> Hashable | None:
        return next((p for p in self.order if p not in self.done), None)

    @property
    def finished(self) -> bool:
        return self.current is None

    def require(self, actor: Hashable) -> None:
        if actor not in self.order:
            raise BallotError("not_in_this_step", "You have no part in this step.")
        if actor in self.done:
            raise BallotError("already_acted", "You have already acted in this step.")
        if actor != self.current:
            raise BallotError("not_your_turn", "It is not your turn yet (turn order, R-1.1).")

    def after(self, actor: Hashable) -> Turns:
        self.require(actor)
        return Turns(order=self.order, done=(*self.done, actor))

    def closed(self) -> Turns:
        """Everyone still to act is counted as having passed (R-4.3)."""
        return Turns(order=self.order, done=self.order)

    def waiting(self) -> tuple[Hashable, ...]:
        return tuple(p for p in self.order if p not in self.done)
