"""Events of a seat played by the bot while its player is gone: the table's vote seats the bot,
each move it makes is marked as its own, and it stands down when its player comes back or the
table hands the seat to a new link (docs/rules-map.md, "A seat played by the bot")."""

from __future__ import annotations

from dataclasses import dataclass

from court.events.base import Event
from court.ids import HouseId, Seat


@dataclass(frozen=True, slots=True, kw_only=True)
class BotSeated(Event):
    """The table voted the bot in for `seat` (a `SeatReplaced` with `bot` precedes it): the
    bot plays the seat's moves from now on; the seat's token stays its player's, to come back
    with; the votes and answers he cast are dropped (R-9.2)."""

    seat: Seat
    house: HouseId
    player_name: str


@dataclass(frozen=True, slots=True, kw_only=True)
class BotPlayed(Event):
    """The records that follow, up to the next command's, are a move the bot made for `seat`
    (the court awaited it): what the history tells as "played by the bot"."""

    seat: Seat
    house: HouseId


@dataclass(frozen=True, slots=True, kw_only=True)
class BotStoodDown(Event):
    """The bot no longer plays `seat`: its player came back (`returned`, by opening his own
    link) or the table handed the seat to a new link (a `SeatHanded` follows)."""

    seat: Seat
    house: HouseId
    player_name: str
    returned: bool
