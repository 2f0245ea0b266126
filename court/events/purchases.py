"""Events of the purchases at court in phase 4 and of ransom: Septs, Fief titles bought, the
sealed-bid sale of the fourth Small Council seat, ransom offers (R-3.6, R-4.6, R-8.2)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from court.events.base import Event
from court.ids import HouseId, NobleId, Seat, TitleId, VillageId


@dataclass(frozen=True, slots=True, kw_only=True)
class BidSecret:
    """What opens a sealed bid's commitment, the bidder's until the reveal: the amount in Gold
    Dragons and the salt. Kept as the log holds them, for the audit to judge."""

    amount: int
    salt: str


@dataclass(frozen=True, slots=True, kw_only=True)
class OpenedBid:
    """A sealed bid shown at the reveal: whose, the amount and salt that open its commitment,
    whether it was void (above the treasury at the reveal, R-2.1), and whether its bidder had no
    Warden left to seat (`no_warden`; None, and left out of the record, in reveals recorded
    before such bids were dropped)."""

    OMITTED_WHEN_NONE: ClassVar[frozenset[str]] = frozenset({"no_warden"})

    seat: Seat
    amount: int
    salt: str
    commitment: str
    void: bool
    no_warden: bool | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class SeptBuilt(Event):
    """A House built a Sept in a village it controls (R-4.6); the cost is a `GoldPaid` before."""

    village: VillageId
    house: HouseId


@dataclass(frozen=True, slots=True, kw_only=True)
class AuctionOpened(Event):
    """The fourth Small Council seat is for sale: the seats in `order` may each bid once,
    sealed, or pass (R-4.6)."""

    round: int
    order: tuple[Seat, ...]
    deadline: float | None


@dataclass(frozen=True, slots=True, kw_only=True)
class AuctionSkipped(Event):
    """No sale of the fourth council seat this round; `reason` says why (R-4.6)."""

    round: int
    reason: str


@dataclass(frozen=True, slots=True, kw_only=True)
class BidPlaced(Event):
    """A sealed bid: the commitment is public, the amount and salt stay with the bidder until
    the reveal. commitment = SHA-256 of "bid:<amount>:<salt>"."""

    PRIVATE: ClassVar[frozenset[str]] = frozenset({"secret"})
    OWNER: ClassVar[str | None] = "seat"

    seat: Seat
    commitment: str
    secret: BidSecret


@dataclass(frozen=True, slots=True, kw_only=True)
class BidPassed(Event):
    """A seat passed in the sale of the fourth council seat."""

    seat: Seat


@dataclass(frozen=True, slots=True, kw_only=True)
class BidsTimedOut(Event):
    """The sale's deadline passed: everyone in `passed` is recorded as passing (R-4.3)."""

    passed: tuple[Seat, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class BidsRevealed(Event):
    """Every sealed bid shown at once; a bid whose bidder had no Warden left to seat is
    dropped before ranking (where a reveal marks none, such a top bid sold nothing). The highest
    remaining bid wins; a tie at the top or no positive bid sells nothing (R-4.6 [D])."""

    bids: tuple[OpenedBid, ...]
    winner: Seat | None
    reason: str
    # When the winner must have chosen his Warden and Master title.
    deadline: float | None


@dataclass(frozen=True, slots=True, kw_only=True)
class CouncilSeatTaken(Event):
    """The winner of the sale put one of his Wardens on the council with a free Master title
    (R-3.5, R-4.6); the `TitleGranted` follows."""

    seat: Seat
    noble: NobleId
    title: TitleId


@dataclass(frozen=True, slots=True, kw_only=True)
class CouncilSeatLapsed(Event):
    """The seat bought was not taken: no choice before the deadline, or no Warden or Master
    title left to choose. `refund` Gold Dragons, the price the bank held, go back to the
    buyer's House in this same event (R-4.6); a lapse recorded before refunds has none."""

    seat: Seat
    reason: str
    refund: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class CouncilSeatVacated(Event):
    """The Warden who bought the fourth council seat left the Small Council: the seat can be
    sold again (R-4.6)."""

    noble: NobleId
    reason: str


@dataclass(frozen=True, slots=True, kw_only=True)
class PurchaseTurnsOpened(Event):
    """After the council seat sale, each player in turn order makes his purchases and says
    he is done (R-4.1, R-4.6)."""

    round: int
    order: tuple[Seat, ...]
    deadline: float | None


@dataclass(frozen=True, slots=True, kw_only=True)
class PurchasesDone(Event):
    """A player is done with his purchases; the turn passes on (R-4.1). `reason` is empty when
    he said so, or says why the server ended his turn (he had nothing he could buy)."""

    seat: Seat
    reason: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class PurchasesTimedOut(Event):
    """The purchases' deadline passed: the players in `seats` are done on the clock (R-4.3)."""

    seats: tuple[Seat, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class FiefGrantedByKing(Event):
    """The King granted a free Fief title to a Noble who could stand for it (R-3.6); the
    `TitleGranted` follows."""

    seat: Seat
    title: TitleId
    noble: NobleId
    round: int


@dataclass(frozen=True, slots=True, kw_only=True)
class RansomOffered(Event):
    """The captive's player offers Gold Dragons and/or captives he holds to the captor's
    player (R-8.2); open offers are public."""

    offer: int
    seat: Seat
    to_seat: Seat
    captive: NobleId
    gold: int
    captives: tuple[NobleId, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class RansomPaid(Event):
    """The captor's player accepted: the gold goes from `house` to `to_house`, the captive goes
    home, and each offered captive goes home if he belongs to `to_house` or else passes into
    `to_house`'s hands (R-8.2: everything changes hands at once, in this one event)."""

    offer: int
    house: HouseId
    to_house: HouseId
    captive: NobleId
    gold: int
    captives: tuple[NobleId, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class RansomRefused(Event):
    """The captor's player refused a ransom offer (R-8.2)."""

    offer: int


@dataclass(frozen=True, slots=True, kw_only=True)
class RansomWithdrawn(Event):
    """The offering player took his ransom offer back."""

    offer: int
