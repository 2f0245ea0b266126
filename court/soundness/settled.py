"""What the server's own follow-ups must have settled once a command is decided (a withdrawn
candidate, a lapsed power, a vacated fourth seat, the clocks of the players awaited, a game a
majority of the table voted to end): it holds between commands, not between the events of
one command, as court/soundness/invariants.py's do. The simulation and the property tests check it
after every command.
"""

from __future__ import annotations

from court.decide.powers import power_lost
from court.options import clocks, electorate
from court.soundness import table_invariants
from court.state import CourtState, GameStatus


def unsettled(state: CourtState) -> list[str]:
    """What the server's follow-ups settle by themselves once a command is decided: a
    candidate who can no longer stand is withdrawn (R-7.2), a lapsed power passes its turn
    (R-6.7), a vacated fourth seat is freed (R-4.6)."""
    found = _clocks_follow(state) + table_invariants.unsettled(state)
    if state.status is not GameStatus.PLAYING or state.pending is not None:
        return found
    election = state.election
    if election is not None:
        spec = electorate.spec(state, election.id)
        found += [
            f"candidate {n} of {election.id} can no longer stand but was not withdrawn (R-7.2)"
            for n in election.standing
            if not electorate.eligible(state, spec, state.nobles[n])
        ]
    decree = state.decree
    if decree is not None and decree.power is not None and state.proposal is None:
        lost = power_lost(state, decree.power)
        if lost is not None:
            found.append(f"the turn under way in {decree.id} did not lapse: {lost}")
    if state.fourth_seat is not None and not electorate.is_council(state, state.fourth_seat):
        found.append(f"{state.fourth_seat} left the council but holds the fourth seat (R-4.6)")
    return found


def _clocks_follow(state: CourtState) -> list[str]:
    """R-4.3 clocks variant: between commands, exactly the awaited players' clocks run."""
    if state.rules is None or not state.ruleset.profile.variants.clocks:
        return []
    want = {
        seat: kind for seat, kind in clocks.awaited(state).items() if clocks.clocked(state, kind)
    }
    have = {seat: clock.kind for seat, clock in state.running.items()}
    if want == have:
        return []
    return [f"the clocks running {have} are not those of the players awaited {want} (R-4.3)"]
