"""Purchases at court in phase 4: Septs, Fief titles, and the sealed-bid sale of the fourth
Small Council seat (R-2.1, R-3.2, R-3.5, R-3.6, R-4.3, R-4.6, R-6.2)."""

from __future__ import annotations

import hashlib
from dataclasses import replace

import pytest

from court.commands import (
    AdvancePhase,
    BuildSept,
    BuyFiefTitle,
    ChooseCouncilSeat,
    CloseOverdueStep,
    PassBid,
    PlaceBid,
    RecordDeath,
)
from court.decide import decide
from court.errors import CourtError
from court.events import EVENT_TYPES, GoldPaid, TitleGranted, TitleSlotsExceeded
from court.events.purchases import (
    AuctionOpened,
    AuctionSkipped,
    BidPlaced,
    BidsRevealed,
    BidsTimedOut,
    CouncilSeatLapsed,
    CouncilSeatTaken,
    CouncilSeatVacated,
    PurchaseTurnsOpened,
    RansomOffered,
    RansomPaid,
    SeptBuilt,
)
from court.ids import NobleId, TitleId, VillageId
from court.log import codec
from court.state import CourtState, NobleStatus, PendingKind, Phase
from tests.court.given import given, seat, started, then_state, when
from tests.court.moments import act, control, grant, next_round, noble
from tests.court.purchase_moments import WINTERFELL, sale, to_purchases, wardens, with_gold

MASTERS = ("master-of-coin", "master-of-laws", "master-of-ships", "master-of-whisperers")


def stark_holds(*villages: str) -> CourtState:
    """Round 1 of a 3-player game (Stark 0, Lannister 1, Tyrell 2) in the cards phase."""
    return control(given(*started(3)), villages, "stark")


def bid(amount: int, salt: str = "salt") -> PlaceBid:
    return PlaceBid(amount=amount, salt=salt)


# -- Septs --------------------------------------------------------------------------------


def test_a_house_builds_a_sept_in_a_village_it_controls_in_phase_four() -> None:
    """R-4.6: a Sept for 4 GD; R-2.1: the House pays it to the bank."""
    state = to_purchases(stark_holds("winterfell"))
    gold = state.treasury["stark"]
    events = when(state, BuildSept(village=VillageId("winterfell")), seat(0))
    assert events[:2] == (
        GoldPaid(house="stark", to_house=None, amount=4, cause="Sept at Winterfell"),
        SeptBuilt(village=VillageId("winterfell"), house="stark"),
    )
    state = then_state(state, events)
    assert state.septs == {"winterfell": 1}
    assert state.treasury["stark"] == gold - 4


def test_a_sept_is_refused_outside_the_purchases_phase() -> None:
    """R-4.6: Septs are bought in phase 4 only."""
    state = stark_holds("winterfell")
    assert state.phase is Phase.CARDS
    with pytest.raises(CourtError) as err:
        when(state, BuildSept(village=VillageId("winterfell")), seat(0))
    assert err.value.code == "wrong_phase"


def test_a_sept_is_refused_in_a_village_the_house_does_not_control() -> None:
    """R-4.6: only in a village the House controls."""
    state = to_purchases(control(stark_holds("winterfell"), ["casterly-rock"], "lannister"))
    for village in ("casterly-rock", "the-eyrie"):
        with pytest.raises(CourtError) as err:
            when(state, BuildSept(village=VillageId(village)), seat(0))
        assert err.value.code == "not_your_village"


def test_a_village_holds_at_most_one_sept() -> None:
    """R-4.6 [D] septs_per_village = 1."""
    state = to_purchases(stark_holds("winterfell", "white-harbor"))
    state = act(state, BuildSept(village="winterfell"), seat(0))
    with pytest.raises(CourtError) as err:
        when(state, BuildSept(village=VillageId("winterfell")), seat(0))
    assert err.value.code == "sept_exists"


