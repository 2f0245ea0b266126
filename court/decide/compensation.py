"""What a correction of a recorded fact does to the court (R-9.1): the compensating events that
set it as the corrected fact would have left it, the corrected record staying in the log, and
whether they still can: what the correction changes still stands as it was recorded, and the
court after it breaks none of its invariants."""

from __future__ import annotations

from collections.abc import Iterable

from court.errors import CourtError
from court.events import (
    CandidacyRestored,
    Event,
    GoldAdjusted,
    NobleRestored,
    VillageControlChanged,
)
from court.evolve import evolve
from court.ids import HouseId, NobleId, VillageId
from court.model.table import Correction
from court.sentences import names
from court.soundness.invariants import violations
from court.state import CourtState, NobleStatus


def compensation(c: Correction, state: CourtState) -> tuple[Event, ...]:
    """The events that set `state` as the corrected fact would have left it, the corrected
    record staying in the log."""
    cause = f"correction of the record at version {c.version}: {c.cause}"
    if c.fact == "gold":
        return (
            GoldAdjusted(
                house=HouseId(c.subject), amount=c.amount - c.recorded_amount, cause=cause
            ),
        )
    if c.fact == "village_control":
        return (VillageControlChanged(village=VillageId(c.subject), house=c.house, cause=cause),)
    noble = NobleId(c.subject)
    restored: tuple[Event, ...] = (
        NobleRestored(noble=noble, status=c.status, captor=c.captor, outlaw=c.outlaw, cause=cause),
    )
    election = state.election
    withdrawn = () if election is None or election.id != c.candidacy else election.withdrawn
    if c.candidacy is not None and noble in withdrawn:
        restored += (CandidacyRestored(election=c.candidacy, noble=noble, cause=cause),)
    return restored


def folded(state: CourtState, events: Iterable[Event]) -> CourtState:
    for event in events:
        state = evolve(state, event)
    return state


def subject_of(c: Correction, state: CourtState) -> str:
    if c.fact == "death":
        return f"The death of {names.noble(state, c.subject)}"
    if c.fact == "village_control":
        return f"Who holds {names.village(state, c.subject)}"
    return f"The Gold Dragons of {names.house(state, c.subject)}"


def holds(c: Correction, state: CourtState) -> None:
    """What the correction changes still stands as it was recorded, what it undoes is still
    there to undo, and the court after it breaks none of its invariants (R-9.1): refused with
    the reason otherwise."""
    subject = subject_of(c, state)
    if c.fact == "gold":
        house = HouseId(c.subject)
        held = state.treasury[house]
        if held + c.amount - c.recorded_amount < 0:
            raise CourtError(
                "treasury_too_low",
                f"A treasury can never go below zero (R-2.1): {names.house(state, house)} "
                f"holds {held} GD now, and correcting record {c.version} from "
                f"{c.recorded_amount} to {c.amount} GD takes {c.recorded_amount - c.amount}. "
                f"Propose {c.recorded_amount - held} GD or more, or record first the Gold "
                "Dragons it has won since.",
            )
    if c.fact == "village_control" and state.villages.get(VillageId(c.subject)) != c.was_house:
        raise CourtError(
            "village_changed_since",
            f"The village was recorded again after version {c.version}: record who holds it "
            "now instead.",
        )
    if c.fact == "death":
        noble = NobleId(c.subject)
        if state.nobles[noble].status is not NobleStatus.DEAD:
            raise CourtError("noble_alive", f"{names.noble(state, noble)} is no longer dead.")
        election = state.election
        if c.candidacy is not None and (
            election is None or election.id != c.candidacy or noble not in election.withdrawn
        ):
            raise CourtError(
                "later_record_followed",
                f"{subject} cannot be corrected: the election of "
                f"{names.election(state, c.candidacy)} he was withdrawn from has moved on.",
            )
    before = set(violations(state))
    after = violations(folded(state, compensation(c, state)))
    broken = [v for v in after if v not in before]
    if broken:
        raise CourtError(
            "correction_breaks_rules",
            f"{subject} cannot be corrected: the court after it would break the rules, "
            f"{'; '.join(broken)}. Record what has happened instead.",
        )
