"""Folding titles changing hands."""

from __future__ import annotations

from typing import Any

from court.events.titles import (
    TitleChoiceLapsed,
    TitleChoiceTimedOut,
    TitleGranted,
    TitlePassed,
    TitleRefused,
    TitleReturned,
    TitleSlotsExceeded,
)
from court.evolve.base import Handlers, replace
from court.state import (
    CourtState,
    Ledger,
    PendingKind,
    PendingTitle,
)


def _settled(state: CourtState, kind: PendingKind, noble: Any) -> PendingTitle | None:
    pending = state.pending
    if pending is not None and pending.kind is kind and pending.noble == noble:
        return None
    return pending


def _title_refused(state: CourtState, e: TitleRefused) -> CourtState:
    return replace(state, pending=None)


def _title_granted(state: CourtState, e: TitleGranted) -> CourtState:
    return replace(
        state,
        titles={**state.titles, e.title: e.noble},
        pending=_settled(state, PendingKind.ACCEPTANCE, e.noble),
    )


def _title_returned(state: CourtState, e: TitleReturned) -> CourtState:
    """A refund leaves what was spent on the title and comes back to its House (R-2.1)."""
    state = replace(
        state,
        titles={t: n for t, n in state.titles.items() if t != e.title},
        pending=_settled(state, PendingKind.OVERFLOW, e.noble),
    )
    if not e.refund:
        return state
    house, ledger = state.nobles[e.noble].house, state.ledger
    return replace(
        state,
        treasury={**state.treasury, house: state.treasury[house] + e.refund},
        ledger=Ledger(issued=ledger.issued, spent=ledger.spent - e.refund, held=ledger.held),
    )


def _title_passed(state: CourtState, e: TitlePassed) -> CourtState:
    return replace(
        state,
        titles={**state.titles, e.title: e.to},
        pending=_settled(state, PendingKind.OVERFLOW, e.noble),
    )


def _title_slots_exceeded(state: CourtState, e: TitleSlotsExceeded) -> CourtState:
    pending = PendingTitle(
        kind=PendingKind.OVERFLOW,
        seat=e.seat,
        noble=e.noble,
        title=e.title,
        deadline=e.deadline,
        price=e.price,
    )
    return replace(state, pending=pending)


def _title_choice_timed_out(state: CourtState, e: TitleChoiceTimedOut) -> CourtState:
    return state  # the grant or return that follows settles the choice


def _title_choice_lapsed(state: CourtState, e: TitleChoiceLapsed) -> CourtState:
    return replace(state, pending=_settled(state, PendingKind.ACCEPTANCE, e.noble))


HANDLERS: Handlers = {
    TitleChoiceLapsed: _title_choice_lapsed,
    TitleChoiceTimedOut: _title_choice_timed_out,
    TitleRefused: _title_refused,
    TitleGranted: _title_granted,
    TitleReturned: _title_returned,
    TitlePassed: _title_passed,
    TitleSlotsExceeded: _title_slots_exceeded,
}
