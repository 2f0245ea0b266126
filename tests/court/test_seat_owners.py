"""R-9.2: a seat's votes and answers belong to the player who cast them. They are dropped when
the seat is handed to a new player, by the host or by the table; a seat whose new player has not
opened his link (and said his name) counts for no vote and no majority; a seat handed on starts
with the profile's full clock banks and its new player's own name."""

from __future__ import annotations

import pytest

from court.commands import (
    Actor,
    AdjustGold,
    AnswerCorrection,
    ClaimSeat,
    CloseOverdueStep,
    HandSeat,
    Pass,
    StartGame,
    VoteForHost,
    VoteToEnd,
)
from court.decide import decide
from court.errors import CourtError
from court.events import (
    ClockStarted,
    ClockStopped,
    CorrectionAnswered,
    EndVoteCast,
    GameEnded,
    GoldAdjusted,
    SeatClaimed,
    SeatHanded,
    TableEndedGame,
)
from court.ids import HouseId, Seat
from court.sentences import describe
from court.soundness.invariants import violations
from court.soundness.settled import unsettled
from court.state import GameStatus
from tests.court.given import HOST, Table, created, joined, seat
from tests.court.single_records import record_of
from tests.court.table_votes_given import (
    AWAY,
    HOST_SEAT,
    LATER,
    NEW,
    START,
    propose,
    replace_vote,
    table,
    version_of,
)

EVE = Actor(seat=Seat(2), token_sha256=NEW)


def hand_to_eve(court: Table, now: float = LATER) -> None:
    """The host hands seat 2 to a new link for Eve."""
    court.act(HandSeat(seat=Seat(2), token_sha256=NEW, player_name="Eve"), HOST, now)


def gold_correction(court: Table) -> None:
    """The host records 5 GD for Stark, then proposes 2 (his seat accepts by proposing)."""
    court.act(AdjustGold(house=HouseId("stark"), amount=5, cause="won a battle"))
    court.act(propose(court, version_of(court, GoldAdjusted), amount=2), HOST_SEAT)


def test_a_hand_over_drops_every_vote_and_answer_the_old_player_cast() -> None:
    """R-9.2: given seat 2's player voted to end the game, to replace seat 3 (gone for the
    profile's time), for a new host and refused the host's correction, when the host hands
    seat 2 to Eve, then none of those is counted any more (nor shown)."""
    court = table(5)
    gold_correction(court)
    court.act(VoteToEnd(), seat(2))
    court.act(AnswerCorrection(accept=False), seat(2))
    court.act(replace_vote(3), seat(2), LATER)
    court.act(VoteForHost(seat=Seat(1), host_away_since=AWAY), seat(2), LATER)

    hand_to_eve(court, LATER + 1)

    votes = court.state.table
    assert Seat(2) not in votes.end
    assert Seat(2) not in votes.refused | votes.accepted
    assert all(Seat(2) not in voters for voters in votes.replace.values())
    assert Seat(2) not in court.state.host_votes


def test_a_replacement_by_the_table_drops_the_replaced_player_s_votes_too() -> None:
    """R-9.2: given seat 2's player voted to end the game and then left, when the other seats
    replace him, then his vote to end is gone with him."""
    court = table(3)
    court.act(VoteToEnd(), seat(2))
    court.act(replace_vote(2), HOST_SEAT, LATER)
    court.act(replace_vote(2), seat(1), LATER + 5)
    assert court.state.table.end == frozenset()


def test_the_new_player_answers_for_himself_once_he_has_opened_his_link() -> None:
    """R-9.2: given seat 2's old player refused the correction and the seat went to Eve, when
    Eve (once she has said her name) accepts it, then her answer is taken, not refused as
    `already_answered`, and the correction is made by the host's seat and hers."""
    court = table(3)
    gold_correction(court)
    court.act(AnswerCorrection(accept=False), seat(2))
    hand_to_eve(court)
    court.act(ClaimSeat(player_name="Eve"), EVE, LATER + 10)

    events = court.act(AnswerCorrection(accept=True), EVE, LATER + 20)

    assert events[0] == CorrectionAnswered(seat=Seat(2), accept=True)
    assert court.state.table.correction is None and court.state.table.made


@pytest.mark.parametrize(
    "command",
    [VoteToEnd(), AnswerCorrection(accept=True), replace_vote(1), VoteForHost(seat=Seat(1))],
)
def test_a_seat_whose_new_player_has_not_opened_his_link_casts_no_vote(command: object) -> None:
    """R-9.2: whoever holds the new link has not said who he is yet: each vote and answer is
    refused (`seat_unclaimed`), with a sentence saying what to do."""
    court = table(3)
    gold_correction(court)
    hand_to_eve(court)
    with pytest.raises(CourtError) as refused:
        decide(court.state, command, EVE, LATER + 700)  # type: ignore[arg-type]
    assert refused.value.code == "seat_unclaimed"
    assert "name" in refused.value.message


def test_majorities_count_only_the_seats_that_count() -> None:
    """R-9.2: given four seats, seat 3 handed to a new player who has not opened his link,
    when seats 0 and 1 vote to end the game, then 2 votes of the 3 seats that count end it,
    and the record says 3 seats."""
    court = table(4)
    court.act(HandSeat(seat=Seat(3), token_sha256=NEW), HOST, LATER)
    court.act(VoteToEnd(), seat(1))
    events = court.act(VoteToEnd(), HOST_SEAT)
    assert TableEndedGame(votes=2, seats=3, voters=(Seat(0), Seat(1))) in events
    assert court.state.status is GameStatus.ENDED


