"""Properties of what the table decides and of how a game ends, checked beside the court's
other invariants (court/soundness/invariants.py): votes belong to seats that count (R-9.2), no game
is played past its last round (R-4.8), and an ended game says how it ended and holds no price."""

from __future__ import annotations

from court.model.ending import How
from court.model.table import majority
from court.soundness.remembered import reads
from court.state import CourtState, GameStatus


@reads("table", "host_votes", "seats")
def table_votes(state: CourtState) -> list[str]:
    """R-9.2: a seat handed to a new player who has not opened his link yet has no vote or
    answer standing (and a seat nobody holds has none either)."""
    table = state.table
    cast = (
        set(table.end)
        | table.accepted
        | table.refused
        | set(state.host_votes)
        | {voter for voters in table.replace.values() for voter in voters}
    )
    return [
        f"seat {seat} has a vote standing but counts for none: its new player has not opened "
        "his link (R-9.2)"
        for seat in sorted(cast - set(state.counting()))
    ]


@reads("ending", "round", "rules", "status", "winners")
def ending(state: CourtState) -> list[str]:
    """R-4.8: no game is still played after its last round's victory check; an ended game
    records how it ended (R-4.7, R-4.8, R-9.2), and one the table ended has no winner."""
    found: list[str] = []
    last = state.ruleset.profile.victory.last_round
    if state.status is GameStatus.PLAYING and last and state.round > last:
        found.append(f"round {state.round} is played after the last round, {last} (R-4.8)")
    ended = state.ending
    if (state.status is GameStatus.ENDED) != (ended is not None):
        found.append(f"a game {state.status.value} says it ended {ended} (R-4.7)")
    if ended is not None and ended.how is How.TABLE and state.winners:
        found.append("the table ended the game, yet it names winners (R-9.2, R-4.7)")
    if ended is not None and ended.how is not How.TABLE and not state.winners:
        found.append(f"the game ended by its {ended.how.value} without a winner (R-4.7, R-4.8)")
    return found


def unsettled(state: CourtState) -> list[str]:
    """R-9.2: once a command is decided, a strict majority of the seats that count voting to
    end the game has ended it."""
    if state.status is not GameStatus.PLAYING or not state.table.end:
        return []
    if majority(len(state.table.end), len(state.counting())):
        return ["a majority of the seats that count voted to end the game, which goes on (R-9.2)"]
    return []
