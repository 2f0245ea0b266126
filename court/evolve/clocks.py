"""Fold the players' clocks (R-4.3 [D] clocks variant): a bank runs from its start to its stop."""

from __future__ import annotations

from court.events.clocks import ClockStarted, ClockStopped
from court.evolve.base import Handlers, replace
from court.state import CourtState, RunningClock


def _clock_started(state: CourtState, e: ClockStarted) -> CourtState:
    running = {**state.running, e.seat: RunningClock(kind=e.kind, started=e.at)}
    return replace(state, running=running)


def _clock_stopped(state: CourtState, e: ClockStopped) -> CourtState:
    """The time used comes off the bank, which never goes below zero; a player who acted with
    time left gains the profile's increment."""
    clock = state.running.get(e.seat)
    running = {seat: c for seat, c in state.running.items() if seat != e.seat}
    if clock is None:
        return replace(state, running=running)
    left = max(0.0, state.bank(e.seat, e.kind) - max(0.0, e.at - clock.started))
    if left > 0 and e.acted:
        left += state.ruleset.profile.clocks.increment
    banks = {**state.banks, e.seat: {**state.banks.get(e.seat, {}), e.kind: left}}
    return replace(state, running=running, banks=banks)


HANDLERS: Handlers = {
    ClockStarted: _clock_started,
    ClockStopped: _clock_stopped,
}
