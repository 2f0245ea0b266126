"""The table decides together (docs/rules-map.md, "The table decides together"): the other seats
replace a player gone for the profile's time, a majority of the seats ends the game without
winners (R-4.7), and the seats accept or refuse the host's correction of a recorded fact,
which takes effect as a compensating event (section 9, R-1.4, R-2.1, R-5.4)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from court.commands import (
    AcceptTitle,
    Actor,
    AdjustGold,
    AnswerCorrection,
    HandSeat,
    Pass,
    RecordDeath,
    RecordVillageControl,
    RefuseTitle,
    ResolveTitleOverflow,
    VoteToEnd,
    VoteToReplace,
    WithdrawCorrection,
)
from court.decide import decide
from court.errors import CourtError
from court.events import (
    CorrectionAnswered,
    CorrectionMade,
    CorrectionProposed,
    CorrectionRefused,
    EndVoteCast,
    GameEnded,
    GoldAdjusted,
    NobleRestored,
    ReplaceVoteCast,
    SeatHanded,
    SeatReplaced,
    TableEndedGame,
    TitleGranted,
    VillageControlChanged,
)
from court.ids import HouseId, NobleId, Seat, TitleId, VillageId
from court.model.tokens import actor_of
from court.sentences import describe
from court.state import GameStatus, NobleStatus, PendingKind, PendingTitle
from court.views.changes import changes
from tests.court.given import HOST, Table, created, joined, seat
from tests.court.single_records import record_of
from tests.court.table_votes_given import (
    AWAY,
    HOST_SEAT,
    LATER,
    NEW,
    accepted_by,
    propose,
    replace_vote,
    table,
    version_of,
)

# -- replacing a player who is gone ---------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "voter", "now", "code"),
    [
        (replace_vote(2, away=None), 1, LATER, "seat_present"),
        (replace_vote(2), 1, LATER - 1, "seat_not_away_long"),
        (replace_vote(1), 1, LATER, "replace_self"),
        (replace_vote(0), 1, LATER, "replace_host"),
        (replace_vote(7), 1, LATER, "unknown_seat"),
    ],
)
def test_a_vote_to_replace_is_refused_with_a_reason(
    command: VoteToReplace, voter: int, now: float, code: str
) -> None:
    court = table()
    with pytest.raises(CourtError) as refused:
        decide(court.state, command, seat(voter), now)
    assert refused.value.code == code
    assert refused.value.message


def test_nobody_is_replaced_in_the_lobby() -> None:
    court = Table(created(3), joined(0, host=True), joined(1), joined(2))
    with pytest.raises(CourtError) as refused:
        decide(court.state, replace_vote(2), seat(1), LATER)
    assert refused.value.code == "game_lobby"


def test_a_majority_of_the_other_seats_hands_an_absent_seat_to_a_new_link() -> None:
    """Given seat 2 gone for the profile's time, when seats 0 and 1 (both other seats) vote,
    then the first vote is recorded alone, the second replaces the seat naming both voters,
    the seat is handed to the new token at the record's version, the old token opens nothing,
    and the new holder is withheld what the seat held before."""
    court = table()
    first = court.act(replace_vote(2), HOST_SEAT, LATER)
    assert first == (ReplaceVoteCast(seat=Seat(0), for_seat=Seat(2), at=LATER, away_since=AWAY),)
    with pytest.raises(CourtError) as twice:
        decide(court.state, replace_vote(2), HOST_SEAT, LATER)
    assert twice.value.code == "already_voted"

    events = court.act(replace_vote(2), seat(1), LATER + 5)

    assert isinstance(events[1], SeatReplaced) and isinstance(events[2], SeatHanded)
    assert (events[1].voters, events[1].votes, events[1].seats) == ((Seat(0), Seat(1)), 2, 2)
    assert events[2].token_sha256 == NEW and events[2].at_version == 52
    assert actor_of(court.state, "2" * 64) is None
    assert actor_of(court.state, NEW) == Actor(seat=Seat(2), token_sha256=NEW)
    assert court.state.seats[Seat(2)].handed_at == 52
    assert court.state.table.replace == {}
    said = describe(record_of(events[1]), court.state)
    assert "Player 1" in said and "Player 2" in said and "Player 3" in said, said


def test_a_vote_cast_before_the_player_came_back_counts_no_more() -> None:
    court = table()
    court.act(replace_vote(2), HOST_SEAT, LATER)
    again = LATER + 100
    events = court.act(replace_vote(2, away=again), seat(1), again + 600)
    assert [type(e) for e in events] == [ReplaceVoteCast]


# -- ending the game ------------------------------------------------------------------------


def test_a_majority_of_the_seats_ends_the_game_without_winners_and_then_only_reading_is_left() -> (
    None
):
    """R-4.7 names winners only in phase 8: the table's end records the standings, no winner,
    with who voted; afterwards every move is refused with `game_ended`."""
    court = table()
    assert court.act(VoteToEnd(), seat(1)) == (EndVoteCast(seat=Seat(1)),)
    events = court.act(VoteToEnd(), seat(2))
    assert events[1] == TableEndedGame(votes=2, seats=3, voters=(Seat(1), Seat(2)))
    ended = events[2]
    assert isinstance(ended, GameEnded) and ended.winners == ()
    assert {s.seat for s in ended.points} == {Seat(0), Seat(1), Seat(2)}
    assert court.state.status is GameStatus.ENDED
    for command, actor in ((Pass(), seat(0)), (VoteToEnd(), HOST_SEAT)):
        with pytest.raises(CourtError) as refused:
            decide(court.state, command, actor)
        assert refused.value.code == "game_ended"


@pytest.mark.parametrize("kind", [PendingKind.ACCEPTANCE, PendingKind.OVERFLOW])
def test_a_title_waiting_for_its_answer_when_the_table_ends_the_game_is_answered_no_more(
    kind: PendingKind,
) -> None:
    """R-4.7, R-3.3, R-3.2: given a title waiting for seat 0's answer, when the table ends the
    game, then accepting, refusing or passing the title on is refused with `game_ended`."""
    court = table()
    court.state = replace(
        court.state,
        pending=PendingTitle(
            kind=kind,
            seat=Seat(0),
            noble=NobleId("robb-stark"),
            title=TitleId("warden-north"),
            election="warden-north",
        ),
    )
    court.act(VoteToEnd(), seat(1))
    court.act(VoteToEnd(), seat(2))
    assert court.state.status is GameStatus.ENDED
    answers = (AcceptTitle(), RefuseTitle(), ResolveTitleOverflow(title=TitleId("warden-north")))
    for answer in answers:
        with pytest.raises(CourtError) as refused:
            decide(court.state, answer, seat(0))
        assert refused.value.code == "game_ended", answer


def test_a_vote_to_end_can_be_taken_back() -> None:
    court = table()
    court.act(VoteToEnd(), seat(1))
    court.act(VoteToEnd(end=False), seat(1))
    assert [type(e) for e in court.act(VoteToEnd(), seat(2))] == [EndVoteCast]
    with pytest.raises(CourtError) as refused:
        decide(court.state, VoteToEnd(end=False), seat(1))
    assert refused.value.code == "no_end_vote"


# -- corrections ----------------------------------------------------------------------------


def test_a_gold_correction_accepted_by_a_majority_adds_the_difference_and_keeps_the_record() -> (
    None
):
    """Given +5 GD recorded for Stark at version v, when the host proposes +2 and seat 1
    accepts (the host's seat counts as one: 2 of 3), then the correction is made naming both
    and a compensating -3 GD follows; the recorded +5 stays in the log; the history and
    "what changed" explain it."""
    court = table()
    court.act(AdjustGold(house=HouseId("stark"), amount=5, cause="won a battle"))
    version = version_of(court, GoldAdjusted)
    gold = court.state.treasury[HouseId("stark")]
    before = court.state

    events = accepted_by(court, propose(court, version, amount=2), 1)

    made, compensating = events[1], events[2]
    assert isinstance(made, CorrectionMade) and made.voters == (Seat(0), Seat(1))
    assert compensating == GoldAdjusted(
        house=HouseId("stark"),
        amount=-3,
        cause=f"correction of the record at version {version}: misread the battle",
    )
    assert court.state.treasury[HouseId("stark")] == gold - 3
    assert court.events[version - 1] == GoldAdjusted(
        house=HouseId("stark"), amount=5, cause="won a battle"
    )
    said = describe(record_of(made), court.state)
    assert f"version {version}" in said and "2 Gold Dragons" in said, said
    told = [c.text for c in changes(before, court.state)]
    assert any("corrected" in t and f"version {version}" in t for t in told), told


def test_a_correction_refused_by_a_majority_changes_nothing() -> None:
    court = table()
    court.act(AdjustGold(house=HouseId("stark"), amount=5, cause="won a battle"))
    version = version_of(court, GoldAdjusted)
    court.act(propose(court, version, amount=2), HOST_SEAT)
    court.act(AnswerCorrection(accept=False), seat(1))
    gold = court.state.treasury
    events = court.act(AnswerCorrection(accept=False), seat(2))
    assert events == (
        CorrectionAnswered(seat=Seat(2), accept=False),
        CorrectionRefused(version=version, refusals=2, seats=3, voters=(Seat(1), Seat(2))),
    )
    assert court.state.treasury == gold and court.state.table.correction is None


def test_a_recorded_death_corrected_brings_the_noble_back_as_he_stood() -> None:
    """Given a death recorded for a Noble who held nothing (the death's record follows its
    attribution directly), when the table accepts the correction, then he is in play again
    and "what changed" says he lives."""
    court = table()
    noble = next(n for n in court.state.nobles.values() if n.house == "lannister")
    court.act(RecordDeath(noble=noble.id, kind="battle", cause="fell at the Fords"))
    version = len(court.events)
    before = court.state
    events = accepted_by(court, propose(court, version), 2)
    assert isinstance(events[-1], NobleRestored)
    assert court.state.nobles[noble.id].status is NobleStatus.IN_PLAY
    told = " ".join(c.text for c in changes(before, court.state))
    assert f"{noble.name} lives" in told, told


def test_a_death_whose_titles_passed_on_cannot_be_corrected() -> None:
    """R-1.4: a dead Noble's titles went free when he died; the correction is refused with
    the reason rather than guessing where they should go back."""
    court = table()
    noble = next(n for n in court.state.nobles.values() if n.house == "tyrell")
    court.add(TitleGranted(title=TitleId("hand"), noble=noble.id, cause="test"))
    court.act(RecordDeath(noble=noble.id, kind="battle", cause="fell"))
    with pytest.raises(CourtError) as refused:
        decide(court.state, propose(court, len(court.events)), HOST_SEAT)
    assert refused.value.code == "death_had_consequences"
    assert noble.name in refused.value.message


def test_a_village_recorded_again_since_cannot_be_corrected() -> None:
    court = table()
    village = court.state.ruleset.villages[0].id
    court.act(RecordVillageControl(village=village, house=HouseId("stark"), cause="took it"))
    version = version_of(court, VillageControlChanged)
    court.act(RecordVillageControl(village=village, house=HouseId("tyrell"), cause="lost it"))
    with pytest.raises(CourtError) as refused:
        decide(court.state, propose(court, version, house="lannister"), HOST_SEAT)
    assert refused.value.code == "village_changed_since"


def test_a_village_correction_sets_the_corrected_holder() -> None:
    court = table()
    village = VillageId(court.state.ruleset.villages[0].id)
    court.act(RecordVillageControl(village=village, house=HouseId("stark"), cause="took it"))
    version = version_of(court, VillageControlChanged)
    accepted_by(court, propose(court, version, house=HouseId("lannister")), 1)
    assert court.state.villages[village] == "lannister"
    assert court.state.table.corrected(version)
    with pytest.raises(CourtError) as again:
        decide(court.state, propose(court, version, house=None), HOST_SEAT)
    assert again.value.code == "already_corrected"


@pytest.mark.parametrize(
    ("value", "actor", "code"),
    [
        ({"amount": 5}, HOST_SEAT, "no_change"),
        ({}, HOST_SEAT, "amount_required"),
        ({"amount": -100}, HOST_SEAT, "treasury_too_low"),
        ({"amount": 2}, seat(1), "host_only"),
    ],
)
def test_a_gold_correction_is_refused_with_a_reason(
    value: dict[str, int], actor: Actor, code: str
) -> None:
    court = table()
    court.act(AdjustGold(house=HouseId("stark"), amount=5, cause="won a battle"))
    with pytest.raises(CourtError) as refused:
        decide(court.state, propose(court, version_of(court, GoldAdjusted), **value), actor)
    assert refused.value.code == code


def test_a_gold_correction_below_zero_names_the_house_and_the_least_it_may_propose() -> None:
    """R-2.1: given 5 GD recorded for Stark, which holds 5 more than it started with, when the
    host proposes -100, then the refusal names House Stark (not its id), says how much it
    holds, and proposes the lowest amount that keeps the treasury at zero or above."""
    court = table()
    court.act(AdjustGold(house=HouseId("stark"), amount=5, cause="won a battle"))
    held = court.state.treasury[HouseId("stark")]
    with pytest.raises(CourtError) as refused:
        decide(court.state, propose(court, version_of(court, GoldAdjusted), amount=-100), HOST_SEAT)
    message = refused.value.message
    assert f"House Stark holds {held} GD now" in message, message
    assert f"Propose {5 - held} GD or more" in message, message
    assert "stark " not in message


def test_only_facts_are_corrected_and_one_at_a_time() -> None:
    court = table()
    with pytest.raises(CourtError) as refused:
        decide(court.state, propose(court, 2), HOST_SEAT)  # a seat joining
    assert refused.value.code == "not_correctable"
    court.act(AdjustGold(house=HouseId("stark"), amount=5, cause="won a battle"))
    version = version_of(court, GoldAdjusted)
    with pytest.raises(CourtError) as attribution:
        decide(court.state, propose(court, version - 1, amount=1), HOST_SEAT)
    assert attribution.value.code == "not_correctable"
    assert [type(e) for e in court.act(propose(court, version, amount=1), HOST_SEAT)] == [
        CorrectionProposed
    ]
    with pytest.raises(CourtError) as busy:
        decide(court.state, propose(court, version, amount=3), HOST_SEAT)
    assert busy.value.code == "correction_open"
    court.act(WithdrawCorrection(), HOST_SEAT)
    assert court.state.table.correction is None
    with pytest.raises(CourtError) as nothing:
        decide(court.state, AnswerCorrection(accept=True), seat(1))
    assert nothing.value.code == "no_correction"


def test_a_seat_just_handed_to_a_new_link_waits_the_profile_s_time_before_another_vote() -> None:
    """Given seat 2 replaced at LATER + 5 (its new player has not opened the link yet, so the
    server still counts the seat gone since AWAY), when seat 1 votes to replace it again at
    once, then the vote is refused (`seat_not_away_long`): the new link's absence is counted
    from the replacement; once the profile's time has passed since then, it is taken."""
    court = table()
    court.act(replace_vote(2), HOST_SEAT, LATER)
    court.act(replace_vote(2), seat(1), LATER + 5)
    with pytest.raises(CourtError) as refused:
        decide(court.state, replace_vote(2), seat(1), LATER + 10)
    assert refused.value.code == "seat_not_away_long"
    events = court.act(replace_vote(2), seat(1), LATER + 5 + 600)
    assert events == (
        ReplaceVoteCast(seat=Seat(1), for_seat=Seat(2), at=LATER + 605, away_since=LATER + 5),
    )


def test_a_seat_the_host_handed_to_a_new_link_waits_the_profile_s_time_before_a_vote() -> None:
    """Given seat 2's player gone since AWAY and the host handing seat 2 to a new link at
    LATER (its new player has not opened it yet, so the server still counts the seat gone
    since AWAY), when seat 1 votes to replace it at once, then the vote is refused
    (`seat_not_away_long`): the new player's absence counts from the hand-over; once the
    profile's time has passed since then, the vote is taken."""
    court = table()
    handed = court.act(HandSeat(seat=Seat(2), token_sha256=NEW, player_name="Eve"), HOST, LATER)
    assert handed == (
        SeatHanded(
            seat=Seat(2),
            house=court.state.seats[Seat(2)].house,
            old_player_name="Player 3",
            player_name="Eve",
            token_sha256=NEW,
            at=LATER,
        ),
    )
    with pytest.raises(CourtError) as refused:
        decide(court.state, replace_vote(2), seat(1), LATER + 599)
    assert refused.value.code == "seat_not_away_long"
    events = court.act(replace_vote(2), seat(1), LATER + 600)
    assert events == (
        ReplaceVoteCast(seat=Seat(1), for_seat=Seat(2), at=LATER + 600, away_since=LATER),
    )
