"""Court commands: what a player or the host asks for, in the imperative.

Commands never name the acting seat: it comes from the authenticated token and
reaches `decide` as an `Actor`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from court.decree_commands import (
    AnswerMarriage,
    ConcedeTitle,
    Desert,
    Divorce,
    EmbraceRhllor,
    HandConversion,
    Pardon,
    ProposeMarriage,
    SendToWall,
)
from court.ids import GameId, HouseId, NobleId, Seat, TitleId, VillageId


@dataclass(frozen=True, slots=True, kw_only=True)
class Actor:
    """Who sends a command: a seat, the host, both, the game master named at creation (who
    records facts, section 9), or a spectator (none of them)."""

    seat: Seat | None = None
    host: bool = False
    master: bool = False

    @property
    def spectator(self) -> bool:
        return self.seat is None and not self.host and not self.master

    @property
    def recorder(self) -> bool:
        """May record what happened outside the court (section 9)."""
        return self.host or self.master


SPECTATOR = Actor()


@dataclass(frozen=True, slots=True, kw_only=True)
class CreateGame:
    game_id: GameId
    ruleset: dict[str, Any]
    players: int
    host_name: str
    host_token_sha256: str
    dice_seed: str
    variants: dict[str, bool] = field(default_factory=dict)
    deadlines: dict[str, int] = field(default_factory=dict)
    first_player_seat: int | None = None
    game_master_name: str | None = None
    game_master_token_sha256: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class JoinSeat:
    house: HouseId
    player_name: str
    token_sha256: str


@dataclass(frozen=True, slots=True, kw_only=True)
class LeaveSeat:
    pass


@dataclass(frozen=True, slots=True, kw_only=True)
class StartGame:
    seat_order: tuple[Seat, ...] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class AdjustGold:
    house: HouseId
    amount: int
    cause: str


@dataclass(frozen=True, slots=True, kw_only=True)
class RecordVillageControl:
    """Host fact: who controls a village now (None: nobody)."""

    village: VillageId
    house: HouseId | None
    cause: str


@dataclass(frozen=True, slots=True, kw_only=True)
class AdvancePhase:
    """Host: the table is done with the current phase (R-4.1)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class StandForElection:
    noble: NobleId


@dataclass(frozen=True, slots=True, kw_only=True)
class Pass:
    """Pass in the current step: no candidate, or no marker."""


@dataclass(frozen=True, slots=True, kw_only=True)
class MarkerChoice:
    kind: str
    candidate: NobleId
    salt: str


