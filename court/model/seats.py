"""Who holds each seat of a game, as the court holds it: the seat's player and tokens, what
the seat held sealed when it last went to a new token, whether its new player has opened his
link yet (R-9.2), and a seat's vote for a new host."""

from __future__ import annotations

from dataclasses import dataclass

from court.ids import HouseId, Seat


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatInfo:
    seat: Seat
    house: HouseId
    player_name: str
    host: bool
    token_sha256: str
    # The host token of the game's creation, once the host role has left it: it stands for
    # this seat alone, without the host's powers; "" for none.
    former_host_token_sha256: str = ""
    # The version at which the host last handed this seat to a new token (None: never; 0: not
    # recorded) and the commitments of its sealed markers and bid then: the old holder's.
    handed_at: int | None = None
    withheld: frozenset[str] = frozenset()
    # Handed to a new player who has not opened his link and said his name yet: the seat
    # counts for no vote and no majority until he has.
    unclaimed: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class HostVote:
    """A seat's vote to make `seat` the host, cast at `at` (None: in a log from before votes
    had times; such a vote counts for nothing)."""

    seat: Seat
    at: float | None = None