def test_no_sept_is_built_after_the_false_idols_were_destroyed() -> None:
    """R-6.2: no Sept can be built for the rest of the game."""
    state = replace(to_purchases(stark_holds("winterfell")), septs_banned=True)
    with pytest.raises(CourtError) as err:
        when(state, BuildSept(village=VillageId("winterfell")), seat(0))
    assert err.value.code == "septs_banned"


def test_a_sept_the_house_cannot_afford_is_refused() -> None:
    """R-2.1: a treasury never goes below zero."""
    state = with_gold(to_purchases(stark_holds("winterfell")), "stark", 3)
    with pytest.raises(CourtError) as err:
        when(state, BuildSept(village=VillageId("winterfell")), seat(0))
    assert err.value.code == "treasury_too_low"
    state = with_gold(state, "stark", 4)
    assert (
        then_state(state, when(state, BuildSept(village="winterfell"), seat(0))).treasury["stark"]
        == 0
    )


def test_a_sept_adds_to_the_income_of_the_next_round() -> None:
    """R-2.2, R-4.5: income per controlled village and per Sept."""
    state = act(to_purchases(stark_holds("winterfell")), BuildSept(village="winterfell"), seat(0))
    state = replace(state, phase=Phase.CARDS)
    gold = state.treasury["stark"]
    assert to_purchases(state).treasury["stark"] == gold + 2


# -- Fief titles --------------------------------------------------------------------------


def test_a_house_holding_every_village_of_a_fiefdom_buys_its_fief_title() -> None:
    """R-3.6: the profile's price (8 GD) for a Noble of the House that holds the Fiefdom."""
    state = to_purchases(stark_holds(*WINTERFELL))
    gold = state.treasury["stark"]
    events = when(
        state, BuyFiefTitle(title=TitleId("fief-winterfell"), noble=NobleId("robb-stark")), seat(0)
    )
    assert events[0] == GoldPaid(
        house="stark", to_house=None, amount=8, cause="Lord of Winterfell bought"
    )
    assert events[1] == TitleGranted(
        title=TitleId("fief-winterfell"), noble=NobleId("robb-stark"), cause="bought (R-3.6)"
    )
    state = then_state(state, events)
    assert state.titles["fief-winterfell"] == "robb-stark"
    assert state.treasury["stark"] == gold - 8


def test_a_fief_title_is_refused_without_every_village_of_the_fiefdom() -> None:
    """R-3.6: the House controls every village of that Fiefdom."""
    state = to_purchases(stark_holds(*WINTERFELL[:3]))
    with pytest.raises(CourtError) as err:
        when(state, BuyFiefTitle(title="fief-winterfell", noble="robb-stark"), seat(0))
    assert err.value.code == "fiefdom_not_held"
    assert "Moat Cailin" in err.value.message


@pytest.mark.parametrize(
    ("title", "lord", "gold", "code"),
    [
        ("fief-winterfell", "robb-stark", 7, "treasury_too_low"),
        ("fief-winterfell", "jaime-lannister", 20, "not_your_noble"),
        ("warden-north", "robb-stark", 20, "not_a_fief_title"),
        ("fief-pyke", "robb-stark", 20, "title_taken"),
        ("fief-winterfell", "rickon-stark", 20, "unknown_noble"),
    ],
)
def test_a_fief_title_purchase_the_rules_forbid_is_refused(title, lord, gold, code) -> None:
    """R-3.6, R-2.1: a free Fief title, for one of your own Nobles, paid in full."""
    state = grant(stark_holds(*WINTERFELL), "fief-pyke", "tywin-lannister")
    state = with_gold(to_purchases(state), "stark", gold)
    with pytest.raises(CourtError) as err:
        when(state, BuyFiefTitle(title=TitleId(title), noble=NobleId(lord)), seat(0))
    assert err.value.code == code


