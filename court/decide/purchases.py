"""Purchases at court in phase 4: Septs, Fief titles, and the sealed-bid sale of the fourth
Small Council seat (R-2.1, R-3.5, R-3.6, R-4.6, R-6.2).

The sale opens by itself when phase 4 begins, closes when every seat in it has bid or passed
(or at its deadline, R-4.3), and reveals every bid at once; amounts stay in the private part
of each `BidPlaced` until then.
"""

from __future__ import annotations

import hashlib

from court.commands import Actor, BuildSept, BuyFiefTitle, ChooseCouncilSeat, PassBid, PlaceBid
from court.decide import elections, titles
from court.decide.guards import require_seat, require_status
from court.errors import CourtError, NotAllowed
from court.events import Event, GoldPaid
from court.events.purchases import (
    AuctionOpened,
    AuctionSkipped,
    BidPassed,
    BidPlaced,
    BidsRevealed,
    BidsTimedOut,
    CouncilSeatLapsed,
    CouncilSeatTaken,
    SeptBuilt,
)
from court.ids import HouseId, NobleId, Seat, TitleId
from court.ruleset import Category
from court.state import Auction, CourtState, GameStatus, NobleStatus, Phase

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


# -- who may do what ------------------------------------------------------------------


def _house(state: CourtState, seat: Seat) -> HouseId:
    return state.seats[seat].house


def _buyer(state: CourtState, actor: Actor, doing: str) -> tuple[Seat, HouseId]:
    """The acting seat and its House, in phase 4 (R-4.6)."""
    require_status(state, GameStatus.PLAYING)
    seat = require_seat(actor, doing)
    if state.phase is not Phase.PURCHASES:
        raise CourtError("wrong_phase", f"You can {doing} only in the purchases phase (R-4.6).")
    return seat, _house(state, seat)


def _no_title_waiting(state: CourtState) -> None:
    if state.pending is not None:
        raise CourtError("waiting_for_title", "The game waits for a title decision first (R-3.2).")


def afford(state: CourtState, house: HouseId, amount: int) -> None:
    """R-2.1: a treasury never goes below zero; a payment the House cannot afford is refused."""
    if state.treasury[house] < amount:
        raise CourtError(
            "treasury_too_low",
            f"This costs {amount} Gold Dragons and your House holds {state.treasury[house]}; "
            "a treasury never goes below zero (R-2.1).",
        )


def wardens_off_council(state: CourtState, house: HouseId) -> tuple[NobleId, ...]:
    """The House's Wardens who may join the Small Council: in play, not Outlaw, holding a
    Military title and neither Hand nor Master (R-3.5)."""
    council = {t.id for t in state.ruleset.titles if t.council}
    military = {t.id for t in state.ruleset.titles if t.category is Category.MILITARY}
    return tuple(
        n.id
        for n in state.nobles.values()
        if n.house == house
        and n.status is NobleStatus.IN_PLAY
        and not n.outlaw
        and military & set(state.titles_of(n.id))
        and not council & set(state.titles_of(n.id))
    )


def free_masters(state: CourtState) -> tuple[TitleId, ...]:
    return tuple(t.id for t in state.ruleset.titles if t.master and t.id not in state.titles)


# -- Septs and Fief titles ------------------------------------------------------------


def build_sept(state: CourtState, cmd: BuildSept, actor: Actor) -> tuple[Event, ...]:
    """R-4.6: a Sept for 4 GD in a village the House controls; [D] one a village; never after
    the false idols were destroyed (R-6.2)."""
    _, house = _buyer(state, actor, "build a Sept")
    village = next((v for v in state.ruleset.villages if v.id == cmd.village), None)
    if village is None:
        raise CourtError("unknown_village", f"There is no village {cmd.village!r} on this map.")
    if state.septs_banned:
        raise CourtError(
            "septs_banned",
            "No Sept can be built since the false idols were destroyed (R-6.2).",
        )
    if state.villages.get(village.id) != house:
        raise CourtError("not_your_village", f"Your House does not control {village.name} (R-4.6).")
    settings = state.ruleset.profile.purchases
    if (1 if village.id in state.septs else 0) >= settings.septs_per_village:
        raise CourtError("sept_exists", f"{village.name} already has its Sept (R-4.6).")
    afford(state, house, settings.sept_cost)
    return (
        GoldPaid(
            house=house, to_house=None, amount=settings.sept_cost, cause=f"Sept at {village.name}"
        ),
        SeptBuilt(village=village.id, house=house),
    )


def buy_fief_title(
    state: CourtState, cmd: BuyFiefTitle, actor: Actor, now: float
) -> tuple[Event, ...]:
    """R-3.6: a free Fief title, for the profile's price, by a Noble whose House controls every
    village of that Fiefdom; R-3.2: with his Fief slots full the game waits for his player."""
    _, house = _buyer(state, actor, "buy a Fief title")
    _no_title_waiting(state)
    definition = state.ruleset.title(cmd.title)
    if definition is None or definition.category is not Category.FIEF:
        raise CourtError("not_a_fief_title", f"{cmd.title!r} is not a Fief title (R-3.6).")
    if cmd.title in state.titles:
        raise CourtError("title_taken", f"{definition.name} is not free (R-3.6).")
    noble = state.nobles.get(cmd.noble)
    if noble is None:
        raise CourtError("unknown_noble", f"There is no Noble {cmd.noble!r} in this game.")
    if noble.house != house:
        raise NotAllowed("not_your_noble", f"{noble.name} is not one of your Nobles.")
    if not titles.could_hold(state, cmd.title, cmd.noble):
        raise CourtError(
            "cannot_hold",
            f"{noble.name} could not hold {definition.name}: he must be in play and no Outlaw.",
        )
    fiefdom = [v for v in state.ruleset.villages if v.fiefdom == definition.fiefdom]
    missing = [v.name for v in fiefdom if state.villages.get(v.id) != house]
    if missing:
        raise CourtError(
            "fiefdom_not_held",
            f"Your House must control every village of the Fiefdom (R-3.6); not yet: "
            f"{', '.join(missing)}.",
        )
    price = state.ruleset.profile.titles.fief_price
    afford(state, house, price)
    paid = GoldPaid(house=house, to_house=None, amount=price, cause=f"{definition.name} bought")
    deadline = elections.deadline(state, "title_choice", now)
    return (paid, *titles.grant(state, cmd.title, cmd.noble, "bought (R-3.6)", deadline))


