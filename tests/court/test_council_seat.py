"""The fourth Small Council seat never takes gold for nothing (R-4.6, R-2.1, R-3.5): the buyer
pays at the reveal, and a seat that lapses before his Warden takes it is refunded in the event
that records the lapse; bids of players with no Warden left to seat are dropped before the
bids are ranked. Each command here is decided with the court's invariants checked after every
event, as the service checks them before it stores anything."""

from __future__ import annotations

import pytest

from court.commands import (
    Actor,
    Command,
    JoinSmallCouncil,
    PassBid,
    PlaceBid,
    RecordCapture,
    RecordDeath,
    VoteToEnd,
)
from court.decide import decide_folded
from court.events import Event, GameEnded, GoldPaid, TableEndedGame
from court.events.purchases import BidsRevealed, CouncilSeatLapsed
from court.evolve import evolve
from court.soundness.invariants import require_sound, violations
from court.state import CourtState, GameStatus
from tests.court.given import HOST, seat
from tests.court.purchase_moments import three_wardens_two_free_masters


def sound(
    state: CourtState, command: Command, actor: Actor = HOST
) -> tuple[tuple[Event, ...], CourtState]:
    """The command's events and the court they lead to, every state on the way sound."""
    return decide_folded(state, command, actor, 0.0, check=require_sound)


def stark_bought_for(price: int) -> CourtState:
    state = three_wardens_two_free_masters()
    _, state = sound(state, PlaceBid(amount=price, salt="s"), seat(0))
    _, state = sound(state, PassBid(), seat(1))
    events, state = sound(state, PassBid(), seat(2))
    assert any(isinstance(e, BidsRevealed) and e.winner == 0 for e in events)
    assert state.treasury["stark"] == 10 - price and state.ledger.held == {"stark": price}
    return state


def test_a_seat_whose_free_masters_are_filled_by_join_the_small_council_is_refunded() -> None:
    """R-4.6 [D], R-3.5: Stark pays 3 at the reveal; before he seats his Warden the host
    records two Join the Small Council events that fill both free Masters; the seat lapses
    and the 3 GD come back in the event that records the lapse."""
    state = stark_bought_for(3)
    cause = "the table"
    _, state = sound(
        state, JoinSmallCouncil(noble="jaime-lannister", title="master-of-coin", cause=cause)
    )
    assert state.auction is not None and state.auction.winner == 0  # one Master is still free
    events, state = sound(
        state, JoinSmallCouncil(noble="mace-tyrell", title="master-of-laws", cause=cause)
    )
    lapsed = [e for e in events if isinstance(e, CouncilSeatLapsed)]
    assert lapsed == [
        CouncilSeatLapsed(seat=0, reason="no Master title is free any more", refund=3)
    ]
    assert state.treasury["stark"] == 10 and state.ledger.held == {}
    assert state.auction is None and state.fourth_seat is None


@pytest.mark.parametrize(
    "fact",
    [
        RecordDeath(noble="robb-stark", kind="battle", cause="the Twins"),
        RecordCapture(noble="robb-stark", house="lannister", cause="the Whispering Wood"),
    ],
    ids=["his-warden-dies", "his-warden-is-captured"],
)
def test_a_seat_whose_buyer_has_no_warden_left_is_refunded(fact: Command) -> None:
    """R-4.6 [D]: every Warden of the buyer died or was captured before he chose: the seat
    lapses and the price comes back in the same event."""
    state = stark_bought_for(4)
    events, state = sound(state, fact)
    assert [e for e in events if isinstance(e, CouncilSeatLapsed)] == [
        CouncilSeatLapsed(seat=0, reason="he has no Warden left to seat", refund=4)
    ]
    assert state.treasury["stark"] == 10 and state.ledger.held == {}


