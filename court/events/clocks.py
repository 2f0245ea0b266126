"""Events of the players' clocks (R-4.3 [D] clocks variant): a time bank starts and stops
running. They carry the server's time, so a replay of the log rebuilds every bank exactly."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from court.events.base import Event
from court.ids import Seat


@dataclass(frozen=True, slots=True, kw_only=True)
class ClockStarted(Event):
    """The court began to wait on `seat` in a step of `kind` (candidacy, ballot, decree,
    title_choice, purchase): his time bank for that kind runs from `at` (seconds since the
    epoch)."""

    FOLLOWS_NO_FACT: ClassVar[bool] = True

    seat: Seat
    kind: str
    at: float


@dataclass(frozen=True, slots=True, kw_only=True)
class ClockStopped(Event):
    """The court stopped waiting on `seat` at `at` (he acted, or his time ran out, or the step
    closed): the time since his clock started is taken from his bank, never below zero.
    `acted`: he stopped it by a move of his own in the step (only that earns the increment)."""

    FOLLOWS_NO_FACT: ClassVar[bool] = True

    seat: Seat
    kind: str
    at: float
    acted: bool = False
