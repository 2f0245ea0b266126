"""Where each line of the history comes from: the rule it applied (an id of the court rules,
docs/rules.md) and whether it is play, a skip or bookkeeping. The history shows play by
default; skips (a step or an election nobody could take part in) and bookkeeping (clocks,
phase marks, the note that a fact was recorded) are one click away. And what a record's fold
ends beyond its own fact, which no record of its own tells (`effects`)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from court.events import Event, NobleDied, TookTheBlack
from court.state import CourtState


class Kind(StrEnum):
    PLAY = "play"
    SKIP = "skip"
    BOOKKEEPING = "bookkeeping"


SKIPS = frozenset({"ElectionSkipped", "DecreeStepSkipped", "AuctionSkipped"})
BOOKKEEPING = frozenset(
    {
        "ClockStarted",
        "ClockStopped",
        "DecreeStepClosed",
        "DecreeTurnEnded",
        "DeviceKeyAdded",
        "DeviceKeyDropped",
        "FactRecorded",
        "MoveSigned",
        "PhaseStarted",
        "SeatLinkAdded",
        "SeatLinkDropped",
    }
)

# The rules each event applies, by its type. A sentence that names a rule itself (an election
# skipped for its region's condition, R-7.4) adds that rule to these.
FACTS = "§9"
SERVER = "§10"
RULES: dict[str, tuple[str, ...]] = {
    "GameCreated": ("R-1.1", "R-2.2"),
    "SeatJoined": ("R-1.1",),
    "SeatLeft": ("R-1.1",),
    "GameStarted": ("R-1.1", "R-2.2"),
    "GameListed": (SERVER,),
    "GameUnlisted": (SERVER,),
    "GameRenamed": (SERVER,),
    "SeatHanded": (SERVER, "R-9.2"),
    "SeatClaimed": ("R-9.2",),
    "HostHandedOver": (SERVER,),
    "HostVoteCast": (SERVER, "R-9.2"),
    "HostVoteWithdrawn": (SERVER, "R-9.2"),
    "HostTakenOver": (SERVER, "R-9.2"),
    "SeatRemoved": (SERVER,),
    "SeatLinkAdded": (SERVER,),
    "SeatLinkDropped": (SERVER,),
    "DeviceKeyAdded": (SERVER,),
    "DeviceKeyDropped": (SERVER,),
    "MoveSigned": (SERVER,),
    "ReplaceVoteCast": (SERVER, "R-9.2"),
    "SeatReplaced": (SERVER, "R-9.2"),
    "BotSeated": (SERVER, "R-9.2"),
    "BotPlayed": (SERVER,),
    "BotStoodDown": (SERVER, "R-9.2"),
    "EndVoteCast": (SERVER, "R-9.2"),
    "EndVoteWithdrawn": (SERVER, "R-9.2"),
    "TableEndedGame": (SERVER, "R-9.2", "R-4.7"),
    "CorrectionProposed": (FACTS, "R-9.1"),
    "CorrectionAnswered": (FACTS, "R-9.1", "R-9.2"),
    "CorrectionWithdrawn": (FACTS, "R-9.1"),
    "CorrectionRefused": (FACTS, "R-9.1"),
    "CorrectionLapsed": (FACTS, "R-9.1"),
    "CorrectionMade": (FACTS, "R-9.1"),
    "NobleRestored": (FACTS, "R-9.1", "R-1.4"),
    "CandidacyRestored": (FACTS, "R-9.1", "R-7.2"),
    "RoundStarted": ("R-1.1", "R-4.1"),
    "PhaseStarted": ("R-4.1",),
    "IncomePaid": ("R-4.5", "R-2.2"),
    "GoldAdjusted": (FACTS, "R-2.1"),
    "GoldPaid": ("R-2.1",),
    "VillageControlChanged": (FACTS,),
    "FactRecorded": (FACTS,),
    "DieRolled": ("R-4.4", "R-6.2", SERVER),
    "ClockStarted": ("R-4.3",),
    "ClockStopped": ("R-4.3",),
    "StepTimedOut": ("R-4.3",),
    "ElectionSkipped": ("R-7.1", "R-4.2"),
    "ElectionOpened": ("R-7.1", "R-4.2", "R-7.6"),
    "CandidateStood": ("R-7.1",),
    "CandidacyPassed": ("R-7.1",),
    "CandidateWithdrawn": ("R-7.2",),
    "BallotOpened": ("R-7.1", "R-7.2"),
    "BallotPlaced": ("R-7.1",),
    "BallotsRevealed": ("R-7.1", SERVER),
    "TitleGranted": ("R-3.2",),
    "TitleRefused": ("R-3.3",),
    "TitleReturned": ("R-3.2",),
    "TitlePassed": ("R-3.2", "R-3.10"),
    "TitleSlotsExceeded": ("R-3.2", "R-3.1"),
    "TitleChoiceTimedOut": ("R-3.2", "R-4.3"),
    "TitleChoiceLapsed": ("R-3.3", FACTS),
    "TitleConceded": ("R-6.6", "R-3.10"),
    "DecreeStepOpened": ("R-4.2", "R-6.1"),
    "DecreeStepSkipped": ("R-4.2",),
    "DecreeStepClosed": ("R-4.2",),
    "DecreePassed": ("R-4.2",),
    "DecreeTurnEnded": ("R-4.2",),
    "DecreeTurnLapsed": ("R-6.7",),
    "DecreeTimedOut": ("R-4.3",),
    "MarriageProposed": ("R-5.1",),
    "MarriageDeclined": ("R-5.1",),
    "MarriageMade": ("R-5.1", "R-5.2", "R-5.3"),
    "MarriageEnded": ("R-5.4",),
    "Divorced": ("R-5.4",),
    "AllianceEnded": ("R-5.4",),
    "RhllorEmbraced": ("R-6.2",),
    "SeptsPillaged": ("R-6.2",),
    "OutlawDeclared": ("R-6.4", "R-6.5"),
    "OutlawPardoned": ("R-6.3",),
    "TookTheBlack": ("R-8.3", "R-3.4"),
    "Deserted": ("R-8.4",),
    "NobleDied": ("R-1.4", FACTS),
    "NobleCaptured": ("R-8.1",),
    "NobleFreed": ("R-8.1",),
    "NobleAdded": ("R-1.2",),
    "AttributeGained": ("R-1.3",),
    "SeptBuilt": ("R-4.6",),
    "AuctionOpened": ("R-4.6",),
    "AuctionSkipped": ("R-4.6",),
    "BidPlaced": ("R-4.6",),
    "BidPassed": ("R-4.6",),
    "BidsTimedOut": ("R-4.6", "R-4.3"),
    "BidsRevealed": ("R-4.6", SERVER),
    "CouncilSeatTaken": ("R-4.6", "R-3.5"),
    "CouncilSeatLapsed": ("R-4.6",),
    "CouncilSeatVacated": ("R-4.6",),
    "PurchaseTurnsOpened": ("R-4.1", "R-4.6"),
    "PurchasesDone": ("R-4.1",),
    "PurchasesTimedOut": ("R-4.1", "R-4.3"),
    "FiefGrantedByKing": ("R-3.6",),
    "RansomOffered": ("R-8.2",),
    "RansomPaid": ("R-8.2",),
    "RansomRefused": ("R-8.2",),
    "RansomWithdrawn": ("R-8.2",),
    "GameEnded": ("R-4.7", "R-3.7"),
}

NAMED = re.compile(r"\bR-\d+\.\d+\b")
# The rule of each election, by the start of its id (court/options/electorate.py): a line of an
# election applies its own rule besides the procedure's.
ELECTIONS = (
    ("lord-commander", "R-7.3"),
    ("warden-", "R-7.4"),
    ("hand", "R-7.7"),
    ("king", "R-7.8"),
)


def kind_of(event_type: str) -> Kind:
    """Whether a record of this type is play, a skip or bookkeeping."""
    if event_type in SKIPS:
        return Kind.SKIP
    return Kind.BOOKKEEPING if event_type in BOOKKEEPING else Kind.PLAY


def rules_of(event_type: str, sentence: str, data: Mapping[str, Any] | None = None) -> list[str]:
    """The rules a record applied: those its sentence names first, then those its cause or
    reason names (a Queen's title granted "the King married (R-3.8)"), its type's own, and an
    election's own rule, each once. A type this server does not know applied none it can
    name."""
    data = data or {}
    named = NAMED.findall(sentence)
    for key in ("cause", "reason"):
        text = data.get(key)
        if isinstance(text, str):
            named += NAMED.findall(text)
    election = data.get("election")
    if isinstance(election, str):
        named += [rule for start, rule in ELECTIONS if election.startswith(start)]
    return list(dict.fromkeys([*named, *RULES.get(event_type, ())]))


def effects(state: CourtState, event: Event) -> list[str]:
    """What a record's own fold ends besides its fact, told with the rule, `state` being the
    court right before it: a death or taking the black ends the Noble's marriage (R-5.4,
    R-8.3; with 3 players no `AllianceEnded` precedes it), and a death the ransom offered for
    him (R-8.2). A correction of the record must undo these too (R-9.1)."""
    if not isinstance(event, NobleDied | TookTheBlack) or event.noble not in state.nobles:
        return []
    noble = state.nobles[event.noble]
    found = []
    spouse = state.nobles.get(noble.spouse) if noble.spouse is not None else None
    if spouse is not None:
        found.append(f"his marriage to {spouse.name} ended (R-5.4)")
    if isinstance(event, NobleDied) and any(o.captive == noble.id for o in state.offers.values()):
        found.append("the ransom offered for him was withdrawn (R-8.2)")
    return found
