"""Ransom (R-8.2): the captive's player offers Gold Dragons and/or captives he holds; the
captor's player accepts, and everything changes hands at once in one event, or refuses."""

from __future__ import annotations

from court.commands import AcceptRansom, Actor, OfferRansom, RefuseRansom, WithdrawRansom
from court.decide.guards import require_seat, require_status
from court.decide.money import afford
from court.errors import CourtError, NotAllowed
from court.events import Event
from court.events.purchases import RansomOffered, RansomPaid, RansomRefused, RansomWithdrawn
from court.ids import HouseId, NobleId, Seat
from court.state import CourtState, GameStatus, NobleStatus, RansomOffer


def _held_by(state: CourtState, noble: NobleId, house: HouseId) -> bool:
    found = state.nobles.get(noble)
    return found is not None and found.status is NobleStatus.CAPTIVE and found.captor == house


def offer(state: CourtState, cmd: OfferRansom, actor: Actor) -> tuple[Event, ...]:
    """[D] Offers may be made at any time while the game is played (R-8.2)."""
    require_status(state, GameStatus.PLAYING)
    seat = require_seat(actor, "offer a ransom")
    house = state.seats[seat].house
    captive = state.nobles.get(cmd.captive)
    if captive is None:
        raise CourtError("unknown_noble", f"There is no Noble {cmd.captive!r} in this game.")
    if captive.house != house:
        raise NotAllowed("not_your_noble", f"{captive.name} is not one of your Nobles (R-8.2).")
    if captive.status is not NobleStatus.CAPTIVE or captive.captor is None:
        raise CourtError("not_captive", f"{captive.name} is nobody's captive (R-8.2).")
    to_seat = state.seat_of_house(captive.captor)
    if to_seat is None:
        raise CourtError("captor_not_playing", "No player holds the captor's House (R-8.2).")
    if cmd.gold < 0:
        raise CourtError("bad_amount", "A ransom is a whole number of Gold Dragons, 0 or more.")
    if len(set(cmd.captives)) != len(cmd.captives):
        raise CourtError("duplicate_captive", "Name each captive you offer once.")
    for noble in cmd.captives:
        if not _held_by(state, noble, house):
            raise CourtError(
                "not_your_captive", f"Your House holds no captive {noble!r} to offer (R-8.2)."
            )
    if cmd.gold == 0 and not cmd.captives:
        raise CourtError("empty_offer", "Offer Gold Dragons, captives you hold, or both (R-8.2).")
    afford(state, house, cmd.gold)
    return (
        RansomOffered(
            offer=state.next_offer,
            seat=seat,
            to_seat=to_seat,
            captive=cmd.captive,
            gold=cmd.gold,
            captives=cmd.captives,
        ),
    )


def _open_offer(
    state: CourtState, actor: Actor, number: int, doing: str
) -> tuple[RansomOffer, Seat]:
    require_status(state, GameStatus.PLAYING)
    seat = require_seat(actor, doing)
    found = state.offers.get(number)
    if found is None:
        raise CourtError("unknown_offer", f"There is no open ransom offer {number}.")
    return found, seat


def accept(state: CourtState, cmd: AcceptRansom, actor: Actor) -> tuple[Event, ...]:
    """R-8.2: on acceptance Gold Dragons and Nobles change hands at once, in one event; R-2.1:
    the payer must afford the gold now."""
    found, seat = _open_offer(state, actor, cmd.offer, "accept a ransom")
    if seat != found.to_seat:
        raise NotAllowed("not_your_offer", "Only the captor's player accepts a ransom (R-8.2).")
    problem = accept_problem(state, found)
    if problem is not None:
        raise problem
    house, to_house = state.seats[found.seat].house, state.seats[found.to_seat].house
    return (
        RansomPaid(
            offer=found.id,
            house=house,
            to_house=to_house,
            captive=found.captive,
            gold=found.gold,
            captives=found.captives,
        ),
    )


def accept_problem(state: CourtState, found: RansomOffer) -> CourtError | None:
    """Why the offer cannot be accepted now, or None: every Noble of it is still where it was
    made, and the offering House can pay its gold now (R-8.2, R-2.1)."""
    house, to_house = state.seats[found.seat].house, state.seats[found.to_seat].house
    if not _held_by(state, found.captive, to_house) or not all(
        _held_by(state, n, house) for n in found.captives
    ):
        return CourtError(
            "offer_stale", "A Noble of this offer has changed hands since it was made (R-8.2)."
        )
    try:
        afford(state, house, found.gold)
    except CourtError as refused:
        return refused
    return None


def refuse(state: CourtState, cmd: RefuseRansom, actor: Actor) -> tuple[Event, ...]:
    found, seat = _open_offer(state, actor, cmd.offer, "refuse a ransom")
    if seat != found.to_seat:
        raise NotAllowed("not_your_offer", "Only the captor's player refuses a ransom (R-8.2).")
    return (RansomRefused(offer=found.id),)


def withdraw(state: CourtState, cmd: WithdrawRansom, actor: Actor) -> tuple[Event, ...]:
    found, seat = _open_offer(state, actor, cmd.offer, "withdraw a ransom offer")
    if seat != found.seat:
        raise NotAllowed("not_your_offer", "Only the player who made an offer withdraws it.")
    return (RansomWithdrawn(offer=found.id),)