def test_a_captive_or_outlaw_cannot_be_bought_a_fief_title() -> None:
    """R-3.6 with R-3.2: the Noble must be in play and able to hold the title."""
    state = to_purchases(stark_holds(*WINTERFELL))
    for changes in ({"status": NobleStatus.CAPTIVE, "captor": "lannister"}, {"outlaw": True}):
        with pytest.raises(CourtError) as err:
            when(
                noble(state, "robb-stark", **changes),
                BuyFiefTitle(title="fief-winterfell", noble="robb-stark"),
                seat(0),
            )
        assert err.value.code == "cannot_hold"


def test_a_third_fief_title_bought_makes_the_game_wait_for_the_slot_choice() -> None:
    """R-3.2: at most 2 Fief titles; the player passes or returns one."""
    state = stark_holds(*WINTERFELL)
    state = grant(grant(state, "fief-pyke", "robb-stark"), "fief-riverrun", "robb-stark")
    state = to_purchases(state)
    events = when(state, BuyFiefTitle(title="fief-winterfell", noble="robb-stark"), seat(0))
    assert isinstance(events[-2], TitleSlotsExceeded)  # the choice waits before the title
    state = then_state(state, events)
    assert state.pending is not None and state.pending.kind is PendingKind.OVERFLOW


# -- the fourth council seat: opening ---------------------------------------------------


def test_the_sale_opens_for_players_with_a_warden_off_the_council_in_turn_order() -> None:
    """R-4.6: the seat goes to the highest bidder among players who have a Warden not on the
    council; a free Master title is needed for it (R-3.5)."""
    state = wardens(
        given(*started(3, first=1)),
        ("warden-north", "robb-stark"),
        ("warden-south", "loras-tyrell"),
    )
    events = when(state, AdvancePhase())
    opened = events[-1]
    assert isinstance(opened, AuctionOpened)
    assert opened.order == (2, 0)  # turn order from the First Player, Lannister has no Warden
    state = then_state(state, events)
    assert state.auction is not None and state.auction.waiting == (2, 0)


@pytest.mark.parametrize(
    ("setup", "reason"),
    [
        ((), "no player has a Warden"),
        ((("warden-north", "robb-stark"), ("master-of-coin", "robb-stark")), "no player has"),
        ((("warden-north", "robb-stark"), ("hand", "robb-stark")), "no player has"),
        (
            (("warden-north", "robb-stark"), *((m, "tywin-lannister") for m in MASTERS)),
            "no Master title is free",
        ),
    ],
    ids=["no-warden", "warden-is-a-master", "warden-is-hand", "no-free-master"],
)
def test_no_sale_without_a_free_master_title_and_an_eligible_warden(setup, reason) -> None:
    """R-4.6, R-3.5: skipped, with the reason recorded."""
    state = wardens(given(*started(3)), *setup)
    events = when(state, AdvancePhase())
    skipped = next(e for e in events if isinstance(e, AuctionSkipped))
    assert reason in skipped.reason
    assert isinstance(events[events.index(skipped) + 1], PurchaseTurnsOpened)


def test_a_captive_or_outlaw_warden_gives_no_place_in_the_sale() -> None:
    """R-4.6: a Warden in play and no Outlaw."""
    state = wardens(given(*started(3)), ("warden-north", "robb-stark"))
    for changes in ({"status": NobleStatus.CAPTIVE, "captor": "lannister"}, {"outlaw": True}):
        events = when(noble(state, "robb-stark", **changes), AdvancePhase())
        assert any(isinstance(e, AuctionSkipped) for e in events)


# -- the fourth council seat: bids -------------------------------------------------------


def test_a_bid_above_the_treasury_is_refused() -> None:
    """R-2.1: a House cannot bid gold it does not hold."""
    state = sale()
    with pytest.raises(CourtError) as err:
        when(state, bid(state.treasury["stark"] + 1), seat(0))
    assert err.value.code == "treasury_too_low"


