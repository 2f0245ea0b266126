"""A seat played by the bot (docs/rules-map.md, "A seat played by the bot"): the other seats may
vote the bot in instead of a new link for a player gone for the profile's time (R-9.2); it
makes the seat's moves, each marked as its own, by a policy that reads nothing another seat
holds secret; its player takes the seat back by opening his link, or a new link voted later
takes it over."""

from __future__ import annotations

import dataclasses

import pytest

from court.commands import (
    Actor,
    AdvancePhase,
    AnswerMarriage,
    HandHost,
    HandSeat,
    Pass,
    PlaceBallot,
    PlaceBid,
    StandForElection,
    TakeSeatBack,
    VoteForHost,
    VoteToEnd,
    VoteToReplace,
)
from court.decide import decide
from court.errors import CourtError
from court.events import BallotPlaced, BotPlayed, BotSeated, BotStoodDown, SeatHanded, SeatReplaced
from court.evolve import evolve
from court.ids import Seat
from court.model.tokens import actor_of
from court.options.bot import awaited_bots, bot_move
from court.options.legal import legal_commands
from court.sentences import describe
from court.state import CourtState, GameStatus, Stage
from court.views.waiting import awaited
from tests.court.given import Table, seat
from tests.court.moments import act, ballot, ballot_open
from tests.court.single_records import record_of
from tests.court.table_votes_given import AWAY, HOST_SEAT, LATER, NEW, START, table

GONE = Seat(3)
BOT = Actor(seat=GONE, bot=True)


def vote(for_seat: int = 3, *, bot: bool = True) -> VoteToReplace:
    return VoteToReplace(
        seat=Seat(for_seat), bot=bot, away_since=AWAY, token_sha256=NEW, at_version=50
    )


def bot_table() -> Table:
    """Four seats; seat 3's player has been gone long enough, and seats 1 and 2 voted the bot
    in."""
    court = table(4)
    court.act(vote(), seat(1), LATER)
    court.act(vote(), seat(2), LATER + 1)
    return court


def test_a_majority_for_the_bot_seats_it_and_the_player_keeps_his_token() -> None:
    """R-9.2: two of the three other seats is a strict majority; the bot comes in the player's
    place, and his own link stays his to come back with (no new token)."""
    court = table(4)
    token = court.state.seats[GONE].token_sha256
    court.act(vote(), seat(1), LATER)
    events = court.act(vote(), seat(2), LATER + 1)
    assert [type(e) for e in events] == [type(events[0]), SeatReplaced, BotSeated]
    replaced = events[1]
    assert isinstance(replaced, SeatReplaced)
    assert replaced.bot and replaced.voters == (1, 2)
    assert court.state.table.bots == {GONE}
    assert not any(isinstance(e, SeatHanded) for e in court.events)
    assert actor_of(court.state, token) == Actor(seat=GONE, token_sha256=token)
    assert "the bot" in describe(record_of(replaced), court.state)


def test_votes_for_a_link_and_votes_for_the_bot_do_not_add_up() -> None:
    """R-9.2: the majority must agree on what comes in the player's place."""
    court = table(4)
    court.act(vote(bot=True), seat(1), LATER)
    events = court.act(vote(bot=False), seat(2), LATER + 1)
    assert len(events) == 1 and not court.state.table.bots
    events = court.act(vote(bot=True), HOST_SEAT, LATER + 2)
    assert isinstance(events[1], SeatReplaced) and events[1].voters == (0, 1)
    assert court.state.table.bots == {GONE}


def test_the_bot_drops_the_votes_its_player_cast() -> None:
    """R-9.2: a seat's votes are its player's; the bot casts none and keeps none of his."""
    court = table(4)
    court.act(VoteToEnd(), seat(3), START + 1)
    assert GONE in court.state.table.end
    court.act(vote(), seat(1), LATER)
    court.act(vote(), seat(2), LATER + 1)
    assert GONE not in court.state.table.end


