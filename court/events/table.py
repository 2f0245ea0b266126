"""Events of what the table decided together: votes to replace an absent player and to end
the game, and a correction of a recorded fact proposed, answered, refused, lapsed or made, with
what its compensation restores."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from court.events.base import Event
from court.ids import HouseId, NobleId, Seat
from court.model.table import Correction


@dataclass(frozen=True, slots=True, kw_only=True)
class ReplaceVoteCast(Event):
    """`seat` voted at `at` to hand `for_seat`, gone since `away_since`, to a new link, or to
    the bot (`bot`)."""

    FOLLOWS_NO_FACT: ClassVar[bool] = True

    seat: Seat
    for_seat: Seat
    at: float
    away_since: float
    bot: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatReplaced(Event):
    """A strict majority of the other seats (`seats` of them) voted to replace the player of
    `seat`, gone since `away_since`: `voters` cast the `votes`, all for the same choice; a
    `SeatHanded` follows, or a `BotSeated` when they chose the bot (`bot`)."""

    FOLLOWS_NO_FACT: ClassVar[bool] = True

    seat: Seat
    house: HouseId
    player_name: str
    votes: int
    seats: int
    voters: tuple[Seat, ...]
    away_since: float
    bot: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class EndVoteCast(Event):
    FOLLOWS_NO_FACT: ClassVar[bool] = True

    seat: Seat


@dataclass(frozen=True, slots=True, kw_only=True)
class EndVoteWithdrawn(Event):
    FOLLOWS_NO_FACT: ClassVar[bool] = True

    seat: Seat


@dataclass(frozen=True, slots=True, kw_only=True)
class TableEndedGame(Event):
    """A strict majority of the `seats` voted to end the game: `voters` cast the `votes`; a
    `GameEnded` without winners follows."""

    FOLLOWS_NO_FACT: ClassVar[bool] = True

    votes: int
    seats: int
    voters: tuple[Seat, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class CorrectionProposed(Event):
    """The host proposed a correction of a recorded fact; `seat` is his seat (None without
    one), whose proposal is its acceptance."""

    FOLLOWS_NO_FACT: ClassVar[bool] = True

    correction: Correction
    seat: Seat | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class CorrectionAnswered(Event):
    FOLLOWS_NO_FACT: ClassVar[bool] = True

    seat: Seat
    accept: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class CorrectionWithdrawn(Event):
    FOLLOWS_NO_FACT: ClassVar[bool] = True

    version: int


@dataclass(frozen=True, slots=True, kw_only=True)
class CorrectionRefused(Event):
    """Too many seats refused the correction of `version` for a majority to accept it."""

    FOLLOWS_NO_FACT: ClassVar[bool] = True

    version: int
    refusals: int
    seats: int
    voters: tuple[Seat, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class CorrectionMade(Event):
    """A strict majority of the `seats` accepted the correction (`voters`): the compensating
    events follow it; the corrected record stays in the log as it was."""

    FOLLOWS_NO_FACT: ClassVar[bool] = True

    correction: Correction
    votes: int
    seats: int
    voters: tuple[Seat, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class CorrectionLapsed(Event):
    """While the seats answered, a record followed from the corrected one (`reason` tells
    which) that the correction cannot undo: it can no longer be made (R-9.1)."""

    FOLLOWS_NO_FACT: ClassVar[bool] = True

    version: int
    reason: str


@dataclass(frozen=True, slots=True, kw_only=True)
class NobleRestored(Event):
    """A recorded death was corrected: the Noble is again as he stood before it."""

    FOLLOWS_NO_FACT: ClassVar[bool] = True

    noble: NobleId
    status: str
    captor: HouseId | None = None
    outlaw: bool = False
    cause: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class CandidacyRestored(Event):
    """A recorded death was corrected while the election his death withdrew him from still
    stood where it stood: he is its candidate again, and markers on him count (R-7.2)."""

    FOLLOWS_NO_FACT: ClassVar[bool] = True

    election: str
    noble: NobleId
    cause: str = ""
