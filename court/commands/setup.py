"""Commands that set a game up: create it, take and leave seats, start, and the host's
records of gold and villages."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from court.commands.secrets import Drawn, Secret, digest
from court.ids import GameId, HouseId, Seat, VillageId

UNDRAWN = GameId("")  # a game id the server has still to draw


@dataclass(frozen=True, slots=True, kw_only=True)
class CreateGame:
    """A new game. Its id, its dice seed and the host's token (and the game master's, when
    one is named) are the server's, drawn for it (`needs`)."""

    ruleset: dict[str, Any]
    players: int
    host_name: str
    game_id: GameId = UNDRAWN
    host_token_sha256: str = ""
    dice_seed: str = ""
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

    def needs(self) -> tuple[Secret, ...]:
        master = self.game_master_name is not None and self.game_master_token_sha256 is None
        drawn = (Secret.TOKEN, Secret.GAME_ID, Secret.DICE_SEED) if not self.game_id else ()
        return ((Secret.MASTER_TOKEN,) if master else ()) + drawn

    def supplied(self, drawn: Drawn) -> CreateGame:
        token, master = drawn.one(Secret.TOKEN), drawn.one(Secret.MASTER_TOKEN)
        found = self
        if token is not None:
            found = replace(
                found,
                game_id=GameId(drawn.one(Secret.GAME_ID) or ""),
                host_token_sha256=digest(token),
                dice_seed=drawn.one(Secret.DICE_SEED) or "",
            )
        if master is not None:
            found = replace(found, game_master_token_sha256=digest(master))
        return found


@dataclass(frozen=True, slots=True, kw_only=True)
class JoinSeat:
    """Take a free seat; its token is the server's, drawn for it (`needs`)."""

    house: HouseId
    player_name: str
    token_sha256: str = ""
    # The invite secret from the host's link; an unlisted game needs it.
    invite: str | None = None

    def needs(self) -> tuple[Secret, ...]:
        return () if self.token_sha256 else (Secret.TOKEN,)

    def supplied(self, drawn: Drawn) -> JoinSeat:
        token = drawn.one(Secret.TOKEN)
        return self if token is None else replace(self, token_sha256=digest(token))


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
