"""Folding the decree steps, marriages, the false idols and the end of the game."""

from __future__ import annotations

import dataclasses
from dataclasses import replace as copy

from court.events.decrees import (
    DecreePassed,
    DecreeStepClosed,
    DecreeStepOpened,
    DecreeStepSkipped,
    DecreeTurnEnded,
    Divorced,
    GameEnded,
    MarriageDeclined,
    MarriageMade,
    MarriageProposed,
    RhllorEmbraced,
    SeptsPillaged,
    TitleConceded,
)
from court.evolve.base import Handlers, replace
from court.state import Alliance, CourtState, DecreeStep, GameStatus, Proposal


def _acted(state: CourtState, seat: int) -> DecreeStep | None:
    decree = state.decree
    if decree is None:
        return None
    return dataclasses.replace(decree, acted=(*decree.acted, seat))


def _decree_step_opened(state: CourtState, e: DecreeStepOpened) -> CourtState:
    decree = DecreeStep(id=e.step, order=e.order, deadline=e.deadline)
    return replace(state, step=f"decree:{e.step}", decree=decree)


def _decree_step_skipped(state: CourtState, e: DecreeStepSkipped) -> CourtState:
    return replace(state, step=f"decree:{e.step}", decree=None)


def _decree_step_closed(state: CourtState, e: DecreeStepClosed) -> CourtState:
    return replace(state, decree=None, proposal=None)


def _decree_passed(state: CourtState, e: DecreePassed) -> CourtState:
    decree = state.decree
    assert decree is not None
    acted = (*decree.acted, *(s for s in e.seats if s not in decree.acted))
    return replace(state, decree=dataclasses.replace(decree, acted=acted), proposal=None)


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


def _divorced(state: CourtState, e: Divorced) -> CourtState:
    nobles = {
        **state.nobles,
        e.lord: copy(state.nobles[e.lord], spouse=None),
        e.lady: copy(state.nobles[e.lady], spouse=None),
    }
    alliances = tuple(a for a in state.alliances if (a.lord, a.lady) != (e.lord, e.lady))
    return replace(state, nobles=nobles, alliances=alliances)


def _rhllor_embraced(state: CourtState, e: RhllorEmbraced) -> CourtState:
    return replace(state, septs_banned=True)


def _septs_pillaged(state: CourtState, e: SeptsPillaged) -> CourtState:
    treasury = dict(state.treasury)
    for house, amount in e.shares:
        treasury[house] += amount
    return replace(state, septs=frozenset(), septs_banned=True, treasury=treasury)


def _title_conceded(state: CourtState, e: TitleConceded) -> CourtState:
    return replace(state, titles={**state.titles, e.title: e.to})


def _game_ended(state: CourtState, e: GameEnded) -> CourtState:
    return replace(state, status=GameStatus.ENDED, winners=e.winners, decree=None, election=None)


HANDLERS: Handlers = {
    DecreeStepOpened: _decree_step_opened,
    DecreeStepSkipped: _decree_step_skipped,
    DecreePassed: _decree_passed,
    DecreeStepClosed: _decree_step_closed,
    DecreeTurnEnded: _decree_turn_ended,
    MarriageProposed: _marriage_proposed,
    MarriageDeclined: _marriage_declined,
    MarriageMade: _marriage_made,
    Divorced: _divorced,
    RhllorEmbraced: _rhllor_embraced,
    SeptsPillaged: _septs_pillaged,
    TitleConceded: _title_conceded,
    GameEnded: _game_ended,
}
