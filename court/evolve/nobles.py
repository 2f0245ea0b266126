"""Folding the life of Nobles: death, capture, Outlaws, the Watch, newcomers, gold."""

from __future__ import annotations

from dataclasses import replace as copy
from typing import Any

from court.events.nobles import (
    AllianceEnded,
    AttributeGained,
    Deserted,
    DieRolled,
    GoldPaid,
    NobleAdded,
    NobleCaptured,
    NobleDied,
    NobleFreed,
    OutlawDeclared,
    OutlawPardoned,
    TookTheBlack,
)
from court.evolve.base import Handlers, hold, replace, spent
from court.model.ruleset import Attribute
from court.state import CourtState, Noble, NobleStatus


def _noble(state: CourtState, noble_id: Any, **changes: Any) -> dict:
    return {**state.nobles, noble_id: copy(state.nobles[noble_id], **changes)}


def _noble_died(state: CourtState, e: NobleDied) -> CourtState:
    # the Outlaw mark ends at death.
    nobles = _noble(state, e.noble, status=NobleStatus.DEAD, captor=None, spouse=None, outlaw=False)
    spouse = state.nobles[e.noble].spouse
    if spouse is not None:
        nobles[spouse] = copy(nobles[spouse], spouse=None)
    # Ransom offers for a dead captive vanish.
    offers = {i: o for i, o in state.offers.items() if o.captive != e.noble}
    return replace(state, nobles=nobles, offers=offers)


def _noble_captured(state: CourtState, e: NobleCaptured) -> CourtState:
    return replace(
        state, nobles=_noble(state, e.noble, status=NobleStatus.CAPTIVE, captor=e.captor)
    )


def _noble_freed(state: CourtState, e: NobleFreed) -> CourtState:
    offers = {i: o for i, o in state.offers.items() if o.captive != e.noble}
    nobles = _noble(state, e.noble, status=NobleStatus.IN_PLAY, captor=None)
    return replace(state, nobles=nobles, offers=offers)


def _outlaw_declared(state: CourtState, e: OutlawDeclared) -> CourtState:
    return replace(state, nobles=_noble(state, e.noble, outlaw=True))


def _outlaw_pardoned(state: CourtState, e: OutlawPardoned) -> CourtState:
    return replace(state, nobles=_noble(state, e.noble, outlaw=False))


def _took_the_black(state: CourtState, e: TookTheBlack) -> CourtState:
    nobles = _noble(state, e.noble, status=NobleStatus.BROTHER, outlaw=False, spouse=None)
    spouse = state.nobles[e.noble].spouse
    if spouse is not None:
        nobles[spouse] = copy(nobles[spouse], spouse=None)
    return replace(state, nobles=nobles)


def _deserted(state: CourtState, e: Deserted) -> CourtState:
    return replace(state, nobles=_noble(state, e.noble, status=NobleStatus.IN_PLAY, outlaw=True))


def _attribute_gained(state: CourtState, e: AttributeGained) -> CourtState:
    noble = state.nobles[e.noble]
    attributes = noble.attributes | {Attribute(e.attribute)}
    return replace(state, nobles=_noble(state, e.noble, attributes=attributes))


def _noble_added(state: CourtState, e: NobleAdded) -> CourtState:
    card = e.noble
    noble = Noble(
        id=card.id, house=e.house, name=card.name, gender=card.gender, attributes=card.attributes
    )
    return replace(state, nobles={**state.nobles, card.id: noble})


def _die_rolled(state: CourtState, e: DieRolled) -> CourtState:
    return replace(state, rolls=max(state.rolls, e.number + 1))


def _gold_paid(state: CourtState, e: GoldPaid) -> CourtState:
    treasury = {**state.treasury, e.house: state.treasury[e.house] - e.amount}
    if e.to_house is not None:
        treasury[e.to_house] += e.amount
        return replace(state, treasury=treasury)
    ledger = hold(state, e.house, e.amount) if e.held else spent(state, e.amount)
    return replace(state, treasury=treasury, ledger=ledger)


def _alliance_ended(state: CourtState, e: AllianceEnded) -> CourtState:
    ended = set(e.seats)
    return replace(state, alliances=tuple(a for a in state.alliances if set(a.seats) != ended))


HANDLERS: Handlers = {
    NobleDied: _noble_died,
    NobleCaptured: _noble_captured,
    NobleFreed: _noble_freed,
    OutlawDeclared: _outlaw_declared,
    OutlawPardoned: _outlaw_pardoned,
    TookTheBlack: _took_the_black,
    Deserted: _deserted,
    AttributeGained: _attribute_gained,
    NobleAdded: _noble_added,
    DieRolled: _die_rolled,
    GoldPaid: _gold_paid,
    AllianceEnded: _alliance_ended,
}
