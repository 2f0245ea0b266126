"""A candidate who dies, is captured or outlawed or takes the black before the reveal is
withdrawn: markers on him count for nothing and he cannot win (R-7.2 [D])."""

from __future__ import annotations

import pytest

from court.commands import Pass, RecordCapture, RecordDeath, StandForElection
from court.errors import CourtError
from court.events import BallotOpened, BallotsRevealed, CandidateWithdrawn, ElectionSkipped
from court.soundness.invariants import violations
from court.soundness.settled import unsettled
from court.state import CourtState
from tests.court.given import seat, then_state, when, when_fact
from tests.court.moments import (
    JAIME,
    ROBB,
    act,
    ballot,
    ballot_open,
    two_voters,
)


def settled(state: CourtState, events) -> CourtState:
    state = then_state(state, events)
    assert violations(state) == [] and unsettled(state) == []
    return state


def test_a_candidate_who_dies_during_the_ballot_is_withdrawn_and_cannot_win() -> None:
    """R-7.2 [D]: given Lannister placed his FOR on Robb, when Robb's death is recorded before
    the reveal, then Robb is withdrawn (recorded), and Jaime wins with Stark's votes."""
    state = act(ballot_open(), ballot(("for", "robb-stark")), seat(1))
    events = when_fact(state, RecordDeath(noble=ROBB, kind="battle", cause="the Twins"))
    withdrawn = next(e for e in events if isinstance(e, CandidateWithdrawn))
    assert withdrawn.noble == ROBB and "R-7.2" in withdrawn.reason
    state = settled(state, events)
    with pytest.raises(CourtError) as err:
        when(state, ballot(("for", "robb-stark")), seat(0))
    assert err.value.code == "not_a_candidate"
    events = when(state, ballot(("for", "jaime-lannister")), seat(0))
    revealed = next(e for e in events if isinstance(e, BallotsRevealed))
    assert revealed.winner == JAIME
    assert {c.noble: c.votes for c in revealed.votes} == {
        JAIME: 4
    }  # Robb's marker is shown but counts for nothing
    assert any(m.candidate == ROBB for m in revealed.markers)
    settled(state, events)


def test_a_candidate_captured_before_the_ballot_opens_stands_no_more() -> None:
    """R-7.2 [D]: a captive never stands; withdrawn in candidacy, he is not on the ballot."""
    state = act(two_voters(), StandForElection(noble=JAIME), seat(1))
    events = when_fact(state, RecordCapture(noble=JAIME, house="tyrell", cause="raid"))
    assert any(isinstance(e, CandidateWithdrawn) and e.noble == JAIME for e in events)
    state = settled(state, events)
    state = act(act(state, Pass(), seat(2)), StandForElection(noble=ROBB), seat(0))
    assert state.election is not None and state.election.standing == (ROBB,)


def test_an_election_whose_every_candidate_was_withdrawn_is_skipped() -> None:
    """R-7.1 step 2, R-7.2: no candidate left, no ballot; the skip is recorded with why."""
    state = act(two_voters(), StandForElection(noble=JAIME), seat(1))
    state = settled(
        state, when_fact(state, RecordDeath(noble=JAIME, kind="battle", cause="ambush"))
    )
    state = act(state, Pass(), seat(2))
    events = when(state, Pass(), seat(0))
    skipped = next(e for e in events if isinstance(e, ElectionSkipped))
    assert skipped.election == "warden-north" and "withdrawn" in skipped.reason
    assert not any(isinstance(e, BallotOpened) for e in events)
