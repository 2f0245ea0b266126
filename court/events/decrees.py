"""Events of the decree steps of phase 1 and of the end of the game (R-4.2, R-5, R-6, R-8.4,
R-4.7)."""

from __future__ import annotations

from dataclasses import dataclass

from court.events.base import Event
from court.ids import HouseId, NobleId, Seat, TitleId, VillageId
from court.model.powers import Power


@dataclass(frozen=True, slots=True, kw_only=True)
class Share:
    """A House's share of the Septs pillaged, in Gold Dragons (R-6.2)."""

    house: HouseId
    gold: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Score:
    """The victory points a player's Nobles hold through their titles (R-3.7)."""

    seat: Seat
    points: int


@dataclass(frozen=True, slots=True, kw_only=True)
class DecreeStepOpened(Event):
    """A decree step opened for the turns in `order`, in turn order (R-4.2). `powers` gives,
    turn by turn, the title the turn acts through and its holder then, or None for a turn
    that is the player's own (R-6.7). Schema 2 added `powers`."""

    step: str
    order: tuple[Seat, ...]
    deadline: float | None
    powers: tuple[Power | None, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class DecreeStepSkipped(Event):
    """Nobody had anything legal to do in this step; `reason` says why (R-4.2)."""

    step: str
    reason: str


@dataclass(frozen=True, slots=True, kw_only=True)
class DecreeStepClosed(Event):
    """Every player of the step has acted or passed."""

    step: str


@dataclass(frozen=True, slots=True, kw_only=True)
class DecreePassed(Event):
    """A player did nothing in his turn of the step (or the deadline passed for him)."""

    step: str
    seats: tuple[Seat, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class DecreeTurnLapsed(Event):
    """A turn the player could not take: its power was lost since the step opened (R-6.7), or
    the Hand had no embrace to answer (R-6.2); `reason` says which."""

    step: str
    seat: Seat
    reason: str


@dataclass(frozen=True, slots=True, kw_only=True)
class DecreeTimedOut(Event):
    """The step's deadline passed (R-4.3): the turns of `seats` ended on the clock, and the
    player in `unanswered` left a marriage proposal unanswered (it is declined)."""

    step: str
    seats: tuple[Seat, ...]
    unanswered: Seat | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class DecreeTurnEnded(Event):
    """A player acted in his turn of the step; the turn passes on."""

    step: str
    seat: Seat


@dataclass(frozen=True, slots=True, kw_only=True)
class MarriageProposed(Event):
    seat: Seat
    noble: NobleId
    to_seat: Seat
    to_noble: NobleId


@dataclass(frozen=True, slots=True, kw_only=True)
class MarriageDeclined(Event):
    seat: Seat
    noble: NobleId
    to_noble: NobleId


@dataclass(frozen=True, slots=True, kw_only=True)
class MarriageMade(Event):
    """R-5.1 to R-5.3: the couple is married; with 4-6 players their players are allied."""

    lord: NobleId
    lady: NobleId
    seats: tuple[Seat, Seat]
    alliance: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class Divorced(Event):
    """The Master of Laws divorced the couple (R-5.4)."""

    lord: NobleId
    lady: NobleId


@dataclass(frozen=True, slots=True, kw_only=True)
class MarriageEnded(Event):
    """A marriage ended otherwise than by death or divorce: a spouse was captured by a heart
    breaker or cruel Noble (R-3.8, R-5.4)."""

    lord: NobleId
    lady: NobleId
    reason: str


@dataclass(frozen=True, slots=True, kw_only=True)
class RhllorEmbraced(Event):
    """The Protector of the Realm embraced R'hllor (R-6.2); the Hand may convert too."""

    noble: NobleId
    seat: Seat


@dataclass(frozen=True, slots=True, kw_only=True)
class SeptsPillaged(Event):
    """Every Sept pillaged and removed; no Sept can be built again (R-6.2). Schema 2 made each
    share an object {house, gold} (it was a [house, gold] pair)."""

    septs: tuple[VillageId, ...]
    shares: tuple[Share, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class TitleConceded(Event):
    """Title Concession: a title handed to another Noble of the same House (R-6.6)."""

    title: TitleId
    noble: NobleId
    to: NobleId


@dataclass(frozen=True, slots=True, kw_only=True)
class GameEnded(Event):
    """The game is over, `how`: "victory" (the victory check found winners, R-4.7),
    "last_round" (its check named those with the most VP, R-4.8) or "table" (the seats voted
    to end it, without winners, R-9.2); `points` each seat's VP then. Schema 2 made each score
    an object {seat, points} (it was a [seat, points] pair), schema 3 added `how`."""

    winners: tuple[Seat, ...]
    points: tuple[Score, ...]
    reason: str
    how: str = "victory"
