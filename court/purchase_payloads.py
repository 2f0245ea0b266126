"""Purchases at court in phase 4 and ransom (R-3.6, R-4.6, R-8.2): each checked payload
turned into its command, for the HTTP routes and the Socket.IO messages alike.

A sealed bid is not here: the service adds its salt and answers with a receipt, so both
adapters give it a route of its own (`CourtService.place_bid`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from court.commands import (
    AcceptRansom,
    BuildSept,
    BuyFiefTitle,
    ChooseCouncilSeat,
    Command,
    EndPurchases,
    GrantFiefTitle,
    OfferRansom,
    PassBid,
    RefuseRansom,
    WithdrawRansom,
)
from court.ids import NobleId, TitleId, VillageId

Payload = dict[str, Any]


def build_sept(b: Payload) -> BuildSept:
    return BuildSept(village=VillageId(b["village"]))


def buy_fief_title(b: Payload) -> BuyFiefTitle:
    return BuyFiefTitle(title=TitleId(b["title"]), noble=NobleId(b["noble"]))


def grant_fief_title(b: Payload) -> GrantFiefTitle:
    return GrantFiefTitle(title=TitleId(b["title"]), noble=NobleId(b["noble"]))


def end_purchases(b: Payload) -> EndPurchases:
    return EndPurchases()


def pass_bid(b: Payload) -> PassBid:
    return PassBid()


def choose_council_seat(b: Payload) -> ChooseCouncilSeat:
    return ChooseCouncilSeat(noble=NobleId(b["noble"]), title=TitleId(b["title"]))


def offer_ransom(b: Payload) -> OfferRansom:
    return OfferRansom(
        captive=NobleId(b["captive"]),
        gold=b["gold"],
        captives=tuple(NobleId(n) for n in b["captives"]),
    )


def accept_ransom(b: Payload) -> AcceptRansom:
    return AcceptRansom(offer=b["offer"])


def refuse_ransom(b: Payload) -> RefuseRansom:
    return RefuseRansom(offer=b["offer"])


def withdraw_ransom(b: Payload) -> WithdrawRansom:
    return WithdrawRansom(offer=b["offer"])


# (HTTP path under /games/<id>/, Socket.IO message, summary, builder); the schemas
# (court/schemas.py PURCHASE_SCHEMAS) stay with the adapters.
PURCHASES: tuple[tuple[str, str, str, Callable[[Payload], Command]], ...] = (
    (
        "purchases/sept",
        "build_sept",
        "Phase 4: build a Sept in a village your House controls (R-4.6, R-6.2, R-2.1)",
        build_sept,
    ),
    (
        "purchases/fief",
        "buy_fief_title",
        "Phase 4: buy a free Fief title for one of your Nobles (R-3.6, R-3.2)",
        buy_fief_title,
    ),
    (
        "purchases/grant-fief",
        "grant_fief_title",
        "Phase 4, the King: grant a free Fief title to a Noble of any House who could stand "
        "for it, one a round (R-3.6, R-3.10)",
        grant_fief_title,
    ),
    (
        "purchases/done",
        "end_purchases",
        "Phase 4: you are done with your purchases; the turn passes on (R-4.1)",
        end_purchases,
    ),
    (
        "purchases/pass-bid",
        "pass_bid",
        "Pass in the sale of the fourth Small Council seat (R-4.6)",
        pass_bid,
    ),
    (
        "purchases/council-seat",
        "choose_council_seat",
        "The buyer of the council seat picks his Warden and a free Master title (R-3.5)",
        choose_council_seat,
    ),
    (
        "ransom/offer",
        "offer_ransom",
        "Offer Gold Dragons and/or captives you hold for one of your captives (R-8.2)",
        offer_ransom,
    ),
    (
        "ransom/accept",
        "accept_ransom",
        "Accept a ransom offered to you: gold and Nobles change hands at once (R-8.2)",
        accept_ransom,
    ),
    ("ransom/refuse", "refuse_ransom", "Refuse a ransom offered to you (R-8.2)", refuse_ransom),
    (
        "ransom/withdraw",
        "withdraw_ransom",
        "Take back a ransom offer you made (R-8.2)",
        withdraw_ransom,
    ),
)
