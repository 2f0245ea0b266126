"""The host's corrections of the facts he recorded (section 9, R-9.1) in simulated games: which
record he corrects (mostly the fact he has just entered, often a death, now and then one long
past, one the court wrote itself or a record that is no fact at all) and to what, and when he
corrects a fact at once, having just recorded it. Many are refused; a refusal must leave the
log as it was, which the simulation checks."""

from __future__ import annotations

import json
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
# How often the host, the fact just recorded, at once proposes to correct it (he misread the
# table), while its command is the last: mostly when it withdrew a Noble from the election
# under way, whose candidacy the correction gives back if the seats answer before the
# election moves on; now and then any other fact, whatever the moment (mid sale, mid ballot).
SECOND_THOUGHTS = {"CandidateWithdrawn": 0.5}
OTHER_SECOND_THOUGHTS = 0.1


# Records that follow a fact in its command without following from it: the clocks' marks, and
# the lapse of another correction under vote, which judged that one and leaves the court as it
# was (correcting this fact does not bring it back to the vote).
UNRELATED = frozenset({"ClockStarted", "ClockStopped", "CorrectionLapsed"})
# The field of a fact that names what it is about. A later record of its command that does
# not name it (a turn closed, a step moved on) is the server's step, which the court decides
# again on the court as corrected (court/decide/followed.py): the oracle leaves those to it.
# Gold Dragons are about their House, as the court's correction names it (its `subject`).
SUBJECTS = {"NobleDied": "noble", "VillageControlChanged": "village", "GoldAdjusted": "house"}


@dataclass(frozen=True, slots=True)
class Recorded:
    """A record a correction may name; the records its command wrote after it (those that
    followed from it: a candidacy withdrawn, a power lapsed, a step moving on); those of them
    that name its subject (the Noble who died, the village, the House of Gold Dragons);
    whether it is a correction's compensation; the Noble a death is about as he stood
    before it."""

    version: int
    type: str
    data: dict[str, Any]
    followers: tuple[str, ...] = ()
    compensation: bool = False
    noble_before: Noble | None = None
    naming: tuple[str, ...] = ()


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
            later = [r for r in written[at + 1 :] if r.type not in UNRELATED]
            noble = record.data.get("noble") if record.type == "NobleDied" else None
            subject = SUBJECTS.get(record.type)
            self.records[record.version] = Recorded(
                record.version,
                record.type,
                record.data,
                tuple(r.type for r in later),
                compensation=at > 0 and written[at - 1].type == "CorrectionMade",
                noble_before=record.before.nobles.get(noble) if noble else None,
                naming=tuple(
                    r.type
                    for r in later
                    if subject is None or f'"{record.data[subject]}"' in json.dumps(r.data)
                ),
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
    return correction_of(state, rng, chosen, cause)


def second_thought(
    state: CourtState, rng: random.Random, book: FactBook, since: int
) -> ProposeCorrection | None:
    """The host's correction of the fact he has just recorded (one written after version
    `since`), proposed at once; None when he keeps it, or it wrote no fact a correction names."""
    last = book.last()
    if last is None or last.version <= since:
        return None
    rate = max(
        (SECOND_THOUGHTS.get(f, OTHER_SECOND_THOUGHTS) for f in last.followers),
        default=OTHER_SECOND_THOUGHTS,
    )
    if rng.random() >= rate:
        return None
    return correction_of(state, rng, last, "the host saw at once he had misread the table")


def correction_of(
    state: CourtState, rng: random.Random, chosen: Recorded, cause: str
) -> ProposeCorrection:
    """A correction of `chosen` to what the host now says: other Gold Dragons (now and then
    none, or the same), another holder of the village (or nobody), a Noble alive."""
    if chosen.type == "GoldAdjusted":
        amount = None if rng.random() < 0.05 else chosen.data["amount"] + rng.choice(GOLD_SLIPS)
        return ProposeCorrection(version=chosen.version, amount=amount, cause=cause)
    if chosen.type == "VillageControlChanged":
        houses = [None, *sorted(HouseId(h) for h in state.treasury)]
        return ProposeCorrection(version=chosen.version, house=rng.choice(houses), cause=cause)
    return ProposeCorrection(version=chosen.version, cause=cause)