@dataclass(frozen=True, slots=True, kw_only=True)
class PlaceBallot:
    """None, one or both markers; salts come from the server, never from the client."""

    markers: tuple[MarkerChoice, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class AcceptTitle:
    pass


@dataclass(frozen=True, slots=True, kw_only=True)
class RefuseTitle:
    pass


@dataclass(frozen=True, slots=True, kw_only=True)
class ResolveTitleOverflow:
    """Pass `title` to Noble `to`, or return it to the board when `to` is None (R-3.2)."""

    title: TitleId
    to: NobleId | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class CloseOverdueStep:
    """Close the step whose deadline has passed (anyone may ask; the clock decides)."""


# -- recorded facts of a Noble's life and Court Events (host only, section 9) ---------


class DeathKind(StrEnum):
    """How a recorded death came about (section 9)."""

    BATTLE = "battle"
    JUSTICE = "justice"
    ASSASSINATION = "assassination"
    UPRISING = "uprising"
    WALL = "wall"
    OTHER = "other"


@dataclass(frozen=True, slots=True, kw_only=True)
class RecordCapture:
    """Host fact: a Noble was taken captive by another House (R-8.1), by one of its Nobles
    when `by` is known."""

    noble: NobleId
    house: HouseId
    by: NobleId | None = None
    cause: str


@dataclass(frozen=True, slots=True, kw_only=True)
class RecordRelease:
    """Host fact: the captor let a captive go (R-8.1)."""

    noble: NobleId
    cause: str


@dataclass(frozen=True, slots=True, kw_only=True)
class RecordEscape:
    """Host fact: a captive escaped (R-8.1)."""

    noble: NobleId
    cause: str


@dataclass(frozen=True, slots=True, kw_only=True)
class RecordDeath:
    """Host fact: a Noble died in battle, by Justice, Assassination, Uprising, at the Wall or
    otherwise (R-6.2, R-6.5, R-8.1)."""

    noble: NobleId
    kind: str
    cause: str


@dataclass(frozen=True, slots=True, kw_only=True)
class AddNoble:
    """Court Event: a new Noble comes into play for a House (R-1.2)."""

    house: HouseId
    noble: NobleId
    name: str
    gender: str
    attributes: tuple[str, ...] = ()
    cause: str


@dataclass(frozen=True, slots=True, kw_only=True)
class JoinSmallCouncil:
    """Court Event: a Warden joins the Small Council with a free Master title (R-3.5)."""

    noble: NobleId
    title: TitleId
    cause: str


@dataclass(frozen=True, slots=True, kw_only=True)
class GrantMotherOfDragons:
    """Court Event: a Lady becomes Mother of Dragons (R-3.1)."""

    noble: NobleId
    cause: str


@dataclass(frozen=True, slots=True, kw_only=True)
class HeirBorn:
    """Court Event: a Lord becomes the Heir, `prince_of_westeros` (R-3.9)."""

    noble: NobleId
    cause: str


@dataclass(frozen=True, slots=True, kw_only=True)
class RecordWallSupplies:
    """Host fact: the Lord Commander disposed of the Wall's supplies to a House (R-8.5)."""

    amount: int
    house: HouseId
    cause: str


# -- purchases at court in phase 4, and ransom (R-3.6, R-4.6, R-8.2) ------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class BuildSept:
    """Phase 4: build a Sept in a village your House controls (R-4.6)."""

    village: VillageId


@dataclass(frozen=True, slots=True, kw_only=True)
class BuyFiefTitle:
    """Phase 4: buy a free Fief title for one of your Nobles (R-3.6)."""

    title: TitleId
    noble: NobleId


@dataclass(frozen=True, slots=True, kw_only=True)
class GrantFiefTitle:
    """Phase 4: the King grants a free Fief title to a Noble of any House who could stand for
    it, at most one a round (R-3.6, R-3.10)."""

    title: TitleId
    noble: NobleId


@dataclass(frozen=True, slots=True, kw_only=True)
class EndPurchases:
    """Phase 4: you are done with your purchases; the turn passes on (R-4.1)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PlaceBid:
    """A sealed bid for the fourth council seat; the salt comes from the server (R-4.6)."""

    amount: int
    salt: str


@dataclass(frozen=True, slots=True, kw_only=True)
class PassBid:
    """No bid for the fourth council seat."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ChooseCouncilSeat:
    """The winner of the sale puts one of his Wardens on the council with a free Master
    title (R-3.5, R-4.6)."""

    noble: NobleId
    title: TitleId


@dataclass(frozen=True, slots=True, kw_only=True)
class OfferRansom:
    """Offer Gold Dragons and/or captives you hold for one of your captive Nobles (R-8.2)."""

    captive: NobleId
    gold: int = 0
    captives: tuple[NobleId, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class AcceptRansom:
    offer: int


@dataclass(frozen=True, slots=True, kw_only=True)
class RefuseRansom:
    offer: int


@dataclass(frozen=True, slots=True, kw_only=True)
class WithdrawRansom:
    offer: int


Command = (
    CreateGame
    | JoinSeat
    | LeaveSeat
    | StartGame
    | AdjustGold
    | RecordVillageControl
    | AdvancePhase
    | StandForElection
    | Pass
    | PlaceBallot
    | AcceptTitle
    | RefuseTitle
    | ResolveTitleOverflow
    | CloseOverdueStep
    | ProposeMarriage
    | AnswerMarriage
    | Divorce
    | EmbraceRhllor
    | HandConversion
    | Pardon
    | SendToWall
    | ConcedeTitle
    | Desert
    | RecordCapture
    | RecordRelease
    | RecordEscape
    | RecordDeath
    | AddNoble
    | JoinSmallCouncil
    | GrantMotherOfDragons
    | HeirBorn
    | RecordWallSupplies
    | BuildSept
    | BuyFiefTitle
    | GrantFiefTitle
    | EndPurchases
    | PlaceBid
    | PassBid
    | ChooseCouncilSeat
    | OfferRansom
    | AcceptRansom
    | RefuseRansom
    | WithdrawRansom
)


# Command fields that may hold a secret (a ballot, a bid, a token's digest, the dice seed):
# never written to a log line.
_SECRET_FIELDS = frozenset(
    {
        "markers",
        "amount",
        "salt",
        "token_sha256",
        "host_token_sha256",
        "dice_seed",
        "game_master_token_sha256",
        "ruleset",
    }
)


def describe(command: Command) -> str:
    """A command for the operator's log: its name and its fields, secrets left out."""
    fields = getattr(command, "__dataclass_fields__", {})
    shown = ", ".join(
        f"{name}={getattr(command, name)!r}" for name in fields if name not in _SECRET_FIELDS
    )
    return f"{type(command).__name__}({shown})"
