"""Sentences of the players' clocks (R-4.3 [D] clocks variant)."""

from __future__ import annotations

from court.ids import Seat
from court.sentences import names
from court.sentences.base import Data, Sentences
from court.state import CourtState

KINDS = {
    "candidacy": "candidacy",
    "ballot": "ballot",
    "decree": "decree step",
    "title_choice": "choice of a title",
    "purchase": "purchases",
}


def duration(seconds: float) -> str:
    """ "4:05" or "1:02:03": whole seconds left, rounded down."""
    whole = max(0, int(seconds))
    hours, minutes, rest = whole // 3600, whole % 3600 // 60, whole % 60
    return f"{hours}:{minutes:02d}:{rest:02d}" if hours else f"{minutes}:{rest:02d}"


def _left(d: Data, state: CourtState) -> float:
    """The seat's bank for the record's kind, as the court stood right after the record."""
    if state.rules is None or d["kind"] not in KINDS:
        return 0.0
    return state.bank(Seat(d["seat"]), d["kind"])


def _clock_started(d: Data, state: CourtState) -> str:
    left = _left(d, state)
    return (
        f"{names.player(state, d['seat'])}'s clock runs for the {KINDS.get(d['kind'], d['kind'])}"
        f" (R-4.3): {duration(left)} left."
    )


def _clock_stopped(d: Data, state: CourtState) -> str:
    left = _left(d, state)
    kind = KINDS.get(d["kind"], d["kind"])
    if left <= 0:
        return f"{names.player(state, d['seat'])}'s time for the {kind} has run out (R-4.3)."
    return (
        f"{names.player(state, d['seat'])}'s clock stopped: {duration(left)} left for the {kind}."
    )


SENTENCES: Sentences = {
    "ClockStarted": _clock_started,
    "ClockStopped": _clock_stopped,
}