def test_a_hand_over_that_leaves_a_majority_decides_at_once() -> None:
    """R-9.2: given four seats of which seats 0 and 1 voted to end the game (2 of 4: no
    majority), when the host hands seat 3 to a new link, then the 2 votes are a majority of
    the 3 seats that count and the game ends with the hand-over."""
    court = table(4)
    court.act(VoteToEnd(), seat(1))
    court.act(VoteToEnd(), HOST_SEAT)
    assert court.state.status is GameStatus.PLAYING
    events = court.act(HandSeat(seat=Seat(3), token_sha256=NEW), HOST, LATER)
    assert isinstance(events[0], SeatHanded)
    assert TableEndedGame(votes=2, seats=3, voters=(Seat(0), Seat(1))) in events
    assert isinstance(events[-1], GameEnded)


def test_the_new_player_says_his_own_name_when_he_opens_his_link() -> None:
    """R-9.2: given seat 2 replaced by the table (it keeps the old name until then), when the
    new player opens his link and says he is Eve, then the seat is hers by name and counts
    again; the history tells it; a second claim is refused, and so is a name that cannot be
    stored."""
    court = table(3)
    court.act(replace_vote(2), HOST_SEAT, LATER)
    court.act(replace_vote(2), seat(1), LATER + 5)
    assert court.state.seats[Seat(2)].unclaimed
    with pytest.raises(CourtError) as blank:
        decide(court.state, ClaimSeat(player_name="   "), EVE, LATER + 9)
    assert blank.value.code == "bad_name"

    events = court.act(ClaimSeat(player_name="  Eve "), EVE, LATER + 10)

    assert events == (
        SeatClaimed(
            seat=Seat(2), house=HouseId("tyrell"), old_player_name="Player 3", player_name="Eve"
        ),
    )
    info = court.state.seats[Seat(2)]
    assert info.player_name == "Eve" and not info.unclaimed
    said = describe(record_of(events[0]), court.state)
    assert "Eve" in said and "Player 3" in said, said
    with pytest.raises(CourtError) as again:
        decide(court.state, ClaimSeat(player_name="Mallory"), EVE, LATER + 20)
    assert again.value.code == "seat_claimed"
    assert [type(e) for e in court.act(VoteToEnd(), EVE, LATER + 30)] == [EndVoteCast]


def test_a_seat_never_handed_needs_no_claim() -> None:
    court = table(3)
    with pytest.raises(CourtError) as refused:
        decide(court.state, ClaimSeat(player_name="Bob"), seat(1))
    assert refused.value.code == "seat_claimed"


def clocked_table() -> Table:
    """Three seats of the clocks variant, 300 s of decree bank each, started at START."""
    court = Table(
        created(3, variants__clocks=True, clocks__decree=300, table_votes__replace_after=600),
        joined(0, host=True),
        joined(1),
        joined(2),
    )
    court.act(StartGame(), HOST, START)
    return court


def test_a_seat_handed_to_a_new_player_starts_with_the_profile_s_full_banks() -> None:
    """R-9.2 (R-4.3 clocks): given seat 2's old player let his decree bank run out (he would be
    timed out at once in every later decree step), when the host hands the seat on, then the
    new player has the profile's 300 seconds, not nothing."""
    court = clocked_table()
    court.act(Pass(), HOST_SEAT, START + 10)
    court.act(Pass(), seat(1), START + 20)
    court.act(CloseOverdueStep(), HOST, START + 20 + 300)  # seat 2's bank runs out
    assert court.state.bank(Seat(2), "decree") == 0

    court.act(HandSeat(seat=Seat(2), token_sha256=NEW), HOST, START + 400)

    assert court.state.bank(Seat(2), "decree") == 300
    assert violations(court.state) == [] and unsettled(court.state) == []


def test_a_clock_running_at_the_hand_over_starts_again_on_a_full_bank() -> None:
    """R-9.2 (R-4.3 clocks): given seat 2's decree clock running for 250 of his 300 seconds,
    when the host hands the seat on, then that clock stops at the hand-over and starts again
    on a full bank, so the step is not overdue until 300 seconds after the hand-over."""
    court = clocked_table()
    court.act(Pass(), HOST_SEAT, START + 10)
    court.act(Pass(), seat(1), START + 20)
    handed_at = START + 20 + 250
    first = len(court.events) + 1
    hand = HandSeat(seat=Seat(2), token_sha256=NEW, at_version=first)

    events = court.act(hand, HOST, handed_at)

    assert events[0] == ClockStopped(seat=Seat(2), kind="decree", at=handed_at)
    assert events[-1] == ClockStarted(seat=Seat(2), kind="decree", at=handed_at)
    # The hand-over records its own version, after the clock's stop.
    assert isinstance(events[1], SeatHanded) and events[1].at_version == first + 1
    assert court.events[first] == events[1]
    assert court.state.bank(Seat(2), "decree") == 300
    assert violations(court.state) == [] and unsettled(court.state) == []
    with pytest.raises(CourtError) as early:
        decide(court.state, CloseOverdueStep(), HOST, handed_at + 299)
    assert early.value.code == "not_overdue"


def test_the_history_never_names_a_new_player_for_his_predecessor_s_vote() -> None:
    """R-9.2: given seat 2's old player voted to end the game before his seat went to Eve,
    when seats 0 and 1 end it, then the record names those two as the voters, not Eve, who
    never voted; the history says so."""
    court = table(3)
    court.act(VoteToEnd(), seat(2))
    hand_to_eve(court)
    court.act(ClaimSeat(player_name="Eve"), EVE, LATER + 10)
    court.act(VoteToEnd(), seat(1))
    events = court.act(VoteToEnd(), HOST_SEAT)
    ended = next(e for e in events if isinstance(e, TableEndedGame))
    assert ended.voters == (Seat(0), Seat(1)) and ended.seats == 3
    said = describe(record_of(ended), court.state)
    assert "Eve" not in said and "Player 2" in said, said
