"""Court commands: what a player or the host asks for, in the imperative.

Commands never name the acting seat: it comes from the authenticated token and
reaches `decide` as an `Actor`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from court.ids import GameId, HouseId, Seat


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


Command = CreateGame | JoinSeat | LeaveSeat | StartGame | AdjustGold
