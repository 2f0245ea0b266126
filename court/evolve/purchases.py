"""Folding the purchases of phase 4 and ransom: Septs, the council seat sale, ransom offers."""

from __future__ import annotations

from dataclasses import replace as copy

from court.events.purchases import (
    AuctionOpened,
    AuctionSkipped,
    BidPassed,
    BidPlaced,
    BidSecret,
    BidsRevealed,
    BidsTimedOut,
    CouncilSeatLapsed,
    CouncilSeatTaken,
    CouncilSeatVacated,
    FiefGrantedByKing,
    PurchasesDone,
    PurchasesTimedOut,
    PurchaseTurnsOpened,
    RansomOffered,
    RansomPaid,
    RansomRefused,
    RansomWithdrawn,
    SeptBuilt,
)
from court.evolve.base import Handlers, release, replace
from court.ids import Seat
from court.model import steps
from court.state import Auction, CourtState, NobleStatus, RansomOffer, SealedBid, TurnStep


def _sept_built(state: CourtState, e: SeptBuilt) -> CourtState:
    return replace(state, septs={**state.septs, e.village: state.septs.get(e.village, 0) + 1})


def _auction_opened(state: CourtState, e: AuctionOpened) -> CourtState:
    return replace(
        state, step=steps.AUCTION.ref, auction=Auction(order=e.order, deadline=e.deadline)
    )


def _auction_skipped(state: CourtState, e: AuctionSkipped) -> CourtState:
    return replace(state, step=steps.AUCTION.ref, auction=None)


def _bid_placed(state: CourtState, e: BidPlaced) -> CourtState:
    auction = state.auction
    assert auction is not None
    # A record read with its private part withheld has no secret: the amount stays unknown.
    secret: BidSecret | None = e.secret
    bid = SealedBid(
        commitment=e.commitment,
        secret_amount=None if secret is None else secret.amount,
        secret_salt=None if secret is None else secret.salt,
    )
    return replace(state, auction=copy(auction, bids={**auction.bids, e.seat: bid}))


def _bid_passed(state: CourtState, e: BidPassed) -> CourtState:
    auction = state.auction
    assert auction is not None
    return replace(state, auction=copy(auction, passed=(*auction.passed, e.seat)))


def _bids_timed_out(state: CourtState, e: BidsTimedOut) -> CourtState:
    auction = state.auction
    assert auction is not None
    return replace(state, auction=copy(auction, passed=(*auction.passed, *e.passed)))


def _bids_revealed(state: CourtState, e: BidsRevealed) -> CourtState:
    auction = state.auction
    if e.winner is None or auction is None:
        return replace(state, auction=None)
    return replace(state, auction=copy(auction, winner=e.winner, deadline=e.deadline))


def _council_seat_taken(state: CourtState, e: CouncilSeatTaken) -> CourtState:
    ledger = release(state, state.seats[e.seat].house, delivered=True)
    return replace(state, auction=None, fourth_seat=e.noble, ledger=ledger)


def _council_seat_vacated(state: CourtState, e: CouncilSeatVacated) -> CourtState:
    return replace(state, fourth_seat=None)


def _purchase_turns_opened(state: CourtState, e: PurchaseTurnsOpened) -> CourtState:
    turns = TurnStep(id=steps.PURCHASES.id, order=e.order, deadline=e.deadline)
    return replace(state, step=steps.PURCHASES.ref, purchase_turns=turns)


def _purchases_over(state: CourtState, *seats: Seat) -> CourtState:
    turns = state.purchase_turns
    assert turns is not None
    return replace(state, purchase_turns=copy(turns, acted=(*turns.acted, *seats)))


def _purchases_done(state: CourtState, e: PurchasesDone) -> CourtState:
    return _purchases_over(state, e.seat)


def _purchases_timed_out(state: CourtState, e: PurchasesTimedOut) -> CourtState:
    return _purchases_over(state, *e.seats)


def _fief_granted_by_king(state: CourtState, e: FiefGrantedByKing) -> CourtState:
    return replace(state, king_granted_round=e.round)


def _council_seat_lapsed(state: CourtState, e: CouncilSeatLapsed) -> CourtState:
    """The held price leaves the ledger and the refund comes back to the treasury: the two
    agree when the lapse refunds the price (R-4.6), which the ledger's invariant holds to."""
    house = state.seats[e.seat].house
    treasury = {**state.treasury, house: state.treasury[house] + e.refund}
    ledger = release(state, house, delivered=False)
    return replace(state, auction=None, treasury=treasury, ledger=ledger)


def _ransom_offered(state: CourtState, e: RansomOffered) -> CourtState:
    offer = RansomOffer(
        id=e.offer,
        seat=e.seat,
        to_seat=e.to_seat,
        captive=e.captive,
        gold=e.gold,
        captives=e.captives,
    )
    return replace(
        state,
        offers={**state.offers, e.offer: offer},
        next_offer=max(state.next_offer, e.offer + 1),
    )


def _ransom_paid(state: CourtState, e: RansomPaid) -> CourtState:
    treasury = {
        **state.treasury,
        e.house: state.treasury[e.house] - e.gold,
        e.to_house: state.treasury[e.to_house] + e.gold,
    }
    nobles = dict(state.nobles)
    nobles[e.captive] = copy(nobles[e.captive], status=NobleStatus.IN_PLAY, captor=None)
    for noble_id in e.captives:
        noble = nobles[noble_id]
        if noble.house == e.to_house:
            nobles[noble_id] = copy(noble, status=NobleStatus.IN_PLAY, captor=None)
        else:
            nobles[noble_id] = copy(noble, captor=e.to_house)
    # Every offer about a Noble who changed hands can no longer be honoured as made.
    moved = {e.captive, *e.captives}
    offers = {
        i: o
        for i, o in state.offers.items()
        if i != e.offer and o.captive not in moved and not moved & set(o.captives)
    }
    return replace(state, treasury=treasury, nobles=nobles, offers=offers)


def _without_offer(state: CourtState, offer: int) -> CourtState:
    return replace(state, offers={i: o for i, o in state.offers.items() if i != offer})


def _ransom_refused(state: CourtState, e: RansomRefused) -> CourtState:
    return _without_offer(state, e.offer)


def _ransom_withdrawn(state: CourtState, e: RansomWithdrawn) -> CourtState:
    return _without_offer(state, e.offer)


HANDLERS: Handlers = {
    SeptBuilt: _sept_built,
    AuctionOpened: _auction_opened,
    AuctionSkipped: _auction_skipped,
    BidPlaced: _bid_placed,
    BidPassed: _bid_passed,
    BidsTimedOut: _bids_timed_out,
    BidsRevealed: _bids_revealed,
    CouncilSeatTaken: _council_seat_taken,
    CouncilSeatLapsed: _council_seat_lapsed,
    CouncilSeatVacated: _council_seat_vacated,
    PurchaseTurnsOpened: _purchase_turns_opened,
    PurchasesDone: _purchases_done,
    PurchasesTimedOut: _purchases_timed_out,
    FiefGrantedByKing: _fief_granted_by_king,
    RansomOffered: _ransom_offered,
    RansomPaid: _ransom_paid,
    RansomRefused: _ransom_refused,
    RansomWithdrawn: _ransom_withdrawn,
}
