"""Events of seats moving between players and devices, and of the host role changing
hands."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from court.events.base import Event
from court.ids import HouseId, Seat


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatHanded(Event):
    """The host (or the table's vote) gave a seat a new token: the old one opens nothing from
    now on, and the new one opens nothing the seat held before `at_version`, this record's
    version (0 in logs from before it was recorded); `at` is when (0.0 in logs from before it
    was recorded): the new player's absence counts from then. `fresh` (R-9.2): every vote and
    answer the seat cast is dropped, its clock banks are full again and it counts for no vote
    until its new player has opened his link (`SeatClaimed`); false in logs from before."""

    PRIVATE: ClassVar[frozenset[str]] = frozenset({"token_sha256"})

    seat: Seat
    house: HouseId
    old_player_name: str
    player_name: str
    token_sha256: str
    at_version: int = 0
    at: float = 0.0
    fresh: bool = True


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatClaimed(Event):
    """The new player of a handed seat opened his link and said his name (R-9.2): the seat
    counts again, under his name."""

    seat: Seat
    house: HouseId
    old_player_name: str
    player_name: str


@dataclass(frozen=True, slots=True, kw_only=True)
class HostHandedOver(Event):
    """The host handed the host role to another seat; `from_seat` None: a host without a seat."""

    from_seat: Seat | None
    to_seat: Seat
    from_name: str
    to_name: str


@dataclass(frozen=True, slots=True, kw_only=True)
class HostVoteCast(Event):
    """A seat voted to make another seat (or itself) the host, at `at` (None in logs from
    before votes had times), the host having been away since `host_away_since` as the vote
    counted it (None in logs from before it was recorded)."""

    seat: Seat
    for_seat: Seat
    at: float | None = None
    host_away_since: float | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class HostVoteWithdrawn(Event):
    seat: Seat


@dataclass(frozen=True, slots=True, kw_only=True)
class HostTakenOver(Event):
    """A strict majority of the seats other than the host's (`seats` of them) voted for the
    same seat while the host had no connection since `host_away_since`: `voters` cast the
    `votes` counted, and `to_seat` holds the host role now. Older logs name no voters and
    counted every seat."""

    from_seat: Seat | None
    to_seat: Seat
    from_name: str
    to_name: str
    votes: int
    seats: int
    voters: tuple[Seat, ...] = ()
    host_away_since: float | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatRemoved(Event):
    """The host removed a seated player before the start; his token stops working."""

    seat: Seat
    house: HouseId
    player_name: str


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatLinkAdded(Event):
    """A person's key gathered the token with the digest `of_sha256` and handed out link
    `link`, a token of its own (`link_sha256`) that stands for what that token stands for:
    `seat` (None: a host without a seat, or the game master, `master`)."""

    PRIVATE: ClassVar[frozenset[str]] = frozenset({"link_sha256", "of_sha256"})
    OWNER: ClassVar[str | None] = "seat"

    link: int
    seat: Seat | None
    master: bool
    link_sha256: str
    of_sha256: str


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatLinkDropped(Event):
    """The key that handed out link `link` let it go (`reason`, court/model/links.py `LinkEnd`):
    it opens nothing from now on, nor does any link made from it."""

    link: int
    seat: Seat | None
    reason: str
