"""Fold the players' clocks (R-4.3 [D] clocks variant): a bank runs from its start to its stop."""

from __future__ import annotations

from court.events.clocks import ClockStarted, ClockStopped
from court.evolve.base import Handlers, replace
from court.state import CourtState, RunningClock


def _clock_started(state: CourtState, e: ClockStarted) -> CourtState:
    running = {**state.running, e.seat: RunningClock(kind=e.kind, started=e.at)}
    return replace(state, running=running)


def _clock_stopped(state: CourtState, e: ClockStopped) -> CourtState:
    """The time used comes off the bank, which never goes below zero. A player who acted in
    time (court/options/clocks.py `runs_out`) had the profile's increment for his move besides: it
    stays in his bank as far as he did not use it. A clock stopped otherwise earns none."""
    clock = state.running.get(e.seat)
    running = {seat: c for seat, c in state.running.items() if seat != e.seat}
    if clock is None:
        return replace(state, running=running)
    had = state.bank(e.seat, e.kind)
    if e.acted:
        had += state.ruleset.profile.clocks.increment
    left = max(0.0, had - max(0.0, e.at - clock.started))
    banks = {**state.banks, e.seat: {**state.banks.get(e.seat, {}), e.kind: left}}
    return replace(state, running=running, banks=banks)


HANDLERS: Handlers = {
    ClockStarted: _clock_started,
    ClockStopped: _clock_stopped,
}
