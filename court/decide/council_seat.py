"""The sealed-bid sale of the fourth Small Council seat, first thing in phase 4 (R-3.5, R-4.6).

The sale opens by itself when phase 4 begins, if nobody holds the fourth seat, and closes
when every seat in it has bid or passed (or at its deadline, R-4.3); every bid is revealed
at once, amounts staying in the private part of each `BidPlaced` until then. The buyer's
Warden holds the seat until he leaves the Small Council.
"""

from __future__ import annotations

import hashlib

from court.commands import Actor, ChooseCouncilSeat, PassBid, PlaceBid
from court.decide import elections, titles
from court.decide.guards import require_seat, require_status
from court.decide.money import afford
from court.errors import CourtError, NotAllowed
from court.events import Event, GoldPaid
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
    OpenedBid,
)
from court.ids import HouseId, NobleId, Seat, TitleId
from court.model.ruleset import Category
from court.options.electorate import is_council
from court.state import Auction, CourtState, GameStatus

SEAT_CAUSE = "the fourth Small Council seat (R-4.6)"
# Reasons of `BidsRevealed`.
HIGHEST_BID, TIE, NO_BID, NO_WARDEN, NO_FREE_MASTER = (
    "highest_bid",
    "tie",
    "no_bid",
    "no_warden",
    "no_free_master",
)


def bid_commitment(amount: int, salt: str) -> str:
    """The public commitment of a sealed bid: SHA-256 of "bid:<amount>:<salt>" (UTF-8, hex)."""
    return hashlib.sha256(f"bid:{amount}:{salt}".encode()).hexdigest()


def _house(state: CourtState, seat: Seat) -> HouseId:
    return state.seats[seat].house


def wardens_off_council(state: CourtState, house: HouseId) -> tuple[NobleId, ...]:
    """The House's Wardens who could take a free Master title: Lords in play, no Outlaw,
    holding a Military title and sitting on no council seat (R-3.5, R-3.10)."""
    council = {t.id for t in state.ruleset.titles if t.council}
    military = {t.id for t in state.ruleset.titles if t.category is Category.MILITARY}
    return tuple(
        n.id
        for n in state.nobles.values()
        if n.house == house
        and military & set(state.titles_of(n.id))
        and not council & set(state.titles_of(n.id))
        and any(titles.could_stand(state, t, n.id) for t in free_masters(state))
    )


def free_masters(state: CourtState) -> tuple[TitleId, ...]:
    return tuple(t.id for t in state.ruleset.titles if t.master and t.id not in state.titles)


def vacated(state: CourtState) -> tuple[Event, ...]:
    """R-4.6 [D]: the fourth seat is free again once its Warden left the Small Council."""
    holder = state.fourth_seat
    if holder is None or is_council(state, holder):
        return ()
    noble = state.nobles[holder]
    reason = f"{noble.name} died" if not noble.alive else f"{noble.name} left the Small Council"
    return (CouncilSeatVacated(noble=holder, reason=reason),)


def follow_up(state: CourtState, now: float) -> tuple[Event, ...] | None:
    """What the sale does by itself: open or skip, reveal, lapse; None once it is over."""
    auction = state.auction
    if auction is None:
        return _open(state, now) if state.step is None else None
    if auction.winner is None:
        return _reveal(state, auction, now) if not auction.waiting else ()
    if not free_masters(state):
        return (lapse(state, auction.winner, "no Master title is free any more"),)
    if not wardens_off_council(state, _house(state, auction.winner)):
        return (lapse(state, auction.winner, "he has no Warden left to seat"),)
    return ()


def lapse(state: CourtState, buyer: Seat, reason: str) -> CouncilSeatLapsed:
    """R-4.6 [D]: the seat bought lapses before a Warden takes it; the price the bank holds is
    refunded in the same event: nobody ever pays for a seat he does not get."""
    refund = state.ledger.held.get(_house(state, buyer), 0)
    return CouncilSeatLapsed(seat=buyer, reason=reason, refund=refund)