@pytest.mark.parametrize(
    ("actor", "command", "code"),
    [
        (2, bid(1), "not_in_this_step"),
        (2, PassBid(), "not_in_this_step"),
        (0, bid(-1), "bad_amount"),
    ],
)
def test_only_players_in_the_sale_bid_and_bids_are_whole_gold(actor, command, code) -> None:
    """R-4.6: only players with a Warden off the council bid."""
    with pytest.raises(CourtError) as err:
        when(sale(), command, seat(actor))
    assert err.value.code == code


def test_a_player_bids_or_passes_once() -> None:
    """R-4.6 [D]: one sealed bid each."""
    state = act(sale(), bid(3), seat(0))
    for command in (bid(4), PassBid()):
        with pytest.raises(CourtError) as err:
            when(state, command, seat(0))
        assert err.value.code == "already_acted"


def test_bids_stay_secret_until_the_reveal() -> None:
    """R-4.6 [D] sealed bids, section 10: the public part of BidPlaced holds a commitment, not
    the amount; the amount and salt travel in the bidder's private part."""
    state = sale()
    (placed,) = when(state, bid(7, "pepper"), seat(0))
    assert isinstance(placed, BidPlaced)
    name, public, private = codec.encode(placed)
    assert name == "BidPlaced"
    assert public == {"seat": 0, "commitment": placed.commitment}
    assert private == {"secret": {"amount": 7, "salt": "pepper"}}
    assert placed.commitment == hashlib.sha256(b"bid:7:pepper").hexdigest()
    # replayed without its private part (what another seat receives) the amount is unknown
    withheld = codec.decode(name, 1, public, None)
    assert then_state(state, (withheld,)).auction.bids[0].secret_amount is None  # type: ignore[union-attr]


def test_the_highest_bid_wins_pays_and_seats_a_warden_with_a_free_master_title() -> None:
    """R-4.6: the highest bidder pays at the reveal, the bank holding the price until his
    Warden takes the seat; R-3.5: his player picks one of his Wardens and one free Master
    title."""
    state = act(sale(), bid(3, "a"), seat(0))
    gold = state.treasury["lannister"]
    events = when(state, bid(5, "b"), seat(1))
    revealed, paid = events[1], events[2]
    assert isinstance(revealed, BidsRevealed)
    assert revealed.winner == 1 and revealed.reason == "highest_bid"
    assert [(b.seat, b.amount, b.salt) for b in revealed.bids] == [
        (0, 3, "a"),
        (1, 5, "b"),
    ]
    for b in revealed.bids:
        assert hashlib.sha256(f"bid:{b.amount}:{b.salt}".encode()).hexdigest() == (b.commitment)
    assert paid == GoldPaid(
        house="lannister",
        to_house=None,
        amount=5,
        cause="the fourth Small Council seat (R-4.6)",
        held=True,
    )
    state = then_state(state, events)
    assert state.treasury["lannister"] == gold - 5 and state.treasury["stark"] == 10
    assert state.ledger.held == {"lannister": 5}
    assert state.auction is not None and state.auction.winner == 1
    with pytest.raises(CourtError) as err:
        when(state, AdvancePhase())
    assert err.value.code == "server_phase"
    with pytest.raises(CourtError) as err:
        when(state, ChooseCouncilSeat(noble="robb-stark", title="master-of-coin"), seat(0))
    assert err.value.code == "not_your_choice"
    events = when(
        state, ChooseCouncilSeat(noble="jaime-lannister", title="master-of-laws"), seat(1)
    )
    assert events[0] == CouncilSeatTaken(seat=1, noble="jaime-lannister", title="master-of-laws")
    assert any(isinstance(e, PurchaseTurnsOpened) for e in events)  # purchases follow
    state = then_state(state, events)
    assert state.titles["master-of-laws"] == "jaime-lannister"
    assert state.auction is None and state.fourth_seat == "jaime-lannister"
    assert state.ledger.held == {} and state.treasury["lannister"] == gold - 5


