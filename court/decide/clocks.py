"""The players' clocks follow the court (R-4.3 [D] clocks variant): once a command and the
server's follow-ups have settled, the clocks of the seats no longer awaited stop and those of
the seats now awaited start, at the command's time."""

from __future__ import annotations

from court.events import ClockStarted, ClockStopped, Event
from court.ids import Seat
from court.options.clocks import awaited, clocked, run_out
from court.state import CourtState


def wind(state: CourtState, now: float, acting: Seat | None) -> tuple[Event, ...]:
    """Stops and starts that make the running clocks exactly those of the awaited seats, in
    the kinds of step that have a time bank. A seat still awaited in the same kind keeps his
    clock running, unless he acted (`acting`) or his time ran out: then it stops and starts
    again, so that the log shows what he had left."""
    if state.rules is None or not state.ruleset.profile.variants.clocks:
        return ()
    want = {seat: kind for seat, kind in awaited(state).items() if clocked(state, kind)}
    late = run_out(state, now)
    stops = {
        seat: clock
        for seat, clock in sorted(state.running.items())
        if want.get(seat) != clock.kind or seat == acting or seat in late
    }
    stopped = tuple(
        ClockStopped(seat=s, kind=c.kind, at=now, acted=s == acting and s not in late)
        for s, c in stops.items()
    )
    started = tuple(
        ClockStarted(seat=seat, kind=kind, at=now)
        for seat, kind in sorted(want.items())
        if seat not in state.running or seat in stops
    )
    return (*stopped, *started)
