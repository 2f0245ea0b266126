"""Purchases at court in phase 4, and ransom (R-3.6, R-4.6, R-8.2)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from court.commands.secrets import Drawn, Secret
from court.ids import NobleId, TitleId, VillageId


@dataclass(frozen=True, slots=True, kw_only=True)
class BuildSept:
    """Phase 4: build a Sept in a village your House controls (R-4.6)."""

    village: VillageId


@dataclass(frozen=True, slots=True, kw_only=True)
class BuyFiefTitle:
    """Phase 4: buy a free Fief title for one of your Nobles (R-3.6)."""

    title: TitleId
    noble: NobleId


@dataclass(frozen=True, slots=True, kw_only=True)
class GrantFiefTitle:
    """Phase 4: the King grants a free Fief title to a Noble of any House who could stand for
    it, at most one a round (R-3.6, R-3.10)."""

    title: TitleId
    noble: NobleId


@dataclass(frozen=True, slots=True, kw_only=True)
class EndPurchases:
    """Phase 4: you are done with your purchases; the turn passes on (R-4.1)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PlaceBid:
    """A sealed bid for the fourth council seat (R-4.6); the salt is the server's, or the
    player's device's when it signs the move: it signs `commitment`, which the amount and salt
    must open."""

    amount: int
    salt: str = ""  # empty: the server draws it
    commitment: str | None = None

    def needs(self) -> tuple[Secret, ...]:
        return () if self.salt else (Secret.SALT,)

    def supplied(self, drawn: Drawn) -> PlaceBid:
        salt = drawn.one(Secret.SALT)
        return self if salt is None else replace(self, salt=salt)


@dataclass(frozen=True, slots=True, kw_only=True)
class PassBid:
    """No bid for the fourth council seat."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ChooseCouncilSeat:
    """The winner of the sale puts one of his Wardens on the council with a free Master
    title (R-3.5, R-4.6)."""

    noble: NobleId
    title: TitleId


@dataclass(frozen=True, slots=True, kw_only=True)
class OfferRansom:
    """Offer Gold Dragons and/or captives you hold for one of your captive Nobles (R-8.2)."""

    captive: NobleId
    gold: int = 0
    captives: tuple[NobleId, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class AcceptRansom:
    offer: int


@dataclass(frozen=True, slots=True, kw_only=True)
class RefuseRansom:
    offer: int


@dataclass(frozen=True, slots=True, kw_only=True)
class WithdrawRansom:
    offer: int


PurchaseCommand = (
    BuildSept
    | BuyFiefTitle
    | GrantFiefTitle
    | EndPurchases
    | PlaceBid
    | PassBid
    | ChooseCouncilSeat
    | OfferRansom
    | AcceptRansom
    | RefuseRansom
    | WithdrawRansom
)
