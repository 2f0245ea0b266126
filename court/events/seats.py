"""Events of seats moving between players and devices, and of the host role changing
hands."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from court.events.base import Event
from court.ids import HouseId, Seat


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatHanded(Event):
    """The host gave a seat a new token: the old one opens nothing from now on."""

    PRIVATE: ClassVar[frozenset[str]] = frozenset({"token_sha256"})

    seat: Seat
    house: HouseId
    old_player_name: str
    player_name: str
    token_sha256: str


@dataclass(frozen=True, slots=True, kw_only=True)
class HostHandedOver(Event):
    """The host handed the host role to another seat; `from_seat` None: a host without a seat."""

    from_seat: Seat | None
    to_seat: Seat
    from_name: str
    to_name: str


@dataclass(frozen=True, slots=True, kw_only=True)
class HostVoteCast(Event):
    """A seat voted to make another seat (or itself) the host."""

    seat: Seat
    for_seat: Seat


@dataclass(frozen=True, slots=True, kw_only=True)
class HostVoteWithdrawn(Event):
    seat: Seat


@dataclass(frozen=True, slots=True, kw_only=True)
class HostTakenOver(Event):
    """A strict majority of the seats voted for the same seat: it holds the host role now."""

    from_seat: Seat | None
    to_seat: Seat
    from_name: str
    to_name: str
    votes: int
    seats: int


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatRemoved(Event):
    """The host removed a seated player before the start; his token stops working."""

    seat: Seat
    house: HouseId
    player_name: str
