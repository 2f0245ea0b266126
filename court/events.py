"""Court events: facts in the past tense, one per change, each with a persisted type name.

Fields named in an event's `PRIVATE` set travel in the record's private part:
hashed into the chain but shown only to the acting seat until the game ends.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from court.ids import GameId, HouseId, NobleId, Seat, TitleId, VillageId


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


@dataclass(frozen=True, slots=True, kw_only=True)
class PhaseStarted(Event):
    """A phase of the round began (R-4.1)."""

    round: int
    phase: str


@dataclass(frozen=True, slots=True, kw_only=True)
class VillageControlChanged(Event):
    """The host recorded who controls a village now (section 9); None is nobody."""

    village: VillageId
    house: HouseId | None
    cause: str


@dataclass(frozen=True, slots=True, kw_only=True)
class IncomePaid(Event):
    """Phase 3: each House gained its income (R-2.2, R-4.5)."""

    round: int
    amounts: tuple[tuple[HouseId, int], ...]


# -- elections (R-7) ------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class ElectionSkipped(Event):
    """An election was not held; `reason` says why (R-4.2, R-7.1 step 1-2)."""

    election: str
    title: TitleId
    reason: str


@dataclass(frozen=True, slots=True, kw_only=True)
class ElectionOpened(Event):
    """Candidacy opened: players in `order` may each put forward one Lord (R-7.1 step 2)."""

    election: str
    title: TitleId
    order: tuple[Seat, ...]
    deadline: float | None


@dataclass(frozen=True, slots=True, kw_only=True)
class CandidateStood(Event):
    election: str
    seat: Seat
    noble: NobleId


@dataclass(frozen=True, slots=True, kw_only=True)
class CandidacyPassed(Event):
    election: str
    seat: Seat


@dataclass(frozen=True, slots=True, kw_only=True)
class BallotOpened(Event):
    """Ballots opened; votes are fixed here for the whole election (R-7.2)."""

    election: str
    candidates: tuple[NobleId, ...]
    weights: tuple[tuple[Seat, int], ...]
    order: tuple[Seat, ...]
    minimum: int
    sealed: bool
    deadline: float | None


@dataclass(frozen=True, slots=True, kw_only=True)
class BallotPlaced(Event):
    """A player placed none, one or both markers face down (R-7.1 step 3).

    `markers` are public: each commitment, and its candidate unless ballots are
    sealed. `secrets` (kind, candidate, salt of each marker, same order) stay
    with the owner until the reveal.
    """

    PRIVATE: ClassVar[frozenset[str]] = frozenset({"secrets"})
    OWNER: ClassVar[str | None] = "seat"

    election: str
    seat: Seat
    markers: tuple[dict[str, Any], ...]
    secrets: tuple[dict[str, Any], ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class StepTimedOut(Event):
    """The step's deadline passed: everyone in `passed` is recorded as passing (R-4.3)."""

    election: str
    stage: str
    passed: tuple[Seat, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class BallotsRevealed(Event):
    """All markers shown at once, with the count and its result (R-7.1 steps 4-5)."""

    election: str
    title: TitleId
    markers: tuple[dict[str, Any], ...]
    votes: tuple[tuple[NobleId, int], ...]
    winner: NobleId | None
    reason: str
    # When the winner's player must have taken or refused the title.
    deadline: float | None


# -- titles (R-3) ---------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class TitleRefused(Event):
    """The winner's player refused the title; it stays on the board (R-3.3)."""

    title: TitleId
    noble: NobleId
    seat: Seat


@dataclass(frozen=True, slots=True, kw_only=True)
class TitleGranted(Event):
    title: TitleId
    noble: NobleId
    cause: str


@dataclass(frozen=True, slots=True, kw_only=True)
class TitleReturned(Event):
    """A title went back to the board (R-3.2, R-3.4, R-3.8)."""

    title: TitleId
    noble: NobleId
    reason: str


@dataclass(frozen=True, slots=True, kw_only=True)
class TitlePassed(Event):
    """A title of a full category was passed to another Noble (R-3.2)."""

    title: TitleId
    noble: NobleId
    to: NobleId


@dataclass(frozen=True, slots=True, kw_only=True)
class TitleSlotsExceeded(Event):
    """A Noble holds one title too many of a category; his player must pass or return one."""

    seat: Seat
    noble: NobleId
    category: str
    title: TitleId
    deadline: float | None


# Persisted names and current schema versions. Names are written into the log:
# never rename one, add an upcaster instead.
EVENT_TYPES: dict[str, tuple[type[Event], int]] = {
    "GameCreated": (GameCreated, 1),
    "SeatJoined": (SeatJoined, 1),
    "SeatLeft": (SeatLeft, 1),
    "GameStarted": (GameStarted, 1),
    "RoundStarted": (RoundStarted, 1),
    "GoldAdjusted": (GoldAdjusted, 1),
    "PhaseStarted": (PhaseStarted, 1),
    "VillageControlChanged": (VillageControlChanged, 1),
    "IncomePaid": (IncomePaid, 1),
    "ElectionSkipped": (ElectionSkipped, 1),
    "ElectionOpened": (ElectionOpened, 1),
    "CandidateStood": (CandidateStood, 1),
    "CandidacyPassed": (CandidacyPassed, 1),
    "BallotOpened": (BallotOpened, 1),
    "BallotPlaced": (BallotPlaced, 1),
    "StepTimedOut": (StepTimedOut, 1),
    "BallotsRevealed": (BallotsRevealed, 1),
    "TitleRefused": (TitleRefused, 1),
    "TitleGranted": (TitleGranted, 1),
    "TitleReturned": (TitleReturned, 1),
    "TitlePassed": (TitlePassed, 1),
    "TitleSlotsExceeded": (TitleSlotsExceeded, 1),
}

TYPE_NAMES: dict[type[Event], str] = {cls: name for name, (cls, _) in EVENT_TYPES.items()}