def _open(state: CourtState, now: float) -> tuple[Event, ...]:
    """R-4.6: the highest bidder among players with a Warden off the council buys the seat."""
    if state.ruleset.profile.purchases.council_seat_sale != "sealed_bid":
        reason = "this rules profile sells no council seat"
    elif state.fourth_seat is not None:
        name = state.nobles[state.fourth_seat].name
        reason = f"{name} holds the fourth council seat (R-4.6)"
    elif not free_masters(state):
        reason = "no Master title is free (R-3.5)"
    else:
        order = state.turn_order(lambda s: wardens_off_council(state, _house(state, s)))
        if order:
            return (
                AuctionOpened(
                    round=state.round,
                    order=order,
                    deadline=elections.deadline(state, "purchase", now),
                ),
            )
        reason = "no player has a Warden off the Small Council (R-4.6)"
    return (AuctionSkipped(round=state.round, reason=reason),)


def _bidder(state: CourtState, actor: Actor, doing: str) -> tuple[Auction, Seat]:
    require_status(state, GameStatus.PLAYING)
    seat = require_seat(actor, doing)
    auction = state.auction
    if auction is None or auction.winner is not None:
        raise CourtError("no_auction", "No sale of the fourth council seat is open (R-4.6).")
    if seat not in auction.order:
        raise NotAllowed(
            "not_in_this_step", "Only players with a Warden off the Small Council bid (R-4.6)."
        )
    if seat not in auction.waiting:
        raise CourtError("already_acted", "You have already bid or passed in this sale.")
    return auction, seat


def place_bid(state: CourtState, cmd: PlaceBid, actor: Actor) -> tuple[Event, ...]:
    """R-4.6 [D]: one sealed bid; R-2.1: never above the House's treasury."""
    _, seat = _bidder(state, actor, "bid")
    if cmd.amount < 0:
        raise CourtError("bad_amount", "A bid is a whole number of Gold Dragons, 0 or more.")
    afford(state, _house(state, seat), cmd.amount)
    commitment = bid_commitment(cmd.amount, cmd.salt)
    if cmd.commitment is not None and cmd.commitment != commitment:
        raise CourtError(
            "bad_commitment",
            "The amount and salt sent do not open the commitment your device signed (SHA-256 "
            'of "bid:<amount>:<salt>").',
        )
    return (
        BidPlaced(
            seat=seat,
            commitment=commitment,
            secret=BidSecret(amount=cmd.amount, salt=cmd.salt),
        ),
    )


def pass_bid(state: CourtState, cmd: PassBid, actor: Actor) -> tuple[Event, ...]:
    _, seat = _bidder(state, actor, "pass")
    return (BidPassed(seat=seat),)


def _reveal(state: CourtState, auction: Auction, now: float) -> tuple[Event, ...]:
    """Every bid shown at once; the highest remaining bid wins and pays, the bank holding the
    price until his Warden takes the seat; a tie at the top or no positive bid sells nothing
    (R-4.6 [D]). A bid the House can no longer pay is void (R-2.1); a bid of a player who no
    longer has a Warden to seat is dropped before ranking."""
    shown: list[OpenedBid] = []
    valid: dict[Seat, int] = {}
    for seat in auction.order:
        bid = auction.bids.get(seat)
        if bid is None:
            continue
        assert bid.secret_amount is not None and bid.secret_salt is not None
        void = bid.secret_amount > state.treasury[_house(state, seat)]
        shown.append(
            OpenedBid(
                seat=seat,
                amount=bid.secret_amount,
                salt=bid.secret_salt,
                commitment=bid.commitment,
                void=void,
                no_warden=not wardens_off_council(state, _house(state, seat)),
            )
        )
        if not void and bid.secret_amount > 0:
            valid[seat] = bid.secret_amount
    winner, reason = sale_result(state, valid)
    revealed = BidsRevealed(
        bids=tuple(shown),
        winner=winner,
        reason=reason,
        deadline=elections.deadline(state, "title_choice", now) if winner is not None else None,
    )
    if winner is None:
        return (revealed,)
    paid = GoldPaid(
        house=_house(state, winner),
        to_house=None,
        amount=valid[winner],
        cause=SEAT_CAUSE,
        held=True,
    )
    return (revealed, paid)


