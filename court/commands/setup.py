"""Commands that set a game up: create it, take and leave seats, start, and the host's
records of gold and villages."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from court.ids import GameId, HouseId, Seat, VillageId


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
    # clocks variant: seconds in each player's time bank per step kind, and `increment`.
    clocks: dict[str, int] = field(default_factory=dict)
    # When the seats may take the host role over (`takeover_after` seconds of his absence).
    host_role: dict[str, int] = field(default_factory=dict)
    # When the other seats may vote to replace an absent player (`replace_after` seconds).
    table_votes: dict[str, int] = field(default_factory=dict)
    first_player_seat: int | None = None
    # the round whose victory check ends the game (0: none; None: the profile's).
    last_round: int | None = None
    game_master_name: str | None = None
    game_master_token_sha256: str | None = None
    # A game is private unless the host lists it: off the front page, and joined only through
    # the host's invite link.
    listed: bool = False
    # The name the host gives the game (None: none; it is shown as "Game <id>").
    name: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class JoinSeat:
    house: HouseId
    player_name: str
    token_sha256: str
    # The invite secret from the host's link; an unlisted game needs it.
    invite: str | None = None


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
class VillageChange:
    """One village of a `RecordVillages`: who controls it now (None: nobody)."""

    village: VillageId
    house: HouseId | None


@dataclass(frozen=True, slots=True, kw_only=True)
class RecordVillages:
    """Host fact: who controls each of several villages now, recorded at once (section 9)."""

    changes: tuple[VillageChange, ...]
    cause: str


@dataclass(frozen=True, slots=True, kw_only=True)
class ChangeListing:
    """The host lists the game on the front page, or takes it off."""

    listed: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class RenameGame:
    """The host gives the game a new name."""

    name: str


SetupCommand = (
    CreateGame
    | JoinSeat
    | LeaveSeat
    | StartGame
    | AdjustGold
    | RecordVillageControl
    | RecordVillages
    | ChangeListing
    | RenameGame
)
