"""Events of the round and of facts recorded by the host (R-4.1, R-4.5, section 9)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from court.events.base import Event
from court.ids import HouseId, Seat, VillageId


@dataclass(frozen=True, slots=True, kw_only=True)
class Income:
    """The Gold Dragons a House gained in phase 3 (R-2.2)."""

    house: HouseId
    gold: int


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundStarted(Event):
    """A round began; the First Player marker sits with `first_player` (R-1.1, R-4.1)."""

    round: int
    first_player: Seat


@dataclass(frozen=True, slots=True, kw_only=True)
class PhaseStarted(Event):
    """A phase of the round began (R-4.1)."""

    round: int
    phase: str


@dataclass(frozen=True, slots=True, kw_only=True)
class IncomePaid(Event):
    """Phase 3: each House gained its income (R-2.2, R-4.5). Schema 2 made each amount an
    object {house, gold} (it was a [house, gold] pair)."""

    round: int
    amounts: tuple[Income, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class GoldAdjusted(Event):
    """The host recorded a gain or loss of Gold Dragons outside the court (R-2.1, section 9)."""

    house: HouseId
    amount: int
    cause: str


@dataclass(frozen=True, slots=True, kw_only=True)
class VillageControlChanged(Event):
    """The host recorded who controls a village now (section 9); None is nobody."""

    village: VillageId
    house: HouseId | None
    cause: str


@dataclass(frozen=True, slots=True, kw_only=True)
class FactRecorded(Event):
    """Who recorded the fact whose events follow (section 9): `by` is "host" or
    "game_master", `name` the recorder's name, `fact` what kind of fact it is."""

    FOLLOWS_NO_FACT: ClassVar[bool] = True

    fact: str
    by: str
    name: str
