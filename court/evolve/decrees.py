"""Folding the decree steps, marriages, the false idols and the end of the game."""

from __future__ import annotations

import dataclasses
from dataclasses import replace as copy

from court.events.decrees import (
    DecreePassed,
    DecreeStepClosed,
    DecreeStepOpened,
    DecreeStepSkipped,
    DecreeTimedOut,
    DecreeTurnEnded,
    DecreeTurnLapsed,
    Divorced,
    GameEnded,
    MarriageDeclined,
    MarriageEnded,
    MarriageMade,
    MarriageProposed,
    RhllorEmbraced,
    SeptsPillaged,
    TitleConceded,
)
from court.evolve.base import Handlers, issued, replace
from court.ids import NobleId, Seat
from court.model.ending import Ending, How
from court.state import (
    Alliance,
    CourtState,
    GameStatus,
    Proposal,
    StepKind,
    StepRef,
    TurnStep,
)


def _acted(state: CourtState, *seats: Seat) -> TurnStep | None:
    """The turns of `seats` are over: turns are taken in order, so they are the next ones."""
    decree = state.decree
    if decree is None:
        return None
    return dataclasses.replace(decree, acted=(*decree.acted, *seats))


def _decree_step_opened(state: CourtState, e: DecreeStepOpened) -> CourtState:
    decree = TurnStep(id=e.step, order=e.order, deadline=e.deadline, powers=e.powers)
    return replace(state, step=StepRef(kind=StepKind.DECREE, id=e.step), decree=decree)


def _decree_step_skipped(state: CourtState, e: DecreeStepSkipped) -> CourtState:
    return replace(state, step=StepRef(kind=StepKind.DECREE, id=e.step), decree=None)


def _decree_step_closed(state: CourtState, e: DecreeStepClosed) -> CourtState:
    return replace(state, decree=None, proposal=None)


def _decree_passed(state: CourtState, e: DecreePassed) -> CourtState:
    return replace(state, decree=_acted(state, *e.seats), proposal=None)


def _decree_timed_out(state: CourtState, e: DecreeTimedOut) -> CourtState:
    return replace(state, decree=_acted(state, *e.seats), proposal=None)


def _decree_turn_lapsed(state: CourtState, e: DecreeTurnLapsed) -> CourtState:
    return replace(state, decree=_acted(state, e.seat))


def _marriage_proposed(state: CourtState, e: MarriageProposed) -> CourtState:
    proposal = Proposal(seat=e.seat, noble=e.noble, to_seat=e.to_seat, to_noble=e.to_noble)
    return replace(state, proposal=proposal)


def _marriage_declined(state: CourtState, e: MarriageDeclined) -> CourtState:
    return replace(state, proposal=None)


def _decree_turn_ended(state: CourtState, e: DecreeTurnEnded) -> CourtState:
    return replace(state, decree=_acted(state, e.seat))


def _marriage_made(state: CourtState, e: MarriageMade) -> CourtState:
    nobles = {
        **state.nobles,
        e.lord: copy(state.nobles[e.lord], spouse=e.lady),
        e.lady: copy(state.nobles[e.lady], spouse=e.lord),
    }
    alliances = state.alliances
    if e.alliance:
        alliances = (*alliances, Alliance(seats=e.seats, lord=e.lord, lady=e.lady))
    return replace(state, nobles=nobles, alliances=alliances, proposal=None)


def _unwed(state: CourtState, lord: NobleId, lady: NobleId) -> CourtState:
    nobles = {
        **state.nobles,
        lord: copy(state.nobles[lord], spouse=None),
        lady: copy(state.nobles[lady], spouse=None),
    }
    # Either order names the couple: logs before same-gender marriages named the Lord first.
    alliances = tuple(a for a in state.alliances if {a.lord, a.lady} != {lord, lady})
    return replace(state, nobles=nobles, alliances=alliances)


def _divorced(state: CourtState, e: Divorced) -> CourtState:
    return _unwed(state, e.lord, e.lady)


def _marriage_ended(state: CourtState, e: MarriageEnded) -> CourtState:
    return _unwed(state, e.lord, e.lady)


def _rhllor_embraced(state: CourtState, e: RhllorEmbraced) -> CourtState:
    decree = state.decree
    if decree is not None:
        decree = dataclasses.replace(decree, embraced_by=e.noble)
    return replace(state, septs_banned=True, decree=decree)


def _septs_pillaged(state: CourtState, e: SeptsPillaged) -> CourtState:
    treasury = dict(state.treasury)
    for share in e.shares:
        treasury[share.house] += share.gold
    ledger = issued(state, sum(share.gold for share in e.shares))
    return replace(state, septs={}, septs_banned=True, treasury=treasury, ledger=ledger)


def _title_conceded(state: CourtState, e: TitleConceded) -> CourtState:
    return replace(state, titles={**state.titles, e.title: e.to})


def _game_ended(state: CourtState, e: GameEnded) -> CourtState:
    ending = Ending(how=How(e.how), points={score.seat: score.points for score in e.points})
    return replace(
        state,
        status=GameStatus.ENDED,
        winners=e.winners,
        ending=ending,
        decree=None,
        election=None,
    )


HANDLERS: Handlers = {
    DecreeStepOpened: _decree_step_opened,
    DecreeStepSkipped: _decree_step_skipped,
    DecreePassed: _decree_passed,
    DecreeStepClosed: _decree_step_closed,
    DecreeTurnEnded: _decree_turn_ended,
    DecreeTurnLapsed: _decree_turn_lapsed,
    DecreeTimedOut: _decree_timed_out,
    MarriageEnded: _marriage_ended,
    MarriageProposed: _marriage_proposed,
    MarriageDeclined: _marriage_declined,
    MarriageMade: _marriage_made,
    Divorced: _divorced,
    RhllorEmbraced: _rhllor_embraced,
    SeptsPillaged: _septs_pillaged,
    TitleConceded: _title_conceded,
    GameEnded: _game_ended,
}
