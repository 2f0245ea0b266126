"""Folding the round and the host's recorded facts."""

from __future__ import annotations

from court.events.rounds import (
    FactRecorded,
    GoldAdjusted,
    IncomePaid,
    PhaseStarted,
    RoundStarted,
    VillageControlChanged,
)
from court.evolve.base import Handlers, issued, replace
from court.state import (
    CourtState,
    Phase,
)


def _round_started(state: CourtState, e: RoundStarted) -> CourtState:
    return replace(
        state,
        round=e.round,
        first_player=e.first_player,
        phase=Phase.DECREES,
        step=None,
        election=None,
        round_titles=dict(state.titles),
    )


def _phase_started(state: CourtState, e: PhaseStarted) -> CourtState:
    return replace(state, phase=Phase(e.phase), step=None, election=None, purchase_turns=None)


def _village_control_changed(state: CourtState, e: VillageControlChanged) -> CourtState:
    villages = {v: h for v, h in state.villages.items() if v != e.village}
    if e.house is not None:
        villages[e.village] = e.house
    return replace(state, villages=villages)


def _income_paid(state: CourtState, e: IncomePaid) -> CourtState:
    treasury = dict(state.treasury)
    for income in e.amounts:
        treasury[income.house] += income.gold
    ledger = issued(state, sum(income.gold for income in e.amounts))
    return replace(state, treasury=treasury, ledger=ledger)


def _gold_adjusted(state: CourtState, e: GoldAdjusted) -> CourtState:
    treasury = {**state.treasury, e.house: state.treasury[e.house] + e.amount}
    return replace(state, treasury=treasury, ledger=issued(state, e.amount))


def _fact_recorded(state: CourtState, e: FactRecorded) -> CourtState:
    return state  # attribution only: the fact's own events change the court


HANDLERS: Handlers = {
    RoundStarted: _round_started,
    PhaseStarted: _phase_started,
    VillageControlChanged: _village_control_changed,
    IncomePaid: _income_paid,
    GoldAdjusted: _gold_adjusted,
    FactRecorded: _fact_recorded,
}
