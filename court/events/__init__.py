"""Court events: facts in the past tense, one per change, each with a persisted type name.

Events live in one module per subdomain; this package gathers them and holds the
registry of persisted names.
"""

from __future__ import annotations

from court.events.base import Event
from court.events.elections import (
    BallotOpened,
    BallotPlaced,
    BallotsRevealed,
    CandidacyPassed,
    CandidateStood,
    ElectionOpened,
    ElectionSkipped,
    StepTimedOut,
)
from court.events.nobles import (
    AllianceEnded,
    AttributeGained,
    Deserted,
    DieRolled,
    GoldPaid,
    NobleAdded,
    NobleCaptured,
    NobleDied,
    NobleFreed,
    OutlawDeclared,
    OutlawPardoned,
    TookTheBlack,
)
from court.events.rounds import (
    GoldAdjusted,
    IncomePaid,
    PhaseStarted,
    RoundStarted,
    VillageControlChanged,
)
from court.events.setup import (
    GameCreated,
    GameStarted,
    SeatJoined,
    SeatLeft,
)
from court.events.titles import (
    TitleGranted,
    TitlePassed,
    TitleRefused,
    TitleReturned,
    TitleSlotsExceeded,
)

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
    "NobleDied": (NobleDied, 1),
    "NobleCaptured": (NobleCaptured, 1),
    "NobleFreed": (NobleFreed, 1),
    "OutlawDeclared": (OutlawDeclared, 1),
    "OutlawPardoned": (OutlawPardoned, 1),
    "TookTheBlack": (TookTheBlack, 1),
    "Deserted": (Deserted, 1),
    "AttributeGained": (AttributeGained, 1),
    "NobleAdded": (NobleAdded, 1),
    "DieRolled": (DieRolled, 1),
    "GoldPaid": (GoldPaid, 1),
    "AllianceEnded": (AllianceEnded, 1),
}

TYPE_NAMES: dict[type[Event], str] = {cls: name for name, (cls, _) in EVENT_TYPES.items()}

__all__ = [
    "EVENT_TYPES",
    "TYPE_NAMES",
    "AllianceEnded",
    "AttributeGained",
    "BallotOpened",
    "BallotPlaced",
    "BallotsRevealed",
    "CandidacyPassed",
    "CandidateStood",
    "Deserted",
    "DieRolled",
    "ElectionOpened",
    "ElectionSkipped",
    "Event",
    "GameCreated",
    "GameStarted",
    "GoldAdjusted",
    "GoldPaid",
    "IncomePaid",
    "NobleAdded",
    "NobleCaptured",
    "NobleDied",
    "NobleFreed",
    "OutlawDeclared",
    "OutlawPardoned",
    "PhaseStarted",
    "RoundStarted",
    "SeatJoined",
    "SeatLeft",
    "StepTimedOut",
    "TitleGranted",
    "TitlePassed",
    "TitleRefused",
    "TitleReturned",
    "TitleSlotsExceeded",
    "TookTheBlack",
    "VillageControlChanged",
]
