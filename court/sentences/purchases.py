"""Sentences of the purchases at court in phase 4 and of ransom: Septs, Fief titles, the sale
of the fourth Small Council seat, ransom offers (R-3.6, R-4.6, R-8.2). No bid amount is told
before the reveal."""

from __future__ import annotations

from court.sentences import names
from court.sentences.base import Data, Sentences
from court.state import CourtState

NOTHING_SOLD = {
    "tie": "a tie for the highest bid",
    "no_bid": "no positive bid",
    "no_warden": "no bidder has a Warden left to seat",
    "no_free_master": "no Master title is free any more",
}


def _sept_built(d: Data, state: CourtState) -> str:
    village = names.village(state, d["village"])
    return f"{names.house(state, d['house'])} built a Sept at {village}."


def _auction_opened(d: Data, state: CourtState) -> str:
    who = names.players(state, d["order"])
    return f"The fourth Small Council seat is for sale; sealed bids from {who}."


def _auction_skipped(d: Data, state: CourtState) -> str:
    return f"No sale of the fourth Small Council seat this round: {d['reason']}."


def _bid_placed(d: Data, state: CourtState) -> str:
    return f"{names.player(state, d['seat'])} placed a sealed bid."


def _bid_passed(d: Data, state: CourtState) -> str:
    return f"{names.player(state, d['seat'])} passed in the sale of the council seat."


def _bids_timed_out(d: Data, state: CourtState) -> str:
    who = names.players(state, d["passed"])
    return f"The clock ran out for the sale (R-4.3); timed out, counted as passing: {who}."


def _bids_revealed(d: Data, state: CourtState) -> str:
    shown = ", ".join(
        f"{names.player(state, b['seat'])} {b['amount']}"
        + (" (void)" if b["void"] else " (no Warden to seat)" if b.get("no_warden") else "")
        for b in d["bids"]
    )
    bids = f"Bids revealed: {shown or 'none'}"
    if d["winner"] is None:
        return f"{bids}. Nothing is sold: {NOTHING_SOLD.get(d['reason'], d['reason'])}."
    top = max(b["amount"] for b in d["bids"] if b["seat"] == d["winner"])
    return (
        f"{bids}. {names.player(state, d['winner'])} buys the fourth Small Council seat "
        f"for {names.gold(top)}."
    )


def _council_seat_taken(d: Data, state: CourtState) -> str:
    return (
        f"{names.player(state, d['seat'])} seats {names.noble(state, d['noble'])} on the Small "
        f"Council as {names.title(state, d['title'])}."
    )


def _council_seat_lapsed(d: Data, state: CourtState) -> str:
    refund = d.get("refund", 0)
    back = f"; {names.gold(refund)} refunded (R-4.6)" if refund else ""
    return f"{names.player(state, d['seat'])} loses the council seat bought: {d['reason']}{back}."


def _council_seat_vacated(d: Data, state: CourtState) -> str:
    return f"The fourth Small Council seat is free again: {d['reason']} (R-4.6)."


def _purchase_turns_opened(d: Data, state: CourtState) -> str:
    return f"Purchases at court, in turn order: {names.players(state, d['order'])} (R-4.1)."


def _purchases_done(d: Data, state: CourtState) -> str:
    why = f": {d['reason']}" if d["reason"] else ""
    return f"{names.player(state, d['seat'])} is done with purchases{why}."


def _purchases_timed_out(d: Data, state: CourtState) -> str:
    who = names.players(state, d["seats"])
    return f"The clock ran out for the purchases (R-4.3); timed out: {who}."


def _fief_granted_by_king(d: Data, state: CourtState) -> str:
    return (
        f"The King granted the {names.title(state, d['title'])} title to "
        f"{names.noble(state, d['noble'])} (R-3.6)."
    )


def _ransom(d: Data, state: CourtState) -> str:
    """What a ransom is made of: Gold Dragons and/or captives (R-8.2)."""
    parts = [names.gold(d["gold"])] if d["gold"] else []
    parts += [names.noble(state, n) for n in d["captives"]]
    return " and ".join(parts)


def _ransom_offered(d: Data, state: CourtState) -> str:
    return (
        f"{names.player(state, d['seat'])} offers {_ransom(d, state)} to "
        f"{names.player(state, d['to_seat'])} as ransom for {names.noble(state, d['captive'])} "
        f"(offer {d['offer']})."
    )


def _ransom_paid(d: Data, state: CourtState) -> str:
    return (
        f"Ransom paid: {names.noble(state, d['captive'])} goes home to "
        f"{names.house(state, d['house'])}; {names.house(state, d['to_house'])} "
        f"receives {_ransom(d, state)}."
    )


def _ransom_refused(d: Data, state: CourtState) -> str:
    return f"Ransom offer {d['offer']} was refused."


def _ransom_withdrawn(d: Data, state: CourtState) -> str:
    return f"Ransom offer {d['offer']} was withdrawn."


SENTENCES: Sentences = {
    "SeptBuilt": _sept_built,
    "AuctionOpened": _auction_opened,
    "AuctionSkipped": _auction_skipped,
    "BidPlaced": _bid_placed,
    "BidPassed": _bid_passed,
    "BidsTimedOut": _bids_timed_out,
    "BidsRevealed": _bids_revealed,
    "CouncilSeatTaken": _council_seat_taken,
    "CouncilSeatLapsed": _council_seat_lapsed,
    "CouncilSeatVacated": _council_seat_vacated,
    "PurchaseTurnsOpened": _purchase_turns_opened,
    "PurchasesDone": _purchases_done,
    "PurchasesTimedOut": _purchases_timed_out,
    "FiefGrantedByKing": _fief_granted_by_king,
    "RansomOffered": _ransom_offered,
    "RansomPaid": _ransom_paid,
    "RansomRefused": _ransom_refused,
    "RansomWithdrawn": _ransom_withdrawn,
}
