"""Turn order over seats numbered as they sit around the table: clockwise from the First
Player, skipping the seats with no part in a step, and where the First Player marker goes
next (R-1.1). Who acts next in that order is the court state's (`court/state.py`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

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
