"""Who the court waits on, and in what kind of step: the players' clocks of the clocks
variant run for exactly these seats (R-4.3 [D]).

The kinds are those of the profile's deadlines and banks: candidacy and ballot (an election's
stages), decree, title_choice (taking or passing a title, seating a Warden on the council) and
purchase (the council seat sale and the purchase turns). The order of the checks is
`court.decide.rounds.next_deadline`'s: a title choice first, then the election, the sale, the
purchase turns and the decree step.
"""

from __future__ import annotations

from court.ids import Seat
from court.state import CourtState, GameStatus

Awaited = dict[Seat, str]


def awaited(state: CourtState) -> Awaited:
    """Each seat the court waits on now, with the kind of the step it waits in."""
    if state.status is not GameStatus.PLAYING:
        return {}
    if state.pending is not None:
        return {state.pending.seat: "title_choice"}
    election = state.election
    if election is not None:
        return {} if election.current is None else {election.current: election.stage.value}
    auction = state.auction
    if auction is not None:
        if auction.winner is not None:
            return {auction.winner: "title_choice"}
        return {seat: "purchase" for seat in auction.waiting}
    turns = state.purchase_turns
    if turns is not None:
        return {} if turns.current is None else {turns.current: "purchase"}
    decree = state.decree
    if decree is None:
        return {}
    if state.proposal is not None:
        return {state.proposal.to_seat: "decree"}
    return {} if decree.current is None else {decree.current: "decree"}


def clocked(state: CourtState, kind: str) -> bool:
    """Whether players of this game have a time bank for steps of `kind`."""
    profile = state.ruleset.profile
    return profile.variants.clocks and profile.clocks.bank(kind) > 0


def runs_out(state: CourtState, seat: Seat) -> float | None:
    """When `seat`'s running clock reaches zero, if one runs: each move has the bank and the
    profile's increment (Fischer's), so a bank an absence emptied still gives its player the
    increment to move in."""
    clock = state.running.get(seat)
    if clock is None:
        return None
    return clock.started + state.bank(seat, clock.kind) + state.ruleset.profile.clocks.increment


def next_run_out(state: CourtState) -> float | None:
    """The first moment a running clock reaches zero."""
    times = [runs_out(state, seat) for seat in state.running]
    return min((t for t in times if t is not None), default=None)


def run_out(state: CourtState, now: float) -> tuple[Seat, ...]:
    """The seats whose running clock has reached zero by `now`, in seat order."""
    return tuple(
        seat
        for seat in sorted(state.running)
        if (due := runs_out(state, seat)) is not None and due <= now
    )
