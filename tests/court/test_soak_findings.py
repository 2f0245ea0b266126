"""What the soak found in the host's corrections (R-9.1) and the table's votes (R-9.2), each as
a minimal reproduction that fails until the court does as the rules say (strict: a fix makes
it pass, and the mark comes off). Each names the seeded simulated game that found it, which
`flask court simulate --rounds 30 --players P --variants V --seed N` plays again (P and V as
its line in the run said)."""

from __future__ import annotations

import pytest

from court.commands import (
    Actor,
    AnswerCorrection,
    Command,
    ProposeCorrection,
    RecordDeath,
    StandForElection,
)
from court.decide import decide_folded
from court.errors import CourtError
from court.events import Event, FactRecorded, NobleDied
from court.ids import NobleId
from court.invariants import require_sound
from court.state import CourtState
from tests.court.given import HOST, seat
from tests.court.test_withdrawal import JAIME, two_voters


def act(state: CourtState, command: Command, actor: Actor) -> tuple[tuple[Event, ...], CourtState]:
    """As the service decides: every state on the way must keep the court's invariants."""
    return decide_folded(state, command, actor, 0.0, check=require_sound)


def death_correction(state: CourtState, noble: NobleId) -> tuple[ProposeCorrection, CourtState]:
    """The host records `noble`'s death; the correction of it as the service fills it in from
    the log (the death's record, its attribution, the Noble as he stood before), and the court
    after the death."""
    events, after = act(state, RecordDeath(noble=noble, kind="battle", cause="ambush"), HOST)
    assert isinstance(events[0], FactRecorded)
    died = next(e for e in events if isinstance(e, NobleDied))
    proposal = ProposeCorrection(
        version=40,
        cause="he lived",
        recorded=died,
        before=events[0],
        noble_before=state.nobles[noble],
    )
    return proposal, after


def made(state: CourtState, proposal: ProposeCorrection, voters: tuple[int, ...]) -> CourtState:
    """The host proposes the correction and `voters` accept it: the court once it is made."""
    _, state = act(state, proposal, HOST)
    for voter in voters:
        _, state = act(state, AnswerCorrection(accept=True), seat(voter))
    return state


@pytest.mark.xfail(strict=True, reason="R-9.1: a withdrawn candidacy is left standing")
def test_a_candidates_death_is_not_corrected_while_his_withdrawal_stands() -> None:
    """R-9.1, R-7.2 (seed 8, 6 players, nights_watch,sealed_ballots; seed 18, 5 players, no
    variant): given Jaime stands for Warden of the North,
    when his recorded death withdraws him and the host corrects the death, then the correction
    is refused, or it puts Jaime back among the candidates."""
    state = two_voters()
    _, state = act(state, StandForElection(noble=JAIME), seat(1))
    proposal, state = death_correction(state, JAIME)
    assert state.election is not None and JAIME not in state.election.standing
    try:
        state = made(state, proposal, (0, 1))
    except CourtError:
        return
    assert state.election is not None and JAIME in state.election.standing
