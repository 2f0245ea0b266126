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
from court.state import CourtState, Noble
from server.tools.sim_table import Written

# The records a correction may name: a death, a village's holder, Gold Dragons. Those the
# court wrote itself (a death by a decree, a correction's compensation) are among them: the
# court must refuse to correct them.
CORRECTABLE = frozenset({"NobleDied", "VillageControlChanged", "GoldAdjusted"})
# How the host picks the record: the fact just recorded, a death, any correctable record,
# and, left over, any version of the log at all.
JUST_RECORDED, A_DEATH, ANY_FACT = 0.45, 0.25, 0.2
# Gold Dragons that should have been recorded, against those that were (0: the same, refused).
GOLD_SLIPS = (-3, -2, -1, 0, 1, 2, 3)


# Records that follow a fact in its command without following from it: the clocks' marks, and
# the lapse of another correction under vote, which judged that one and leaves the court as it
# was (correcting this fact does not bring it back to the vote).
UNRELATED = frozenset({"ClockStarted", "ClockStopped", "CorrectionLapsed"})


@dataclass(frozen=True, slots=True)
class Recorded:
    """A record a correction may name; the records its command wrote after it (those that
    followed from it: a candidacy withdrawn, a power lapsed, a step moving on); whether it is
    a correction's compensation; the Noble a death is about as he stood before it."""

    version: int
    type: str
    data: dict[str, Any]
    followers: tuple[str, ...] = ()
    compensation: bool = False
    noble_before: Noble | None = None


@dataclass
class FactBook:
    """The records of a game a correction may name, as it goes, and its head."""

    records: dict[int, Recorded] = field(default_factory=dict)
    head: int = 0

    def note(self, written: Sequence[Written]) -> None:
        """The records one command wrote."""
        for at, record in enumerate(written):
            self.head = record.version
            if record.type not in CORRECTABLE:
                continue
            after = tuple(r.type for r in written[at + 1 :] if r.type not in UNRELATED)
            noble = record.data.get("noble") if record.type == "NobleDied" else None
            self.records[record.version] = Recorded(
                record.version,
                record.type,
                record.data,
                after,
                compensation=at > 0 and written[at - 1].type == "CorrectionMade",
                noble_before=record.before.nobles.get(noble) if noble else None,
            )

    def last(self) -> Recorded | None:
        return self.records[max(self.records)] if self.records else None


def random_correction(state: CourtState, rng: random.Random, book: FactBook) -> ProposeCorrection:
    """A correction the host might propose now, possible or not."""
    cause = "the host misread the table"
    records = list(book.records.values())
    deaths = [r for r in records if r.type == "NobleDied"]
    last, roll = book.last(), rng.random()
    if last is not None and roll < JUST_RECORDED:
        chosen = last
    elif deaths and roll < JUST_RECORDED + A_DEATH:
        chosen = rng.choice(deaths)
    elif records and roll < JUST_RECORDED + A_DEATH + ANY_FACT:
        chosen = rng.choice(records)
    else:
        return ProposeCorrection(version=rng.randint(0, book.head + 1), cause=cause)
    if chosen.type == "GoldAdjusted":
        amount = None if rng.random() < 0.05 else chosen.data["amount"] + rng.choice(GOLD_SLIPS)
        return ProposeCorrection(version=chosen.version, amount=amount, cause=cause)
    if chosen.type == "VillageControlChanged":
        houses = [None, *sorted(HouseId(h) for h in state.treasury)]
        return ProposeCorrection(version=chosen.version, house=rng.choice(houses), cause=cause)
    return ProposeCorrection(version=chosen.version, cause=cause)