# -- the sale of the fourth council seat ----------------------------------------------


def follow_up(state: CourtState, now: float) -> tuple[Event, ...]:
    """What the sale does by itself in phase 4: open or skip, reveal, lapse."""
    auction = state.auction
    if auction is None:
        return _open(state, now) if state.step is None else ()
    if auction.winner is None:
        return _reveal(state, auction, now) if not auction.waiting else ()
    if not wardens_off_council(state, _house(state, auction.winner)):
        return (CouncilSeatLapsed(seat=auction.winner, reason="he has no Warden left to seat"),)
    if not free_masters(state):
        return (CouncilSeatLapsed(seat=auction.winner, reason="no Master title is free any more"),)
    return ()


def _open(state: CourtState, now: float) -> tuple[Event, ...]:
    """R-4.6: the highest bidder among players with a Warden off the council buys the seat."""
    if state.ruleset.profile.purchases.council_seat_sale != "sealed_bid":
        reason = "this rules profile sells no council seat"
    elif not free_masters(state):
        reason = "no Master title is free (R-3.5)"
    else:
        order = tuple(s for s in state.turn_order() if wardens_off_council(state, _house(state, s)))
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
    return (
        BidPlaced(
            seat=seat,
            commitment=bid_commitment(cmd.amount, cmd.salt),
            secret={"amount": cmd.amount, "salt": cmd.salt},
        ),
    )


def pass_bid(state: CourtState, cmd: PassBid, actor: Actor) -> tuple[Event, ...]:
    _, seat = _bidder(state, actor, "pass")
    return (BidPassed(seat=seat),)


def _reveal(state: CourtState, auction: Auction, now: float) -> tuple[Event, ...]:
    """Every bid shown at once; the highest wins and pays; a tie at the top or no positive bid
    sells nothing (R-4.6 [D]). A bid the House can no longer pay is void (R-2.1)."""
    shown: list[dict] = []
    valid: dict[Seat, int] = {}
    for seat in auction.order:
        bid = auction.bids.get(seat)
        if bid is None:
            continue
        assert bid.secret_amount is not None
        void = bid.secret_amount > state.treasury[_house(state, seat)]
        shown.append(
            {
                "seat": seat,
                "amount": bid.secret_amount,
                "salt": bid.secret_salt,
                "commitment": bid.commitment,
                "void": void,
            }
        )
        if not void and bid.secret_amount > 0:
            valid[seat] = bid.secret_amount
    winner: Seat | None = None
    if not valid:
        reason = NO_BID
    else:
        top = max(valid.values())
        leaders = [s for s, amount in valid.items() if amount == top]
        if len(leaders) > 1:
            reason = TIE
        elif not wardens_off_council(state, _house(state, leaders[0])):
            reason = NO_WARDEN
        elif not free_masters(state):
            reason = NO_FREE_MASTER
        else:
            winner, reason = leaders[0], HIGHEST_BID
    revealed = BidsRevealed(
        bids=tuple(shown),
        winner=winner,
        reason=reason,
        deadline=elections.deadline(state, "title_choice", now) if winner is not None else None,
    )
    if winner is None:
        return (revealed,)
    house = _house(state, winner)
    return (revealed, GoldPaid(house=house, to_house=None, amount=valid[winner], cause=SEAT_CAUSE))


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
    _no_title_waiting(state)
    if cmd.noble not in wardens_off_council(state, _house(state, seat)):
        raise CourtError(
            "not_a_warden",
            "Choose one of your Wardens who is in play, no Outlaw and not on the council (R-3.5).",
        )
    if cmd.title not in free_masters(state):
        masters = ", ".join(free_masters(state))
        raise CourtError("not_a_free_master", f"Choose a free Master title (R-3.5): {masters}.")
    deadline = elections.deadline(state, "title_choice", now)
    return (
        CouncilSeatTaken(seat=seat, noble=cmd.noble, title=cmd.title),
        *titles.grant(state, cmd.title, cmd.noble, SEAT_CAUSE, deadline),
    )


def close_overdue(state: CourtState, auction: Auction) -> tuple[Event, ...]:
    """R-4.3: bidders who have not acted have passed; a buyer who has not chosen loses it."""
    if auction.winner is None:
        return (BidsTimedOut(passed=auction.waiting),)
    return (CouncilSeatLapsed(seat=auction.winner, reason="no choice before the deadline"),)


def auction_open(state: CourtState) -> None:
    """The host cannot close phase 4 while the sale or the buyer's choice is open."""
    if state.auction is not None:
        raise CourtError(
            "auction_open",
            "The sale of the fourth council seat is still open: every bidder must bid or pass, "
            "and the buyer must choose (R-4.6).",
        )
