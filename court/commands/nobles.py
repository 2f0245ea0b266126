"""Recorded facts of a Noble's life and Court Events (host only, section 9)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from court.ids import HouseId, NobleId, TitleId


class DeathKind(StrEnum):
    """How a recorded death came about (section 9)."""

    BATTLE = "battle"
    JUSTICE = "justice"
    ASSASSINATION = "assassination"
    UPRISING = "uprising"
    WALL = "wall"
    OTHER = "other"


@dataclass(frozen=True, slots=True, kw_only=True)
class RecordCapture:
    """Host fact: a Noble was taken captive by another House (R-8.1), by one of its Nobles
    when `by` is known."""

    noble: NobleId
    house: HouseId
    by: NobleId | None = None
    cause: str


@dataclass(frozen=True, slots=True, kw_only=True)
class RecordRelease:
    """Host fact: the captor let a captive go (R-8.1)."""

    noble: NobleId
    cause: str


@dataclass(frozen=True, slots=True, kw_only=True)
class RecordEscape:
    """Host fact: a captive escaped (R-8.1)."""

    noble: NobleId
    cause: str


@dataclass(frozen=True, slots=True, kw_only=True)
class RecordDeath:
    """Host fact: a Noble died in battle, by Justice, Assassination, Uprising, at the Wall or
    otherwise (R-6.2, R-6.5, R-8.1)."""

    noble: NobleId
    kind: str
    cause: str


@dataclass(frozen=True, slots=True, kw_only=True)
class AddNoble:
    """Court Event: a new Noble comes into play for a House (R-1.2)."""

    house: HouseId
    noble: NobleId
    name: str
    gender: str
    attributes: tuple[str, ...] = ()
    cause: str


@dataclass(frozen=True, slots=True, kw_only=True)
class JoinSmallCouncil:
    """Court Event: a Warden joins the Small Council with a free Master title (R-3.5)."""

    noble: NobleId
    title: TitleId
    cause: str


@dataclass(frozen=True, slots=True, kw_only=True)
class GrantMotherOfDragons:
    """Court Event: a Lady becomes Mother of Dragons (R-3.1)."""

    noble: NobleId
    cause: str


@dataclass(frozen=True, slots=True, kw_only=True)
class HeirBorn:
    """Court Event: a Lord becomes the Heir, `prince_of_westeros` (R-3.9)."""

    noble: NobleId
    cause: str


@dataclass(frozen=True, slots=True, kw_only=True)
class RecordWallSupplies:
    """Host fact: the Lord Commander disposed of the Wall's supplies to a House (R-8.5)."""

    amount: int
    house: HouseId
    cause: str


NobleCommand = (
    RecordCapture
    | RecordRelease
    | RecordEscape
    | RecordDeath
    | AddNoble
    | JoinSmallCouncil
    | GrantMotherOfDragons
    | HeirBorn
    | RecordWallSupplies
)