def test_a_top_bidder_who_lost_his_only_warden_is_dropped_and_the_next_bid_buys() -> None:
    """R-4.6 [D]: Stark bids 5, his only Warden dies, Lannister bids 3: Stark's bid is dropped
    before ranking and Lannister buys for 3; Stark pays nothing."""
    state = three_wardens_two_free_masters()
    _, state = sound(state, PlaceBid(amount=5, salt="s"), seat(0))
    _, state = sound(state, RecordDeath(noble="robb-stark", kind="battle", cause="the Twins"))
    _, state = sound(state, PlaceBid(amount=3, salt="t"), seat(1))
    events, state = sound(state, PassBid(), seat(2))
    revealed = next(e for e in events if isinstance(e, BidsRevealed))
    assert [(b.seat, b.amount, b.no_warden) for b in revealed.bids] == [
        (0, 5, True),
        (1, 3, False),
    ]
    assert (revealed.winner, revealed.reason) == (1, "highest_bid")
    assert [e for e in events if isinstance(e, GoldPaid)] == [
        GoldPaid(
            house="lannister",
            to_house=None,
            amount=3,
            cause="the fourth Small Council seat (R-4.6)",
            held=True,
        )
    ]
    assert state.treasury == {"stark": 10, "lannister": 7, "tyrell": 10}


def test_a_tie_at_the_top_of_the_remaining_bids_sells_nothing() -> None:
    """R-4.6 [D]: once Stark's bid is dropped, Lannister and Tyrell tie at 3: no sale."""
    state = three_wardens_two_free_masters()
    _, state = sound(state, PlaceBid(amount=5, salt="s"), seat(0))
    _, state = sound(state, RecordDeath(noble="robb-stark", kind="battle", cause="the Twins"))
    _, state = sound(state, PlaceBid(amount=3, salt="t"), seat(1))
    events, state = sound(state, PlaceBid(amount=3, salt="u"), seat(2))
    revealed = next(e for e in events if isinstance(e, BidsRevealed))
    assert (revealed.winner, revealed.reason) == (None, "tie")
    assert not any(isinstance(e, GoldPaid) for e in events)
    assert state.treasury == {"stark": 10, "lannister": 10, "tyrell": 10}


def test_when_no_bidder_has_a_warden_left_nothing_is_sold() -> None:
    """R-4.6 [D]: every bid dropped: nothing sold, nobody pays."""
    state = three_wardens_two_free_masters()
    _, state = sound(state, PlaceBid(amount=5, salt="s"), seat(0))
    _, state = sound(state, RecordDeath(noble="robb-stark", kind="battle", cause="the Twins"))
    _, state = sound(state, PassBid(), seat(1))
    events, state = sound(state, PassBid(), seat(2))
    revealed = next(e for e in events if isinstance(e, BidsRevealed))
    assert (revealed.winner, revealed.reason) == (None, "no_warden")
    assert state.treasury["stark"] == 10


def test_a_lapse_that_keeps_the_price_is_refused_by_the_invariants() -> None:
    """R-2.1, R-4.6: every Gold Dragon is accounted for; a lapse that refunds less than the
    price the bank holds leaves Dragons that neither bought anything nor came back."""
    state = stark_bought_for(3)
    for refund in (0, 2, 4):
        kept = evolve(state, CouncilSeatLapsed(seat=0, reason="lapsed", refund=refund))
        assert any("R-2.1" in v for v in violations(kept)), refund
    refunded = evolve(state, CouncilSeatLapsed(seat=0, reason="lapsed", refund=3))
    assert violations(refunded) == []


def test_a_game_the_table_ends_refunds_the_price_of_a_seat_not_yet_taken() -> None:
    """R-4.6, R-9.2: Stark paid 5 for the fourth seat; before he seats his Warden a majority
    of the seats ends the game: the seat lapses with its price refunded right beside the end,
    and the ended game holds no price for anything (25 stays 25)."""
    state = stark_bought_for(5)
    before = sum(state.treasury.values()) + sum(state.ledger.held.values())
    _, state = sound(state, VoteToEnd(), seat(1))
    events, state = sound(state, VoteToEnd(), seat(2))
    kinds = [type(e) for e in events]
    assert kinds[kinds.index(CouncilSeatLapsed) + 1 :] == [TableEndedGame, GameEnded]
    lapsed = next(e for e in events if isinstance(e, CouncilSeatLapsed))
    assert (lapsed.seat, lapsed.refund) == (0, 5)
    assert state.status is GameStatus.ENDED
    assert state.treasury["stark"] == 10 and state.ledger.held == {}
    assert sum(state.treasury.values()) == before


def test_an_ended_game_still_holding_a_price_is_refused_by_the_invariants() -> None:
    """R-4.6, R-9.2: the game's end with the bank still holding Stark's price for a seat he
    never took breaks the invariants, whoever ended it."""
    state = stark_bought_for(5)
    ended = evolve(state, GameEnded(winners=(), points=(), reason="ended", how="table"))
    assert any("R-4.6" in v for v in violations(ended))
