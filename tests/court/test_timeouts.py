"""A timeout counts as a pass, but the log says it was the clock (R-4.3): decree steps, title
choices and purchases each record their own timeout."""

from __future__ import annotations

from dataclasses import replace

from court.commands import CloseOverdueStep, Pass, ProposeMarriage
from court.decide import decide
from court.events import TitleChoiceTimedOut, TitleGranted, TitleReturned
from court.events.decrees import DecreePassed, DecreeTimedOut, MarriageDeclined
from court.ids import NobleId, Seat, TitleId
from court.state import CourtState, PendingKind, PendingTitle
from tests.court.given import given, open_decree, seat, started, then_state, when

ROBB, CERSEI = NobleId("robb-stark"), NobleId("cersei-lannister")


def marriages(deadline: float = 100.0) -> CourtState:
    state = open_decree(given(*started(4)), "marriages")
    assert state.decree is not None
    return replace(state, decree=replace(state.decree, deadline=deadline))


def test_a_decree_step_closed_by_the_clock_is_recorded_as_a_timeout_not_a_pass() -> None:
    """R-4.3: given a proposal left unanswered, when the deadline passes, then the log records
    who timed out and who left the proposal unanswered, and nobody is recorded as passing."""
    state = then_state(
        marriages(), when(marriages(), ProposeMarriage(noble=ROBB, to=CERSEI), seat(0))
    )
    events = decide(state, CloseOverdueStep(), seat(3), 100.0)
    timed_out = next(e for e in events if isinstance(e, DecreeTimedOut))
    assert timed_out.step == "marriages" and timed_out.seats == (0, 1, 2, 3)
    assert timed_out.unanswered == 1
    assert not any(isinstance(e, DecreePassed | MarriageDeclined) for e in events)
    after = then_state(state, events)
    assert after.proposal is None and after.nobles[ROBB].spouse is None


def test_a_voluntary_pass_is_recorded_as_a_pass() -> None:
    """R-4.3: a pass is the player's own; the log keeps the two apart."""
    events = when(marriages(), Pass(), seat(0))
    assert events[0] == DecreePassed(step="marriages", seats=(0,))


def _pending(state: CourtState, kind: PendingKind) -> CourtState:
    pending = PendingTitle(
        kind=kind,
        seat=Seat(0),
        noble=ROBB,
        title=TitleId("warden-north"),
        election="warden-north",
        deadline=100.0,
    )
    return replace(state, pending=pending)


def test_a_title_won_and_not_answered_in_time_is_taken_on_the_clock() -> None:
    """R-4.3, R-3.3: the timeout is recorded before the title is granted."""
    state = _pending(given(*started(3)), PendingKind.ACCEPTANCE)
    events = decide(state, CloseOverdueStep(), seat(1), 100.0)
    assert events[0] == TitleChoiceTimedOut(
        seat=0, noble=ROBB, title="warden-north", kind="acceptance"
    )
    assert TitleGranted(title="warden-north", noble=ROBB, cause="election:warden-north") in events


def test_a_title_one_too_many_not_passed_in_time_is_returned_on_the_clock() -> None:
    """R-4.3, R-3.2: the timeout is recorded before the title returns to the board."""
    state = given(*started(3))
    for title in ("warden-north", "warden-west"):
        state = then_state(state, (TitleGranted(title=TitleId(title), noble=ROBB, cause="test"),))
    state = _pending(state, PendingKind.OVERFLOW)
    events = decide(state, CloseOverdueStep(), seat(1), 100.0)
    assert isinstance(events[0], TitleChoiceTimedOut) and events[0].kind == "overflow"
    assert isinstance(events[1], TitleReturned) and events[1].title == "warden-north"
