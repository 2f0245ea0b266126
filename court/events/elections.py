"""Events of the elections of phase 1 (R-7)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from court.events.base import Event
from court.ids import NobleId, Seat, TitleId


@dataclass(frozen=True, slots=True, kw_only=True)
class Weight:
    """The votes a player casts in an election, fixed when ballots open (R-7.2, R-7.4)."""

    seat: Seat
    votes: int


@dataclass(frozen=True, slots=True, kw_only=True)
class VoteCount:
    """The votes a candidate received: the FOR markers on him, weighed (R-7.1 step 5)."""

    noble: NobleId
    votes: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ShownMarker:
    """A marker as its placement shows it to all: its commitment (SHA-256 of
    "kind:candidate:salt"), and its candidate unless ballots are sealed (R-7.1 step 3)."""

    commitment: str
    candidate: NobleId | None


@dataclass(frozen=True, slots=True, kw_only=True)
class MarkerSecret:
    """What opens a marker's commitment, its owner's until the reveal: FOR or DECOY ("for",
    "decoy"), its candidate and its salt. Kept as the log holds them, for the audit to judge."""

    kind: str
    candidate: NobleId
    salt: str


@dataclass(frozen=True, slots=True, kw_only=True)
class OpenedMarker:
    """A marker turned face up at the reveal: whose it is, the commitment it opens, and what
    opens it (R-7.1 step 4)."""

    seat: Seat
    commitment: str
    candidate: NobleId
    kind: str
    salt: str


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
class CandidateWithdrawn(Event):
    """A candidate died, was captured or outlawed or took the black before the reveal: he
    cannot win and markers on him count for nothing (R-7.2)."""

    election: str
    noble: NobleId
    reason: str


@dataclass(frozen=True, slots=True, kw_only=True)
class CandidacyPassed(Event):
    election: str
    seat: Seat


@dataclass(frozen=True, slots=True, kw_only=True)
class BallotOpened(Event):
    """Ballots opened; votes are fixed here for the whole election (R-7.2). Schema 2 made each
    weight an object {seat, votes} (it was a [seat, votes] pair)."""

    election: str
    candidates: tuple[NobleId, ...]
    weights: tuple[Weight, ...]
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
    markers: tuple[ShownMarker, ...]
    secrets: tuple[MarkerSecret, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class StepTimedOut(Event):
    """The step's deadline passed: everyone in `passed` is recorded as passing (R-4.3)."""

    election: str
    stage: str
    passed: tuple[Seat, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class BallotsRevealed(Event):
    """All markers shown at once, with the count and its result (R-7.1 steps 4-5). Schema 2
    made each count an object {noble, votes} (it was a [noble, votes] pair)."""

    election: str
    title: TitleId
    markers: tuple[OpenedMarker, ...]
    votes: tuple[VoteCount, ...]
    winner: NobleId | None
    reason: str
    # When the winner's player must have taken or refused the title.
    deadline: float | None
    # The round of the election, so that the history tells it later. Schema 1 records did not
    # always hold it; read from them, it is None (not recorded).
    round: int | None