def test_the_bot_plays_the_seat_the_court_awaits_and_its_move_is_marked() -> None:
    """The bot moves when the court waits on its seat; the history tells its move apart."""
    court = bot_table()
    while GONE not in awaited_bots(court.state):
        turn = awaited(court.state)
        if turn is None:
            court.act(AdvancePhase(), HOST_SEAT, LATER + 2)
        else:
            court.act(Pass(), seat(turn.seats[0]), LATER + 2)
    move = bot_move(court.state, GONE)
    assert move == Pass()
    events = court.act(move, BOT, LATER + 3)
    assert isinstance(events[0], BotPlayed) and events[0].seat == GONE
    assert "played by the bot" in describe(record_of(events[0]), court.state)


def test_a_table_of_bots_plays_rounds_through_by_the_policy_alone() -> None:
    """Every step a seat is awaited in, the policy has a move the court accepts."""
    court = table(4)
    for voter in (1, 2):
        court.act(vote(), seat(voter), LATER + voter)
    while court.state.round < 3 and court.state.status is GameStatus.PLAYING:
        turn = awaited(court.state)
        if turn is None:
            court.act(AdvancePhase(), HOST_SEAT, LATER + 5)
            continue
        mover = turn.seats[0]
        move = bot_move(court.state, mover)
        assert move is not None, turn
        court.act(move, BOT if mover == GONE else seat(mover, host=mover == 0), LATER + 5)
    assert any(isinstance(e, BotPlayed) for e in court.events)


@pytest.mark.parametrize(
    ("command", "actor", "code"),
    [
        (Pass(), Actor(seat=GONE), "bot_plays"),
        (VoteToEnd(), Actor(seat=GONE), "bot_plays"),
        (VoteToEnd(), BOT, "bot_no_vote"),
        (VoteToReplace(seat=Seat(1), away_since=AWAY), BOT, "bot_no_vote"),
        (TakeSeatBack(), seat(1), "no_bot"),
        (Pass(), Actor(seat=Seat(1), bot=True), "bot_stood_down"),
        (vote(), seat(0, host=True), "bot_plays"),
        (HandHost(seat=GONE), HOST_SEAT, "bot_plays"),
        (VoteForHost(seat=GONE), seat(1), "bot_plays"),
        (AnswerMarriage(accept=True), BOT, "bot_caretaker"),
        (PlaceBid(amount=3), BOT, "bot_caretaker"),
        (ballot(("decoy", "robb-stark")), BOT, "bot_caretaker"),
        (ballot(("for", "robb-stark"), ("decoy", "jaime-lannister")), BOT, "bot_caretaker"),
    ],
)
def test_the_bot_moves_its_seat_alone_and_votes_on_nothing(
    command: object, actor: Actor, code: str
) -> None:
    """R-9.2: the player moves nothing while the bot plays; the bot casts no table vote; it
    commits the House to nothing its player could not undo: no marriage accepted, no bid, no
    ballot but its FOR marker alone on its own candidate (docs/rules-map.md, "A seat played by
    the bot"), whichever server process sends it."""
    court = bot_table()
    with pytest.raises(CourtError) as refused:
        decide(court.state, command, actor, LATER + 10)  # type: ignore[arg-type]
    assert refused.value.code == code


def test_the_player_who_comes_back_takes_his_seat_over() -> None:
    """Opening his own link again, he plays on; the bot stands down and moves no more."""
    court = bot_table()
    events = court.act(TakeSeatBack(), Actor(seat=GONE), LATER + 20)
    assert events == (
        BotStoodDown(
            seat=GONE, house=court.state.seats[GONE].house, player_name="Player 4", returned=True
        ),
    )
    assert not court.state.table.bots
    assert "is back" in describe(record_of(events[0]), court.state)
    with pytest.raises(CourtError) as refused:
        decide(court.state, Pass(), BOT, LATER + 21)
    assert refused.value.code == "bot_stood_down"