def sale_result(
    state: CourtState, valid: dict[Seat, int], drop_without_warden: bool = True
) -> tuple[Seat | None, str]:
    """The buyer and the reason of the sale's result from the bids the Houses can pay (R-4.6
    [D]): bids of players with no Warden left to seat are dropped before ranking (a reveal
    recorded before that rule, `drop_without_warden` False, sold nothing when the top bidder
    had none)."""
    if not valid:
        return None, NO_BID
    if not drop_without_warden:
        return _top_bid_only(state, valid)
    if not free_masters(state):
        return None, NO_FREE_MASTER
    seated = {s: a for s, a in valid.items() if wardens_off_council(state, _house(state, s))}
    if not seated:
        return None, NO_WARDEN
    top = max(seated.values())
    leaders = [s for s, amount in seated.items() if amount == top]
    if len(leaders) > 1:
        return None, TIE
    return leaders[0], HIGHEST_BID


def _top_bid_only(state: CourtState, valid: dict[Seat, int]) -> tuple[Seat | None, str]:
    """The sale as reveals recorded before bids were dropped decided it: the top bid alone."""
    top = max(valid.values())
    leaders = [s for s, amount in valid.items() if amount == top]
    if len(leaders) > 1:
        return None, TIE
    if not wardens_off_council(state, _house(state, leaders[0])):
        return None, NO_WARDEN
    if not free_masters(state):
        return None, NO_FREE_MASTER
    return leaders[0], HIGHEST_BID


def choose_council_seat(
    state: CourtState, cmd: ChooseCouncilSeat, actor: Actor, now: float
) -> tuple[Event, ...]:
    """R-3.5: the buyer picks which of his Wardens joins and which free Master title he takes."""
    require_status(state, GameStatus.PLAYING)
    seat = require_seat(actor, "choose a council seat")
    auction = state.auction
    if auction is None or auction.winner is None:
        raise CourtError("no_council_choice", "No council seat bought waits for a choice.")
    if auction.winner != seat:
        raise NotAllowed("not_your_choice", "Only the buyer of the council seat chooses (R-4.6).")
    if state.pending is not None:
        raise CourtError("waiting_for_title", "The game waits for a title decision first (R-3.2).")
    if cmd.title not in free_masters(state):
        masters = ", ".join(free_masters(state))
        raise CourtError("not_a_free_master", f"Choose a free Master title (R-3.5): {masters}.")
    if cmd.noble not in wardens_off_council(state, _house(state, seat)) or not titles.could_stand(
        state, cmd.title, cmd.noble
    ):
        raise CourtError(
            "not_a_warden",
            "Choose one of your Wardens who is in play, no Outlaw and not on the council "
            "(R-3.5, R-3.10).",
        )
    deadline = elections.deadline(state, "title_choice", now)
    return (
        CouncilSeatTaken(seat=seat, noble=cmd.noble, title=cmd.title),
        *titles.grant(state, cmd.title, cmd.noble, SEAT_CAUSE, deadline),
    )


def choices(state: CourtState, seat: Seat) -> list[ChooseCouncilSeat]:
    """The buyer's choices: one of his Wardens, one free Master title (R-3.5)."""
    return [
        ChooseCouncilSeat(noble=n, title=t)
        for n in wardens_off_council(state, _house(state, seat))
        for t in free_masters(state)
        if titles.could_stand(state, t, n)
    ]


def close_overdue(state: CourtState, auction: Auction, late: tuple[Seat, ...]) -> tuple[Event, ...]:
    """R-4.3: the `late` bidders have passed; a buyer who has not chosen loses the seat."""
    if auction.winner is None:
        return (BidsTimedOut(passed=late),)
    return (lapse(state, auction.winner, "no choice before the deadline"),)
