"""Commands that move seats and the host role between players and devices: a seat handed to a
new token and claimed by its new player, the host role handed or taken over by vote, a squatter
removed, a token a person's key hands out for a seat added or dropped."""

from __future__ import annotations

from dataclasses import dataclass, replace

from court.commands.secrets import Drawn, Secret, digest
from court.ids import Seat


@dataclass(frozen=True, slots=True, kw_only=True)
class HandSeat:
    """The host gives a seat a new token (the old one stops at once), to move it to another
    device or to a new player (`player_name`; None keeps the name)."""

    seat: Seat
    token_sha256: str = ""  # the server's, drawn for it (`needs`)
    player_name: str | None = None
    # The version the hand-over is recorded at: the service fills it in, never a client; the
    # new token opens nothing the seat held before it.
    at_version: int = 0

    def needs(self) -> tuple[Secret, ...]:
        return () if self.token_sha256 else (Secret.TOKEN,)

    def supplied(self, drawn: Drawn) -> HandSeat:
        token = drawn.one(Secret.TOKEN)
        return self if token is None else replace(self, token_sha256=digest(token))


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


@dataclass(frozen=True, slots=True, kw_only=True)
class AddSeatLink:
    """A person's key (server/service/seat_keys.py) gathers the sender's token and hands out a token
    of
    its own for what it stands for: `link_sha256`, the new token's digest. Sent by the key
    service with the gathered token's actor, never by a client."""

    link_sha256: str = ""  # the server's, drawn for it (`needs`)

    def needs(self) -> tuple[Secret, ...]:
        return () if self.link_sha256 else (Secret.TOKEN,)

    def supplied(self, drawn: Drawn) -> AddSeatLink:
        token = drawn.one(Secret.TOKEN)
        return self if token is None else replace(self, link_sha256=digest(token))


@dataclass(frozen=True, slots=True, kw_only=True)
class DropSeatLink:
    """The key service lets link `link` go (the key revoked or replaced: `reason`,
    court/model/links.py `LinkEnd`); never sent by a client."""

    link: int
    reason: str


SeatCommand = (
    HandSeat | ClaimSeat | HandHost | VoteForHost | RemoveSeat | AddSeatLink | DropSeatLink
)
