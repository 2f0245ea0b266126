"""Court events: facts in the past tense, one per change, each with a persisted type name.

Fields named in an event's `PRIVATE` set travel in the record's private part:
hashed into the chain but shown only to the acting seat until the game ends.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from court.ids import GameId, HouseId, Seat


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    PRIVATE: ClassVar[frozenset[str]] = frozenset()
    # The field naming the seat that owns this event's private part; without
    # one, the acting seat owns it.
    OWNER: ClassVar[str | None] = None


@dataclass(frozen=True, slots=True, kw_only=True)
class GameCreated(Event):
    """A host created a game with a full ruleset copied from config (R-1.1)."""

    PRIVATE: ClassVar[frozenset[str]] = frozenset({"host_token_sha256", "dice_seed"})

    game_id: GameId
    ruleset: dict[str, Any]
    players: int
    host_name: str
    dice_seed_sha256: str
    host_token_sha256: str
    dice_seed: str


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


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundStarted(Event):
    """A round began; the First Player marker sits with `first_player` (R-1.1, R-4.1)."""

    round: int
    first_player: Seat


@dataclass(frozen=True, slots=True, kw_only=True)
class GoldAdjusted(Event):
    """The host recorded a gain or loss of Gold Dragons outside the court (R-2.1, section 9)."""

    house: HouseId
    amount: int
    cause: str


# Persisted names and current schema versions. Names are written into the log:
# never rename one, add an upcaster instead.
EVENT_TYPES: dict[str, tuple[type[Event], int]] = {
    "GameCreated": (GameCreated, 1),
    "SeatJoined": (SeatJoined, 1),
    "SeatLeft": (SeatLeft, 1),
    "GameStarted": (GameStarted, 1),
    "RoundStarted": (RoundStarted, 1),
    "GoldAdjusted": (GoldAdjusted, 1),
}

TYPE_NAMES: dict[type[Event], str] = {cls: name for name, (cls, _) in EVENT_TYPES.items()}
