"""Events of titles changing hands (R-3)."""

from __future__ import annotations

from dataclasses import dataclass

from court.events.base import Event
from court.ids import NobleId, Seat, TitleId


@dataclass(frozen=True, slots=True, kw_only=True)
class TitleRefused(Event):
    """The winner's player refused the title; it stays on the board (R-3.3)."""

    title: TitleId
    noble: NobleId
    seat: Seat


@dataclass(frozen=True, slots=True, kw_only=True)
class TitleGranted(Event):
    title: TitleId
    noble: NobleId
    cause: str


@dataclass(frozen=True, slots=True, kw_only=True)
class TitleReturned(Event):
    """A title went back to the board (R-3.2, R-3.4, R-3.8). `refund`: the price his House
    paid for it, given back in this same event when the choice after buying it with his slots
    full was taken from his player (a capture or the deadline, R-3.6, section 9)."""

    title: TitleId
    noble: NobleId
    reason: str
    refund: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class TitlePassed(Event):
    """A title of a full category was passed to another Noble (R-3.2)."""

    title: TitleId
    noble: NobleId
    to: NobleId


@dataclass(frozen=True, slots=True, kw_only=True)
class TitleSlotsExceeded(Event):
    """A Noble holds one title too many of a category; his player must pass or return one.
    `price`: what his House paid for the title that came (a Fief title bought, R-3.6)."""

    seat: Seat
    noble: NobleId
    category: str
    title: TitleId
    deadline: float | None
    price: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class TitleChoiceTimedOut(Event):
    """The title choice's deadline passed (R-4.3): a title won is taken (`kind` acceptance),
    a title one too many is returned to the board (`kind` overflow); the events follow."""

    seat: Seat
    noble: NobleId
    title: TitleId
    kind: str


@dataclass(frozen=True, slots=True, kw_only=True)
class TitleChoiceLapsed(Event):
    """The Noble whose player had to take or refuse a title died or was captured before he
    chose: the choice lapses and the title stays on the board (section 9, R-3.3); the fact's
    own events follow."""

    seat: Seat
    noble: NobleId
    title: TitleId
    reason: str