@pytest.mark.parametrize(
    ("lord", "title", "code"),
    [
        ("tywin-lannister", "master-of-coin", "not_a_warden"),
        ("robb-stark", "master-of-coin", "not_a_warden"),
        ("jaime-lannister", "hand", "not_a_free_master"),
        ("jaime-lannister", "master-of-ships", "not_a_free_master"),
    ],
)
def test_the_buyer_must_choose_his_own_warden_and_a_free_master_title(lord, title, code) -> None:
    """R-3.5: only a Warden joins, with a free Master title."""
    state = grant(sale(), "master-of-ships", "loras-tyrell")
    state = act(act(state, PassBid(), seat(0)), bid(2), seat(1))
    with pytest.raises(CourtError) as err:
        when(state, ChooseCouncilSeat(noble=NobleId(lord), title=TitleId(title)), seat(1))
    assert err.value.code == code


def test_a_tie_for_the_highest_bid_sells_nothing() -> None:
    """R-4.6 [D]: ties, no sale; nobody pays."""
    state = act(sale(), bid(4, "a"), seat(0))
    events = when(state, bid(4, "b"), seat(1))
    revealed = next(e for e in events if isinstance(e, BidsRevealed))
    assert revealed.winner is None and revealed.reason == "tie"
    assert not any(isinstance(e, GoldPaid) for e in events)
    state = then_state(state, events)
    assert state.auction is None and state.treasury == {
        "stark": 10,
        "lannister": 10,
        "tyrell": 10,
    }


def test_no_positive_bid_sells_nothing() -> None:
    """R-4.6 [D]: a bid of 0 or a pass buys nothing."""
    state = act(sale(), bid(0), seat(0))
    events = when(state, PassBid(), seat(1))
    revealed = next(e for e in events if isinstance(e, BidsRevealed))
    assert revealed.winner is None and revealed.reason == "no_bid"


def test_a_bid_the_house_can_no_longer_pay_at_the_reveal_is_void() -> None:
    """R-2.1: Stark's 9 is void after he paid a ransom; Lannister's 2 wins."""
    state = control(given(*started(3)), ["winterfell"], "stark")
    state = wardens(state, ("warden-north", "robb-stark"), ("warden-west", "jaime-lannister"))
    state = act(to_purchases(state), bid(9), seat(0))
    state = with_gold(state, "stark", 5)
    events = when(state, bid(2), seat(1))
    revealed = events[1]
    assert isinstance(revealed, BidsRevealed)
    assert [b.void for b in revealed.bids] == [True, False]
    assert revealed.winner == 1


def test_the_sale_closes_at_its_deadline_with_the_missing_recorded_as_passing() -> None:
    """R-4.3: who has not bid has passed; the bids are then revealed."""
    state = sale(now=100.0, purchase=60)
    assert state.auction is not None and state.auction.deadline == 160.0
    state = then_state(state, decide(state, bid(1), seat(1), 110.0))
    with pytest.raises(CourtError) as err:
        decide(state, CloseOverdueStep(), seat(2), 159.0)
    assert err.value.code == "not_overdue"
    events = decide(state, CloseOverdueStep(), seat(2), 160.0)
    assert events[0] == BidsTimedOut(passed=(0,))
    assert isinstance(events[1], BidsRevealed) and events[1].winner == 1


def test_a_buyer_who_does_not_choose_before_the_deadline_loses_the_seat_and_is_refunded() -> None:
    """R-4.3 with R-3.5, R-4.6: the choice closes at its deadline; the price is refunded in
    the event that records the lapse."""
    state = sale(now=0.0, title_choice=30)
    state = then_state(state, decide(state, PassBid(), seat(0), 1.0))
    state = then_state(state, decide(state, bid(3), seat(1), 2.0))
    assert state.auction is not None and state.auction.deadline == 32.0
    assert state.treasury["lannister"] == 7
    events = decide(state, CloseOverdueStep(), seat(0), 40.0)
    assert events[0] == CouncilSeatLapsed(seat=1, reason="no choice before the deadline", refund=3)
    state = then_state(state, events)
    assert state.auction is None and state.treasury["lannister"] == 10
    assert not any(t in state.titles for t in MASTERS)


