"""The court as it stands after some events: frozen data, rebuilt by folding the log."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum

from court.ids import GameId, HouseId, NobleId, Seat, TitleId, VillageId
from court.model.devices import DeviceKeys
from court.model.ending import Ending
from court.model.links import SeatLinks
from court.model.powers import Power
from court.model.ruleset import Attribute, Gender, Ruleset
from court.model.seats import HostVote, SeatInfo
from court.model.table import TableVotes
from elections import turns


class GameStatus(StrEnum):
    NEW = "new"
    LOBBY = "lobby"
    PLAYING = "playing"
    ENDED = "ended"


class Phase(StrEnum):
    """The eight phases of a round (R-4.1), in order."""

    DECREES = "decrees"
    CARDS = "cards"
    INCOME = "income"
    PURCHASES = "purchases"
    MOVEMENT = "movement"
    BATTLES = "battles"
    WALL = "wall"
    END_OF_ROUND = "end_of_round"


class NobleStatus(StrEnum):
    """Where a Noble stands (R-1.4); Outlaw is a separate mark."""

    IN_PLAY = "in_play"
    CAPTIVE = "captive"
    DEAD = "dead"
    BROTHER = "brother"


class StepKind(StrEnum):
    """What a step of the round is: a phase-1 decree step or election (R-4.2), or in phase 4
    the sale of the fourth council seat or the purchase turns (R-4.6, R-4.1)."""

    DECREE = "decree"
    ELECTION = "election"
    AUCTION = "auction"
    PURCHASES = "purchases"


@dataclass(frozen=True, slots=True, kw_only=True)
class StepRef:
    """A step by its kind and its one id, as court/model/steps.py declares it."""

    kind: StepKind
    id: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Noble:
    id: NobleId
    house: HouseId
    name: str
    gender: Gender
    attributes: frozenset[Attribute]
    status: NobleStatus = NobleStatus.IN_PLAY
    outlaw: bool = False
    captor: HouseId | None = None
    spouse: NobleId | None = None

    @property
    def alive(self) -> bool:
        return self.status is not NobleStatus.DEAD


class Stage(StrEnum):
    CANDIDACY = "candidacy"
    BALLOT = "ballot"


@dataclass(frozen=True, slots=True, kw_only=True)
class PlacedMarker:
    """A face-down marker: public commitment (and candidate, unless ballots are sealed),
    with the kind, candidate and salt only the owner and the server know until the reveal."""

    commitment: str
    candidate: NobleId | None
    secret_kind: str | None
    secret_candidate: NobleId | None
    secret_salt: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class Election:
    """The election under way in phase 1 (R-7.1)."""

    id: str
    title: TitleId
    stage: Stage
    order: tuple[Seat, ...]
    acted: tuple[Seat, ...] = ()
    candidates: tuple[tuple[Seat, NobleId], ...] = ()
    weights: dict[Seat, int] = field(default_factory=dict)
    minimum: int = 0
    placements: dict[Seat, tuple[PlacedMarker, ...]] = field(default_factory=dict)
    deadline: float | None = None
    # Candidates withdrawn before the reveal: markers on them count for nothing.
    withdrawn: tuple[NobleId, ...] = ()

    @property
    def waiting(self) -> tuple[Seat, ...]:
        return tuple(s for s in self.order if s not in self.acted)

    @property
    def current(self) -> Seat | None:
        # A loop, not next() over a generator: every seat's moves and the election's view
        # ask this at every push, and making the generator costs more than the search.
        acted = self.acted
        for seat in self.order:
            if seat not in acted:
                return seat
        return None

    @property
    def standing(self) -> tuple[NobleId, ...]:
        """The candidates who may still win: put forward and not withdrawn (R-7.2)."""
        return tuple(n for _, n in self.candidates if n not in self.withdrawn)


class PendingKind(StrEnum):
    ACCEPTANCE = "acceptance"
    OVERFLOW = "overflow"


@dataclass(frozen=True, slots=True, kw_only=True)
class PendingTitle:
    """The game waits for one player about a title: take or refuse a win (R-3.3),
    or pass or return a title of a full category (R-3.2), bought for `price` (R-3.6)."""

    kind: PendingKind
    seat: Seat
    noble: NobleId
    title: TitleId
    election: str | None = None
    deadline: float | None = None
    price: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class Alliance:
    """Two players allied by a marriage (R-5.2, R-5.4); `lord` and `lady` are the spouses in
    the order of `CourtState.couple` (two Lords or two Ladies when R-5.1 allows it)."""

    seats: tuple[Seat, Seat]
    lord: NobleId
    lady: NobleId


@dataclass(frozen=True, slots=True, kw_only=True)
class TurnStep:
    """A step played one turn after another in turn order: a phase-1 decree step (R-4.2) or
    the purchases of phase 4 (R-4.1). Turns are taken in `order`, so `acted` is always the
    beginning of it; a seat holding two powers has two turns (R-6.3)."""

    id: str
    order: tuple[Seat, ...]
    acted: tuple[Seat, ...] = ()
    deadline: float | None = None
    # The power of each turn, when the turn belongs to a title; empty in older logs.
    powers: tuple[Power | None, ...] = ()
    # Step 1.1.2: the Protector who embraced R'hllor, once he has.
    embraced_by: NobleId | None = None

    @property
    def turn(self) -> int:
        return len(self.acted)

    @property
    def current(self) -> Seat | None:
        return self.order[self.turn] if self.turn < len(self.order) else None

    @property
    def waiting(self) -> tuple[Seat, ...]:
        return self.order[self.turn :]

    @property
    def power(self) -> Power | None:
        """The power of the turn under way, if it belongs to a title."""
        return self.powers[self.turn] if self.turn < len(self.powers) else None


@dataclass(frozen=True, slots=True, kw_only=True)
class Proposal:
    """A marriage proposed and waiting for the other player's answer (R-5.1)."""

    seat: Seat
    noble: NobleId
    to_seat: Seat
    to_noble: NobleId


