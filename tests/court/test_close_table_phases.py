"""The phases played at the table closed at once (R-4.1): the host closes movement, battles
and the Wall in one command, so a quiet round needs two of his commands, not four."""

from __future__ import annotations

import pytest

from court.commands import AdvancePhase, CloseTablePhases, Command
from court.decide import decide, settle
from court.errors import CourtError, NotAllowed
from court.events import GameStarted, PhaseStarted, RoundStarted
from court.evolve import replay
from court.ids import Seat
from court.options.legal import legal_commands
from court.state import CourtState, Phase
from tests.court.given import (
    GAME,
    HOST,
    created,
    given,
    joined,
    seat,
    started,
    table_step,
    then_state,
)

NIGHTS_WATCH = {"variants__nights_watch": True}


def _started(nights_watch: bool) -> CourtState:
    before = (created(3, **(NIGHTS_WATCH if nights_watch else {})), joined(0), joined(1), joined(2))
    start = (
        GameStarted(seat_order=(Seat(0), Seat(1), Seat(2)), first_player=Seat(0)),
        RoundStarted(round=1, first_player=Seat(0)),
    )
    state = replay(GAME, before)
    return then_state(state, settle(state, start, 0.0))


def _act(state: CourtState, command: Command, actor=HOST) -> CourtState:
    return then_state(state, settle(state, decide(state, command, actor), 0.0))


def _to_movement(state: CourtState) -> CourtState:
    while state.phase is not Phase.MOVEMENT:
        state = then_state(state, settle(state, table_step(state), 0.0))
    return state


@pytest.mark.parametrize("nights_watch", [False, True])
def test_one_command_closes_movement_battles_and_the_wall(nights_watch: bool) -> None:
    """R-4.1: given the movement phase, when the host closes the table's phases, then each
    phase played at the table starts in order and the end of round follows."""
    state = _to_movement(_pass_decrees(_started(nights_watch)))

    events = decide(state, CloseTablePhases(), HOST)

    phases = [e.phase for e in events if isinstance(e, PhaseStarted)]
    expected = ["battles", *(["wall"] if nights_watch else []), "end_of_round"]
    assert phases == expected


@pytest.mark.parametrize("nights_watch", [False, True])
def test_a_quiet_round_takes_two_host_commands(nights_watch: bool) -> None:
    """R-4.1: given a table where nothing happens, when the host closes what the rules let him
    close at once, then a round needs two of his commands (cards; movement to the end)."""
    state = _pass_decrees(_started(nights_watch))
    host_commands = 0

    while state.round == 1:
        moves = legal_commands(state, HOST)
        if AdvancePhase() in moves:
            host_commands += 1
            chosen = CloseTablePhases() if CloseTablePhases() in moves else AdvancePhase()
            state = _act(state, chosen)
        else:
            state = then_state(state, settle(state, table_step(state), 0.0))

    assert host_commands == 2


def test_the_close_is_listed_only_when_it_closes_more_than_one_phase() -> None:
    state = _pass_decrees(_started(True))
    assert CloseTablePhases() not in legal_commands(state, HOST)  # cards: income follows
    state = _to_movement(state)
    assert CloseTablePhases() in legal_commands(state, HOST)
    decide(state, CloseTablePhases(), HOST)  # what is listed is accepted


@pytest.mark.parametrize("nights_watch", [False, True])
def test_the_close_is_refused_when_one_phase_is_left_at_the_table(nights_watch: bool) -> None:
    """R-4.1: given the cards phase (income follows) or the last phase played at the table,
    when the host sends the close of several phases, then it is refused as it is not listed:
    he advances the phase."""
    state = _pass_decrees(_started(nights_watch))
    cards = state
    state = _act(_to_movement(state), AdvancePhase())
    if nights_watch:
        state = _act(state, AdvancePhase())
    assert state.phase is (Phase.WALL if nights_watch else Phase.BATTLES)
    for last in (cards, state):
        assert CloseTablePhases() not in legal_commands(last, HOST)
        with pytest.raises(CourtError) as refused:
            decide(last, CloseTablePhases(), HOST)
        assert refused.value.code == "one_table_phase" and "R-4.1" in refused.value.message


def test_only_the_host_closes_the_table_phases() -> None:
    state = _to_movement(given(*started(3)))
    with pytest.raises(NotAllowed):
        decide(state, CloseTablePhases(), seat(1))


def test_phases_the_server_runs_are_not_closed_by_the_host() -> None:
    state = _to_movement(given(*started(3)))
    state = _act(state, CloseTablePhases())  # the round ends; decrees of round 2 follow
    assert state.phase is Phase.DECREES
    with pytest.raises(CourtError) as refused:
        decide(state, CloseTablePhases(), HOST)
    assert refused.value.code == "server_phase"


def _pass_decrees(state: CourtState) -> CourtState:
    from tests.court.given import pass_decrees

    return then_state(state, pass_decrees(state))
