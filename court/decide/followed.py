"""What followed from a corrected record (R-9.1), and the events that undo it: every record
after it is judged in turn on the court as it stood right before that record. A record
followed from the corrected one when it names the corrected Noble or village (or a Fief title
of that village's Fiefdom, a Sept built there), or when the server decided it by itself and,
with the fact as corrected, would have decided otherwise (an election skipped or opened for
other players, other votes, another roll, or other income). One such record a correction undoes
itself: the candidacy a death withdrew, given back while that election stands where it stood."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from court.decide import rounds
from court.decide.compensation import compensation, folded, subject_of
from court.errors import CourtError
from court.events import (
    BallotPlaced,
    CandidacyPassed,
    CandidateStood,
    CandidateWithdrawn,
    CorrectionLapsed,
    Event,
    FiefGrantedByKing,
    IncomePaid,
    SeptBuilt,
    StepTimedOut,
    TitleConceded,
    TitleGranted,
    TitlePassed,
    TitleSlotsExceeded,
    VillageControlChanged,
)
from court.evolve import evolve
from court.ids import NobleId, VillageId
from court.log.codec import encode
from court.model.table import Correction
from court.sentences import tell
from court.state import CourtState

# The moves that leave an election where it stood: a candidacy given back there is the one the
# rules would have had (its ballot not yet opened, or not yet revealed).
SAME_STAGE = (CandidateStood, CandidacyPassed, CandidateWithdrawn, BallotPlaced, StepTimedOut)
# Records a command makes by the server's own reckoning rather than a player's choice, and how
# it reckons each; every other the server makes by itself is its follow-up (court/decide/rounds.py).
RECKONED: dict[type, Callable[[CourtState], tuple[Event, ...]]] = {
    IncomePaid: lambda state: (rounds.income(state),),
}
# How a Fief title changes hands; each needs the Fiefdom's every village held.
FIEF_MOVES = (TitleGranted, TitlePassed, TitleConceded, FiefGrantedByKing, TitleSlotsExceeded)


@dataclasses.dataclass(frozen=True, slots=True)
class Followed:
    """A record that followed from the corrected one and that the correction cannot undo;
    `code` says how (`village_changed_since`: the village was recorded again)."""

    code: str = "later_record_followed"


def judged(c: Correction, before: CourtState, event: Event) -> Correction | Followed | None:
    """Whether `event`, recorded on the court `before`, followed from the corrected record:
    None when it did not, the correction extended to undo it too, or `Followed`."""
    if event.FOLLOWS_NO_FACT:  # the table's own records, a fact's note, the clocks' marks
        return None
    if c.fact == "death":
        found = _after_death(c, event)
    elif c.fact == "village_control":
        found = _after_village(c, before, event)
    else:
        found = None
    return found if found is not None else _decided_otherwise(c, before, event)


def _after_death(c: Correction, event: Event) -> Correction | Followed | None:
    """A dead Noble takes no part (R-1.4): a record naming him followed from his death. His
    withdrawal from the election under way (R-7.2) is undone while it stands where it stood."""
    noble = NobleId(c.subject)
    if isinstance(event, CandidateWithdrawn) and event.noble == noble and c.candidacy is None:
        return dataclasses.replace(c, candidacy=event.election)
    if c.candidacy is not None and getattr(event, "election", None) == c.candidacy:
        return None if isinstance(event, SAME_STAGE) else Followed()
    return Followed() if _names(encode(event)[1], noble) else None


def _after_village(c: Correction, before: CourtState, event: Event) -> Followed | None:
    """The village recorded again, a Sept built in it (R-4.6), a title of its Fiefdom gained
    (R-3.6, R-3.10)."""
    village = VillageId(c.subject)
    if isinstance(event, VillageControlChanged) and event.village == village:
        return Followed("village_changed_since")
    if isinstance(event, SeptBuilt) and event.village == village:
        return Followed()
    if isinstance(event, FIEF_MOVES):
        fiefdom = next(v.fiefdom for v in before.ruleset.villages if v.id == village)
        title = before.ruleset.title(event.title)
        if title is not None and title.fiefdom == fiefdom:
            return Followed()
    return None


def _decided_otherwise(c: Correction, before: CourtState, event: Event) -> Followed | None:
    """A record the server decided by itself on `before` (its follow-up, or a reckoning of
    RECKONED) that it would have decided otherwise on the court as corrected. Times are left
    out of the comparison: deadlines follow the moment, not the court."""
    reckon = RECKONED.get(type(event), lambda state: rounds.follow_up(state, 0.0))
    done = reckon(before)
    if not done or _shape(done[0]) != _shape(event):
        return None
    otherwise = reckon(folded(before, compensation(c, before)))
    return None if list(map(_shape, otherwise)) == list(map(_shape, done)) else Followed()


def _shape(event: Event) -> tuple[Any, ...]:
    values = (getattr(event, f.name) for f in dataclasses.fields(event))
    return (type(event), *(v for v in values if not isinstance(v, float)))


def _names(data: Any, subject: str) -> bool:
    if isinstance(data, str):
        return data == subject
    if isinstance(data, dict):
        return any(_names(v, subject) for v in data.values())
    if isinstance(data, list | tuple):
        return any(_names(v, subject) for v in data)
    return False


def scan(c: Correction, after: CourtState, later: Sequence[Event], first: int) -> Correction:
    """The correction judged against every record after the corrected one: `after` is the
    court right after it, `later` the records since, the first at version `first`. Refused
    naming the first record that followed from it and that it cannot undo; else the
    correction with what it undoes too."""
    state = after
    for version, event in enumerate(later, first):
        found = judged(c, state, event)
        state = evolve(state, event)
        if isinstance(found, Followed):
            raise CourtError(
                found.code,
                f"{subject_of(c, state)} (record {c.version}) cannot be corrected: record "
                f"{version} followed from it ({tell(event, state)}). A correction cannot undo "
                "that; record what has happened instead.",
            )
        if found is not None:
            c = found
    return c


class Watch:
    """Judges each record decided while a correction is under vote: the first that followed
    from the corrected one makes the correction lapse, recorded with the reason, since the
    acceptance could no longer be carried out (R-9.1)."""

    def __init__(self) -> None:
        self.lapsed: CorrectionLapsed | None = None

    def see(self, before: CourtState, event: Event, after: CourtState) -> None:
        c = before.table.correction
        if c is None or self.lapsed is not None or judged(c, before, event) is None:
            return
        self.lapsed = CorrectionLapsed(
            version=c.version,
            reason=f"{tell(event, after)} That followed from the record it corrects, and the "
            "correction cannot undo it",
        )