@dataclass(frozen=True, slots=True, kw_only=True)
class SealedBid:
    """A bid for the fourth council seat: public commitment, secret amount (R-4.6)."""

    commitment: str
    secret_amount: int | None
    secret_salt: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class Auction:
    """The sealed-bid sale of the fourth Small Council seat in phase 4 (R-4.6)."""

    order: tuple[Seat, ...]
    bids: dict[Seat, SealedBid] = field(default_factory=dict)
    passed: tuple[Seat, ...] = ()
    deadline: float | None = None
    # Set by the reveal: the buyer, who now seats a Warden; `deadline` is that choice's.
    winner: Seat | None = None

    @property
    def waiting(self) -> tuple[Seat, ...]:
        return tuple(s for s in self.order if s not in self.bids and s not in self.passed)


@dataclass(frozen=True, slots=True, kw_only=True)
class RansomOffer:
    """A captive's player offers Gold Dragons and/or captives to the captor's player (R-8.2)."""

    id: int
    seat: Seat
    to_seat: Seat
    captive: NobleId
    gold: int
    captives: tuple[NobleId, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Ledger:
    """Every Gold Dragon moved, accounted for by a rule or a fact (R-2.1): `issued` came in
    (starting treasuries, income, pillage, the host's facts), `spent` went to the bank for what
    was delivered (a Sept, a Fief title, the fourth council seat taken), `held` is the price of
    the fourth seat the bank holds for its buyer until his Warden takes it or it is refunded."""

    issued: int = 0
    spent: int = 0
    held: dict[HouseId, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True, kw_only=True)
class RunningClock:
    """A player's time bank running for a step of `kind` since `started` (R-4.3 clocks)."""

    kind: str
    started: float


@dataclass(frozen=True, kw_only=True)
class CourtState:
    game_id: GameId
    status: GameStatus = GameStatus.NEW
    rules: Ruleset | None = None
    players: int = 0
    name: str | None = None  # the host's name for the game; None in logs from before names
    host_name: str = ""
    host_token_sha256: str = ""
    dice_seed_sha256: str = ""
    dice_seed: str | None = None
    game_master_name: str | None = None
    game_master_token_sha256: str | None = None
    # On the front page or private; the digest of the invite secret to a private game.
    listed: bool = False
    invite_sha256: str | None = None
    seats: dict[Seat, SeatInfo] = field(default_factory=dict)
    # Votes to make a seat the host (voter -> vote), cleared when the host changes; a vote
    # counts only while the host has been away since before it was cast.
    host_votes: dict[Seat, HostVote] = field(default_factory=dict)
    # When the game started (0.0: not recorded): the host's absence counts from then at earliest.
    started_at: float = 0.0
    # Seats ever taken: a seat number is never given twice, so a private part owned by a
    # player who left is never shown to whoever joins after him.
    joins: int = 0
    seat_order: tuple[Seat, ...] = ()
    first_player: Seat | None = None
    round: int = 0
    phase: Phase | None = None
    # The step of this phase opened (or skipped) last; None before the first.
    step: StepRef | None = None
    nobles: dict[NobleId, Noble] = field(default_factory=dict)
    titles: dict[TitleId, NobleId] = field(default_factory=dict)
    treasury: dict[HouseId, int] = field(default_factory=dict)
    ledger: Ledger = Ledger()
    villages: dict[VillageId, HouseId] = field(default_factory=dict)
    # Septs standing, per village (R-4.6: at most the profile's septs_per_village each).
    septs: dict[VillageId, int] = field(default_factory=dict)
    # Titles as they stood when the round began (Warden votes, R-7.4).
    round_titles: dict[TitleId, NobleId] = field(default_factory=dict)
    election: Election | None = None
    pending: PendingTitle | None = None
    alliances: tuple[Alliance, ...] = ()  # court life from here
    decree: TurnStep | None = None
    proposal: Proposal | None = None
    # Phase 4 after the council seat sale: each player's purchases in turn order.
    purchase_turns: TurnStep | None = None
    # The Warden holding the fourth seat bought in a sale while on the council.
    fourth_seat: NobleId | None = None
    # The round in which the King last granted a Fief title: at most one a round.
    king_granted_round: int = 0
    septs_banned: bool = False
    rolls: int = 0
    outlaw_round: int = 0
    auction: Auction | None = None
    offers: dict[int, RansomOffer] = field(default_factory=dict)
    next_offer: int = 1
    winners: tuple[Seat, ...] = ()
    ending: Ending | None = None  # how the game ended, once it has (court/model/ending.py)
    # The clocks variant (R-4.3 [D]): each seat's seconds left per step kind once his clock
    # for it has stopped (before, his bank is the profile's), and the clocks running now.
    banks: dict[Seat, dict[str, float]] = field(default_factory=dict)
    running: dict[Seat, RunningClock] = field(default_factory=dict)
    table: TableVotes = field(default_factory=TableVotes)  # decided together (court/model/table.py)
    links: SeatLinks = field(default_factory=SeatLinks)  # the keys' tokens (court/model/links.py)
    devices: DeviceKeys = field(
        default_factory=DeviceKeys
    )  # devices' keys (court/model/devices.py)

    @property
    def ruleset(self) -> Ruleset:
        """The game's rules; only a created game has them."""
        if self.rules is None:
            raise LookupError("the game has not been created")
        return self.rules

    def counting(self) -> tuple[Seat, ...]:
        """The seats whose votes count and make majorities: all but those handed to a new
        player who has not opened his link yet, and those the bot plays (R-9.2)."""
        bots = self.table.bots
        return tuple(s for s, i in sorted(self.seats.items()) if not i.unclaimed and s not in bots)

    def host_seat(self) -> Seat | None:
        """The seat that holds the host role, if the host sits at the table."""
        return next((s.seat for s in self.seats.values() if s.host), None)

    def seat_of_house(self, house: HouseId) -> Seat | None:
        return next((s.seat for s in self.seats.values() if s.house == house), None)

    def turn_order(self, taking_part: Callable[[Seat], object] | None = None) -> tuple[Seat, ...]:
        """Seats from the First Player clockwise (R-1.1), but those `taking_part` refuses."""
        return turns.turn_order(self.seat_order, self.first_player, taking_part)

    def holder(self, title: TitleId) -> Noble | None:
        noble = self.titles.get(title)
        return self.nobles[noble] if noble is not None else None

    def titles_of(self, noble: NobleId) -> tuple[TitleId, ...]:
        return tuple(t for t, n in self.titles.items() if n == noble)

    def alliance_of(self, seat: Seat) -> Alliance | None:
        return next((a for a in self.alliances if seat in a.seats), None)

    def bank(self, seat: Seat, kind: str) -> float:
        """Seconds left in `seat`'s bank for steps of `kind` as his clock last stopped (R-4.3)."""
        own = self.banks.get(seat, {})
        return own[kind] if kind in own else float(self.ruleset.profile.clocks.bank(kind))

    def seat_of_noble(self, noble: NobleId) -> Seat | None:
        return self.seat_of_house(self.nobles[noble].house)

    def couple(self, one: NobleId, other: NobleId) -> tuple[NobleId, NobleId]:
        """Two spouses in the order marriage events and alliances name them: the Lord first
        in a Lord and a Lady, else (R-5.1 with opposite_gender off) by their ids."""
        a, b = self.nobles[one], self.nobles[other]
        if a.gender is not b.gender:
            return (one, other) if a.gender is Gender.LORD else (other, one)
        return (one, other) if one < other else (other, one)
