"""Court commands: what a player or the host asks for, in the imperative.

Commands never name the acting seat: it comes from the authenticated token and
reaches `decide` as an `Actor`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from court.ids import GameId, HouseId, NobleId, Seat, TitleId, VillageId


@dataclass(frozen=True, slots=True, kw_only=True)
class Actor:
    """Who sends a command: a seat, the host, both, or a spectator (neither)."""

    seat: Seat | None = None
    host: bool = False

    @property
    def spectator(self) -> bool:
        return self.seat is None and not self.host


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
)
