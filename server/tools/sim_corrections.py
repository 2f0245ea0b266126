"""The host's corrections of the facts he recorded (section 9, R-9.1) in simulated games: which
record he corrects (mostly the fact he has just entered, often a death, now and then one long
past, one the court wrote itself or a record that is no fact at all) and to what. Many are
refused; a refusal must leave the log as it was, which the simulation checks."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from court.commands import ProposeCorrection
from court.ids import HouseId
from court.state import CourtState

# The records a correction may name: a death, a village's holder, Gold Dragons. Those the
# court wrote itself (a death by a decree, a correction's compensation) are among them: the
# court must refuse to correct them.
CORRECTABLE = frozenset({"NobleDied", "VillageControlChanged", "GoldAdjusted"})
# How the host picks the record: the fact just recorded, a death, any correctable record,
# and, left over, any version of the log at all.
JUST_RECORDED, A_DEATH, ANY_FACT = 0.45, 0.25, 0.2
# Gold Dragons that should have been recorded, against those that were (0: the same, refused).
GOLD_SLIPS = (-3, -2, -1, 0, 1, 2, 3)


# Records that follow a fact in its command without following from it: the clocks' marks.
UNRELATED = frozenset({"ClockStarted", "ClockStopped"})


@dataclass(frozen=True, slots=True)
class Recorded:
    """A record a correction may name, and the records its command wrote after it: those
    followed from it (a candidacy withdrawn, a power lapsed, a step moving on)."""

    version: int
    type: str
    data: dict[str, Any]
    followers: tuple[str, ...] = ()


@dataclass
class FactBook:
    """The records of a game a correction may name, as it goes, and its head."""

    records: list[Recorded] = field(default_factory=list)
    head: int = 0

    def note(self, written: Sequence[tuple[int, str, dict[str, Any]]]) -> None:
        """The records one command wrote: (version, type, data) each."""
        for at, (version, event_type, data) in enumerate(written):
            self.head = version
            if event_type in CORRECTABLE:
                after = tuple(t for _, t, _ in written[at + 1 :] if t not in UNRELATED)
                self.records.append(Recorded(version, event_type, data, after))

    def unanswered(self, written: Sequence[tuple[int, str, dict[str, Any]]]) -> list[str]:
        """R-9.1: a correction is refused when later records followed from the corrected one,
        unless it undoes them: for each correction these records make, the records its
        fact's own command wrote after it that the correction left standing (it wrote no
        more than its one compensating record)."""
        found = []
        for at, (_, event_type, data) in enumerate(written):
            if event_type != "CorrectionMade":
                continue
            version = data["correction"]["version"]
            fact = next((r for r in self.records if r.version == version), None)
            if fact is not None and fact.followers and len(written) - at <= 2:
                found.append(
                    f"R-9.1: the correction of record {version} ({fact.type}) was made, though "
                    f"its command went on with {', '.join(fact.followers)}, left standing"
                )
        return found


def random_correction(state: CourtState, rng: random.Random, book: FactBook) -> ProposeCorrection:
    """A correction the host might propose now, possible or not."""
    cause = "the host misread the table"
    deaths = [r for r in book.records if r.type == "NobleDied"]
    roll = rng.random()
    if book.records and roll < JUST_RECORDED:
        chosen = book.records[-1]
    elif deaths and roll < JUST_RECORDED + A_DEATH:
        chosen = rng.choice(deaths)
    elif book.records and roll < JUST_RECORDED + A_DEATH + ANY_FACT:
        chosen = rng.choice(book.records)
    else:
        return ProposeCorrection(version=rng.randint(0, book.head + 1), cause=cause)
    if chosen.type == "GoldAdjusted":
        amount = None if rng.random() < 0.05 else chosen.data["amount"] + rng.choice(GOLD_SLIPS)
        return ProposeCorrection(version=chosen.version, amount=amount, cause=cause)
    if chosen.type == "VillageControlChanged":
        houses = [None, *sorted(HouseId(h) for h in state.treasury)]
        return ProposeCorrection(version=chosen.version, house=rng.choice(houses), cause=cause)
    return ProposeCorrection(version=chosen.version, cause=cause)
