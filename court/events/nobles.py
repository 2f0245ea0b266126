"""Events of a Noble's life at court: death, capture, the Outlaw mark, the Night's Watch,
attributes and newcomers (R-1.2 to R-1.4, R-6.5, R-8.1, R-8.3, R-8.4, section 9)."""

from __future__ import annotations

from dataclasses import dataclass

from court.events.base import Event
from court.ids import HouseId, NobleId, Seat
from court.model.ruleset import NobleCard


@dataclass(frozen=True, slots=True, kw_only=True)
class NobleDied(Event):
    """A Noble died; `cause` names how (battle, justice, assassination, uprising, ...)."""

    noble: NobleId
    cause: str


@dataclass(frozen=True, slots=True, kw_only=True)
class NobleCaptured(Event):
    """A Noble was taken captive by a House (R-8.1); `by` is the capturing Noble if known."""

    noble: NobleId
    captor: HouseId
    by: NobleId | None
    cause: str


@dataclass(frozen=True, slots=True, kw_only=True)
class NobleFreed(Event):
    """A captive went home: released, escaped or ransomed (R-8.1, R-8.2)."""

    noble: NobleId
    cause: str


@dataclass(frozen=True, slots=True, kw_only=True)
class OutlawDeclared(Event):
    noble: NobleId
    cause: str


@dataclass(frozen=True, slots=True, kw_only=True)
class OutlawPardoned(Event):
    """The Master of Laws or the King lifted the Outlaw mark (R-6.3)."""

    noble: NobleId
    by: str


@dataclass(frozen=True, slots=True, kw_only=True)
class TookTheBlack(Event):
    """The Noble became a Brother of the Night's Watch (R-8.3)."""

    noble: NobleId
    cause: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Deserted(Event):
    """A Brother broke his oath and left the Watch as an Outlaw (R-8.4)."""

    noble: NobleId
    seat: Seat


@dataclass(frozen=True, slots=True, kw_only=True)
class AttributeGained(Event):
    noble: NobleId
    attribute: str
    cause: str


@dataclass(frozen=True, slots=True, kw_only=True)
class NobleAdded(Event):
    """A Court Event brought a new Noble into a House (R-1.2)."""

    house: HouseId
    noble: NobleCard
    cause: str


@dataclass(frozen=True, slots=True, kw_only=True)
class DieRolled(Event):
    """Roll number `number` of the game's dice, for a Gods-cursed Noble (R-6.2, R-4.4)."""

    noble: NobleId
    number: int
    value: int


@dataclass(frozen=True, slots=True, kw_only=True)
class GoldPaid(Event):
    """Gold Dragons changed hands at court; `to_house` None is the bank (R-2.1). `held`: the
    bank holds the price until what was bought is delivered, or refunds it (the fourth council
    seat, R-4.6); a payment without it bought what came with it."""

    house: HouseId
    to_house: HouseId | None
    amount: int
    cause: str
    held: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class AllianceEnded(Event):
    """A marriage alliance ended (R-5.4)."""

    seats: tuple[Seat, ...]
    reason: str
