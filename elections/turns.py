"""Turn order over seats numbered as they sit around the table: clockwise from the First
Player, skipping the seats with no part in a step, and where the First Player marker goes
next (R-1.1); then acting in that order: who acts next, and who has already acted (R-7.1)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from elections.markers import BallotError

S = TypeVar("S", bound=int)


def turn_order(
    seats: Sequence[S], first: S | None, taking_part: Callable[[S], object] | None = None
) -> tuple[S, ...]:
    """`seats` (in clockwise order) from `first` on, clockwise, leaving out the seats
    `taking_part` refuses. With no First Player yet, the seats as they sit."""
    if first is None or not seats:
        order = tuple(seats)
    else:
        i = seats.index(first)
        order = (*seats[i:], *seats[:i])
    return order if taking_part is None else tuple(s for s in order if taking_part(s))


def next_clockwise(seats: Sequence[S], seat: S) -> S:
    """The next seat clockwise after `seat`, round the table: where the First Player marker
    goes at the start of every round."""
    return seats[(seats.index(seat) + 1) % len(seats)]


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