def test_a_new_link_voted_later_takes_the_seat_from_the_bot() -> None:
    """R-9.2: the table may still hand the seat to a new player; the bot stands down first,
    and his absence still counts from when he left (no new wait)."""
    court = bot_table()
    court.act(vote(bot=False), seat(1), LATER + 30)
    events = court.act(vote(bot=False), seat(2), LATER + 31)
    kinds = [type(e) for e in events]
    assert kinds[1:] == [SeatReplaced, BotStoodDown, SeatHanded]
    stood, handed = events[2], events[3]
    assert isinstance(stood, BotStoodDown) and not stood.returned
    assert isinstance(handed, SeatHanded) and handed.at_version == 53
    assert not court.state.table.bots


def test_a_host_handing_the_seat_on_stands_the_bot_down_first() -> None:
    court = bot_table()
    events = court.act(HandSeat(seat=GONE, token_sha256=NEW, at_version=70), HOST_SEAT, LATER)
    assert [type(e) for e in events] == [BotStoodDown, SeatHanded]
    assert isinstance(events[1], SeatHanded) and events[1].at_version == 71
    assert not court.state.table.bots


def _with_bot(state: CourtState, at: Seat) -> CourtState:
    info = state.seats[at]
    return evolve(state, BotSeated(seat=at, house=info.house, player_name=info.player_name))


def test_the_bots_ballot_reads_no_other_seats_secret() -> None:
    """R-7.1, section 10: which marker another seat placed face down is his alone; the bot's
    choice is the same whatever it is, and it backs its own candidate with its FOR marker."""
    state = ballot_open()
    election = state.election
    assert election is not None and election.stage is Stage.BALLOT
    first = election.current
    assert first is not None
    own = next(n for s, n in election.candidates if s == first)
    other = next(n for s, n in election.candidates if s != first)
    state = act(state, ballot(("for", other), ("decoy", own)), seat(first))
    election = state.election
    assert election is not None and election.current is not None
    bot_seat = election.current
    state = _with_bot(state, bot_seat)
    flipped = {
        s: tuple(dataclasses.replace(m, secret_kind="decoy", secret_salt="x") for m in placed)
        for s, placed in election.placements.items()
    }
    other_state = dataclasses.replace(
        state, election=dataclasses.replace(election, placements=flipped)
    )
    move = bot_move(state, bot_seat)
    assert move == bot_move(other_state, bot_seat)
    mine = [n for s, n in election.candidates if s == bot_seat]
    if mine:
        assert isinstance(move, PlaceBallot)
        assert [(m.kind, m.candidate) for m in move.markers] == [("for", mine[0])]
    else:
        assert move == Pass()
    assert move is not None
    events = decide(state, move, Actor(seat=bot_seat, bot=True), 0.0)
    assert isinstance(events[0], BotPlayed)
    assert any(isinstance(e, BallotPlaced) for e in events) == bool(mine)


def test_the_bot_stands_its_first_lord_it_may() -> None:
    """R-7.1: at its candidacy turn the bot puts a Lord forward rather than pass."""
    from tests.court.moments import two_voters

    state = two_voters()
    election = state.election
    assert election is not None and election.current is not None
    move = bot_move(_with_bot(state, election.current), election.current)
    assert isinstance(move, StandForElection)


def test_the_bot_has_no_move_while_the_court_awaits_another_seat() -> None:
    """It never votes to end the game nor offers a ransom on its own: while another seat is
    awaited it has nothing to do."""
    court = bot_table()
    turn = awaited(court.state)
    assert turn is not None and GONE not in turn.seats
    assert awaited_bots(court.state) == ()
    assert bot_move(court.state, GONE) is None


def test_an_ended_game_offers_the_bots_seat_nothing() -> None:
    """R-4.7: after the end nothing but reading is left, for the bot and its player alike."""
    court = bot_table()
    assert legal_commands(court.state, Actor(seat=GONE)) == [TakeSeatBack()]
    for voter in (seat(1), seat(2), HOST_SEAT):
        if court.state.status is GameStatus.PLAYING:
            court.act(VoteToEnd(), voter, LATER + 40)
    assert court.state.status is GameStatus.ENDED
    assert legal_commands(court.state, Actor(seat=GONE)) == []
    assert legal_commands(court.state, BOT) == []
