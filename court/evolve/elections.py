"""Folding the elections of phase 1."""

from __future__ import annotations

import dataclasses
from typing import Any

from court.events.elections import (
    BallotOpened,
    BallotPlaced,
    BallotsRevealed,
    CandidacyPassed,
    CandidateStood,
    CandidateWithdrawn,
    ElectionOpened,
    ElectionSkipped,
    MarkerSecret,
    StepTimedOut,
)
from court.evolve.base import Handlers, replace
from court.state import (
    CourtState,
    Election,
    PendingKind,
    PendingTitle,
    PlacedMarker,
    Stage,
    StepKind,
    StepRef,
)


def _election(state: CourtState, **changes: Any) -> CourtState:
    assert state.election is not None
    return replace(state, election=dataclasses.replace(state.election, **changes))


def _election_skipped(state: CourtState, e: ElectionSkipped) -> CourtState:
    return replace(state, step=StepRef(kind=StepKind.ELECTION, id=e.election), election=None)


def _election_opened(state: CourtState, e: ElectionOpened) -> CourtState:
    election = Election(
        id=e.election, title=e.title, stage=Stage.CANDIDACY, order=e.order, deadline=e.deadline
    )
    return replace(state, step=StepRef(kind=StepKind.ELECTION, id=e.election), election=election)


def _candidate_stood(state: CourtState, e: CandidateStood) -> CourtState:
    election = state.election
    assert election is not None
    return _election(
        state,
        acted=(*election.acted, e.seat),
        candidates=(*election.candidates, (e.seat, e.noble)),
    )


def _candidate_withdrawn(state: CourtState, e: CandidateWithdrawn) -> CourtState:
    assert state.election is not None
    return _election(state, withdrawn=(*state.election.withdrawn, e.noble))


def _candidacy_passed(state: CourtState, e: CandidacyPassed) -> CourtState:
    assert state.election is not None
    return _election(state, acted=(*state.election.acted, e.seat))


def _ballot_opened(state: CourtState, e: BallotOpened) -> CourtState:
    return _election(
        state,
        stage=Stage.BALLOT,
        order=e.order,
        acted=(),
        weights={w.seat: w.votes for w in e.weights},
        minimum=e.minimum,
        deadline=e.deadline,
    )


def _ballot_placed(state: CourtState, e: BallotPlaced) -> CourtState:
    election = state.election
    assert election is not None
    # A record read with its private part withheld has no secrets: the kinds stay unknown.
    secrets: tuple[MarkerSecret | None, ...] = e.secrets or (None,) * len(e.markers)
    placed = tuple(
        PlacedMarker(
            commitment=m.commitment,
            candidate=m.candidate,
            secret_kind=None if s is None else s.kind,
            secret_candidate=None if s is None else s.candidate,
            secret_salt=None if s is None else s.salt,
        )
        for m, s in zip(e.markers, secrets, strict=True)
    )
    return _election(
        state,
        acted=(*election.acted, e.seat),
        placements={**election.placements, e.seat: placed},
    )


def _step_timed_out(state: CourtState, e: StepTimedOut) -> CourtState:
    assert state.election is not None
    return _election(state, acted=(*state.election.acted, *e.passed))


def _ballots_revealed(state: CourtState, e: BallotsRevealed) -> CourtState:
    pending = None
    if e.winner is not None:
        seat = state.seat_of_house(state.nobles[e.winner].house)
        assert seat is not None
        pending = PendingTitle(
            kind=PendingKind.ACCEPTANCE,
            seat=seat,
            noble=e.winner,
            title=e.title,
            election=e.election,
            deadline=e.deadline,
        )
    return replace(state, election=None, pending=pending)


HANDLERS: Handlers = {
    ElectionSkipped: _election_skipped,
    ElectionOpened: _election_opened,
    CandidateStood: _candidate_stood,
    CandidacyPassed: _candidacy_passed,
    CandidateWithdrawn: _candidate_withdrawn,
    BallotOpened: _ballot_opened,
    BallotPlaced: _ballot_placed,
    StepTimedOut: _step_timed_out,
    BallotsRevealed: _ballots_revealed,
}