def test_the_seat_bought_lapses_when_the_buyer_has_no_warden_left() -> None:
    """R-3.5: only a Warden joins; when the buyer's Warden dies first the seat is not taken."""
    state = act(act(sale(), PassBid(), seat(0)), bid(3), seat(1))
    events = when(state, RecordDeath(noble="jaime-lannister", kind="battle", cause="Riverrun"))
    lapsed = next(e for e in events if isinstance(e, CouncilSeatLapsed))
    assert lapsed.seat == 1
    state = then_state(state, events)
    assert state.auction is None and state.fourth_seat is None


def test_every_phase_four_holds_its_own_sale() -> None:
    """R-4.6: once closed, the sale does not reopen in the same phase; the next round's
    phase 4 opens a new one."""
    state = act(act(sale(), PassBid(), seat(0)), PassBid(), seat(1))
    assert state.auction is None and state.phase is Phase.MOVEMENT  # nobody had more to buy
    state = next_round(state)
    assert state.round == 2
    while state.phase is not Phase.CARDS:
        state = act(state, AdvancePhase())
    events = when(state, AdvancePhase())
    assert isinstance(events[-1], AuctionOpened)


def test_the_fourth_seat_is_sold_once_and_again_only_when_its_warden_leaves_the_council() -> None:
    """R-4.6 [D]: there is one fourth seat, offered only while nobody holds it; its buyer's
    Warden holds it until he leaves the Small Council."""
    # Given Lannister bought the fourth seat for Jaime, Master of Laws
    state = act(act(sale(), PassBid(), seat(0)), bid(3), seat(1))
    state = act(state, ChooseCouncilSeat(noble="jaime-lannister", title="master-of-laws"), seat(1))
    state = next_round(state)
    while state.phase is not Phase.CARDS:
        state = act(state, AdvancePhase())
    # When the next phase 4 begins, Then no sale opens while Jaime sits on the council
    events = when(state, AdvancePhase())
    skipped = next(e for e in events if isinstance(e, AuctionSkipped))
    assert "holds the fourth council seat" in skipped.reason
    # When Jaime dies, Then the seat is vacated and the next phase 4 sells it again
    events = when(state, RecordDeath(noble="jaime-lannister", kind="battle", cause="war"))
    assert any(isinstance(e, CouncilSeatVacated) for e in events)
    state = then_state(state, events)
    assert state.fourth_seat is None
    state = grant(state, "warden-west", "tywin-lannister")
    assert any(isinstance(e, AuctionOpened) for e in when(state, AdvancePhase()))


def test_every_purchase_and_ransom_event_survives_encoding_and_decoding() -> None:
    """Section 10: the log is the truth; each event reads back as it was written."""
    state = act(act(sale(), bid(3, "a"), seat(0)), bid(5, "b"), seat(1))
    events = (
        *when(state, ChooseCouncilSeat(noble="jaime-lannister", title="master-of-laws"), seat(1)),
        RansomOffered(offer=1, seat=0, to_seat=1, captive="robb-stark", gold=2, captives=("x",)),
        RansomPaid(
            offer=1,
            house="stark",
            to_house="lannister",
            captive="robb-stark",
            gold=2,
            captives=("x",),
        ),
    )
    placed = when(sale(), bid(4, "c"), seat(0))
    revealed = when(act(sale(), bid(4, "c"), seat(0)), bid(2, "d"), seat(1))
    for event in (*events, *placed, *revealed):
        name, data, private = codec.encode(event)
        assert codec.decode(name, EVENT_TYPES[name][1], data, private) == event
