"""Commands the table decides together: replace a player gone for the profile's time, end the
game, and the host's correction of a fact he recorded, accepted or refused by the seats."""

from __future__ import annotations

from dataclasses import dataclass

from court.events.base import Event
from court.ids import HouseId, Seat
from court.state import CourtState


@dataclass(frozen=True, slots=True, kw_only=True)
class VoteToReplace:
    """A seat votes to hand `seat`, whose player has been gone for the profile's time, to a
    new link, or to the bot (`bot`) until he comes back."""

    seat: Seat
    bot: bool = False
    # The server's, never a client's: since when the seat has had no connection (None: it has
    # one now), the digest of the new link's token, and the version of the command's first
    # record.
    away_since: float | None = None
    token_sha256: str = ""
    at_version: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class VoteToEnd:
    """A seat votes to end the game now (`end`), or takes its vote back."""

    end: bool = True


@dataclass(frozen=True, slots=True, kw_only=True)
class ProposeCorrection:
    """The host proposes to correct the fact recorded at `version`: a death (the Noble
    lives), a village's holder (`house`, None: nobody) or Gold Dragons (`amount`, what should
    have been recorded)."""

    version: int
    house: HouseId | None = None
    amount: int | None = None
    cause: str = ""
    # The server's, from the log: the record at `version` (None when the log has none), the
    # one before it, the court as it stood before it, every record after it up to the head,
    # and the head's version.
    recorded: Event | None = None
    before: Event | None = None
    court_before: CourtState | None = None
    later: tuple[Event, ...] = ()
    head: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class AnswerCorrection:
    """A seat accepts or refuses the correction under vote."""

    accept: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class WithdrawCorrection:
    """The host withdraws his correction before the table has decided it."""


TableCommand = VoteToReplace | VoteToEnd | ProposeCorrection | AnswerCorrection | WithdrawCorrection
