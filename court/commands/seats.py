"""Commands that move seats and the host role between players and devices: a seat handed to a
new token and claimed by its new player, the host role handed or taken over by vote, a squatter
removed."""

from __future__ import annotations

from dataclasses import dataclass

from court.ids import Seat


@dataclass(frozen=True, slots=True, kw_only=True)
class HandSeat:
    """The host gives a seat a new token (the old one stops at once), to move it to another
    device or to a new player (`player_name`; None keeps the name)."""

    seat: Seat
    token_sha256: str
    player_name: str | None = None
    # The version the hand-over is recorded at: the service fills it in, never a client; the
    # new token opens nothing the seat held before it.
    at_version: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class ClaimSeat:
    """The new player of a handed seat, opening his link, says his name (R-9.2)."""

    player_name: str


@dataclass(frozen=True, slots=True, kw_only=True)
class HandHost:
    """The host hands the host role to another seat."""

    seat: Seat


@dataclass(frozen=True, slots=True, kw_only=True)
class VoteForHost:
    """A seat votes to make `seat` the host; None withdraws the vote."""

    seat: Seat | None
    # Since when the host has had no connection (None: he has one now). The service fills it
    # in from who is connected, never a client: no payload carries it.
    host_away_since: float | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class RemoveSeat:
    """The host removes a seated player before the start."""

    seat: Seat


SeatCommand = HandSeat | ClaimSeat | HandHost | VoteForHost | RemoveSeat
