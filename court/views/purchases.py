"""The court view's sections for phase 4 and ransom: the council seat sale and open offers.

The sale shows who may bid, who has bid or passed and the deadline, never an amount: amounts
are secret until the reveal, and the reveal is in the history (R-4.6, section 10).
"""

from __future__ import annotations

from typing import Any

from court.state import Auction, RansomOffer, TurnStep


def auction_view(auction: Auction | None) -> dict[str, Any] | None:
    if auction is None:
        return None
    return {
        "order": list(auction.order),
        "bid": [s for s in auction.order if s in auction.bids],
        "passed": [s for s in auction.order if s in auction.passed],
        "waiting": list(auction.waiting),
        "deadline": auction.deadline,
        "winner": auction.winner,
    }


def offers_view(offers: dict[int, RansomOffer]) -> list[dict[str, Any]]:
    """Open ransom offers are public (R-8.2)."""
    return [
        {
            "id": o.id,
            "seat": o.seat,
            "to_seat": o.to_seat,
            "captive": o.captive,
            "gold": o.gold,
            "captives": list(o.captives),
        }
        for o in sorted(offers.values(), key=lambda o: o.id)
    ]


def turns_view(turns: TurnStep | None) -> dict[str, Any] | None:
    """Phase 4's purchase turns (R-4.1): whose turn it is and who is done."""
    if turns is None:
        return None
    return {
        "order": list(turns.order),
        "done": list(turns.acted),
        "current": turns.current,
        "deadline": turns.deadline,
    }
