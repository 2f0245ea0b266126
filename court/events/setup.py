"""Events of game setup: creation, seats, start (R-1.1, R-1.2)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from court.events.base import Event
from court.ids import GameId, HouseId, Seat


@dataclass(frozen=True, slots=True, kw_only=True)
class GameCreated(Event):
    """A host created a game with a full ruleset copied from config (R-1.1). `ruleset` stays the
    document config/ validated, as it was (court/model/ruleset.py reads it into a `Ruleset` on
    the fold): the log keeps the rules a game was played by in the file's own words."""

    PRIVATE: ClassVar[frozenset[str]] = frozenset(
        {"host_token_sha256", "dice_seed", "game_master_token_sha256", "invite_sha256"}
    )

    game_id: GameId
    ruleset: dict[str, Any]
    players: int
    host_name: str
    dice_seed_sha256: str
    host_token_sha256: str
    dice_seed: str
    # Section 9: a game master who records facts without playing; None: the host does.
    game_master_name: str | None = None
    game_master_token_sha256: str | None = None
    # Shown on the front page or not, and the digest of the invite secret joining an unlisted
    # game needs (None: no invite, as in games older than invites).
    listed: bool = True
    invite_sha256: str | None = None
    # The name the host gave it (None: none, as in logs from before names).
    name: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatJoined(Event):
    """A player took a free seat and a free House."""

    PRIVATE: ClassVar[frozenset[str]] = frozenset({"token_sha256"})
    OWNER: ClassVar[str | None] = "seat"

    seat: Seat
    house: HouseId
    player_name: str
    host: bool
    token_sha256: str


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatLeft(Event):
    """A player gave up his seat before the game started; his token stops working."""

    seat: Seat
    house: HouseId
    player_name: str


@dataclass(frozen=True, slots=True, kw_only=True)
class GameStarted(Event):
    """The host started the game: seats take their clockwise order (R-1.1)."""

    seat_order: tuple[Seat, ...]
    first_player: Seat
    # When, in seconds since the epoch (0.0 in logs from before it was recorded).
    at: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class GameListed(Event):
    """The host listed the game on the front page: anyone may take a free seat."""


@dataclass(frozen=True, slots=True, kw_only=True)
class GameUnlisted(Event):
    """The host took the game off the front page: joining needs the invite link."""


@dataclass(frozen=True, slots=True, kw_only=True)
class GameRenamed(Event):
    """The host gave the game a new name (`old_name` None: it had none)."""

    name: str
    old_name: str | None
