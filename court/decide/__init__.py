"""`decide(state, command, actor, now)`: every court rule, turning a command into events.

A command's own events are followed by whatever the server then does by itself
(reveal when the last marker is placed, open or skip the next election, start
the next phase or round), decided on the state those events lead to.
"""

from __future__ import annotations

from typing import assert_never

from court.commands import (
    AcceptTitle,
    Actor,
    AdjustGold,
    AdvancePhase,
    CloseOverdueStep,
    Command,
    CreateGame,
    JoinSeat,
    LeaveSeat,
    Pass,
    PlaceBallot,
    RecordVillageControl,
    RefuseTitle,
    ResolveTitleOverflow,
    StandForElection,
    StartGame,
)
from court.decide import elections, facts, rounds, setup, titles
from court.events import Event
from court.evolve import evolve
from court.state import CourtState

# Bound on automatic follow-ups of one command: a phase 1 has fewer than 20 steps.
_MAX_FOLLOW_UPS = 200


def decide(
    state: CourtState, command: Command, actor: Actor, now: float = 0.0
) -> tuple[Event, ...]:
    return settle(state, _decide(state, command, actor, now), now)


def _decide(state: CourtState, command: Command, actor: Actor, now: float) -> tuple[Event, ...]:
    match command:
        case CreateGame():
            return setup.create_game(state, command, actor)
        case JoinSeat():
            return setup.join_seat(state, command, actor)
        case LeaveSeat():
            return setup.leave_seat(state, command, actor)
        case StartGame():
            return setup.start_game(state, command, actor)
        case AdjustGold():
            return facts.adjust_gold(state, command, actor)
        case RecordVillageControl():
            return rounds.record_village_control(state, command, actor)
        case AdvancePhase():
            return rounds.advance_phase(state, command, actor)
        case StandForElection():
            return elections.stand(state, command, actor)
        case Pass():
            return elections.pass_turn(state, command, actor)
        case PlaceBallot():
            return elections.place_ballot(state, command, actor)
        case AcceptTitle():
            return titles.accept_title(
                state, command, actor, elections.deadline(state, "title_choice", now)
            )
        case RefuseTitle():
            return titles.refuse_title(state, command, actor)
        case ResolveTitleOverflow():
            return titles.resolve_overflow(state, command, actor)
        case CloseOverdueStep():
            return rounds.close_overdue(state, command, actor, now)
        case _:
            assert_never(command)


def settle(state: CourtState, events: tuple[Event, ...], now: float) -> tuple[Event, ...]:
    """The command's events, then the server's own follow-ups until someone is awaited."""
    out = list(events)
    for event in events:
        state = evolve(state, event)
    for _ in range(_MAX_FOLLOW_UPS):
        more = rounds.follow_up(state, now)
        if not more:
            return tuple(out)
        for event in more:
            state = evolve(state, event)
        out.extend(more)
    raise RuntimeError("phase 1 did not settle: the step sequence loops")
