"""Seats follow the player: a seat handed to a new token, the host role handed over, or taken over
in play by a majority of the other seats from a host gone for the profile's time, a squatter
removed in the lobby. Seats and the host role are no rule of the game's: no rule id is cited."""

from __future__ import annotations

import dataclasses

import pytest

from court.commands import Actor, HandHost, HandSeat, LeaveSeat, RemoveSeat, StartGame, VoteForHost
from court.decide import decide
from court.errors import CourtError
from court.events import (
    Event,
    HostHandedOver,
    HostTakenOver,
    HostVoteCast,
    HostVoteWithdrawn,
    SeatHanded,
    SeatRemoved,
)
from court.ids import HouseId, Seat
from court.model.tokens import actor_of, still_acting
from court.sentences import describe
from court.state import CourtState, HostVote
from tests.court.given import HOST, created, given, joined, seat, started, then_state, when
from tests.court.single_records import record_of

HOST_TOKEN = "h" * 64
NEW = "n" * 64


def hosted_lobby(seated: int = 3) -> CourtState:
    """A lobby for 3 where the host (by his creation token) took seat 0."""
    return given(created(3), joined(0, host=True), *(joined(i) for i in range(1, seated)))


def hosted_game() -> CourtState:
    """A started game of 3 where the host (by his creation token) holds seat 0."""
    return given(created(3), joined(0, host=True), joined(1), joined(2), *started(3)[4:])


def host(state: CourtState) -> Actor:
    actor = actor_of(state, HOST_TOKEN)
    assert actor is not None
    return actor


def sentence(state: CourtState, event: Event) -> str:
    return describe(record_of(event), state)


@pytest.mark.parametrize("make", [hosted_lobby, hosted_game])
def test_a_seat_handed_to_a_new_player_stops_the_old_token_at_once(make) -> None:
    """Given a lobby or a game, when the host hands seat 1 to Eve with a new token, then the
    old token opens nothing, the new one acts as seat 1, and the history names both players."""
    state = make()
    events = when(state, HandSeat(seat=Seat(1), token_sha256=NEW, player_name="Eve"), host(state))
    assert events == (
        SeatHanded(
            seat=Seat(1),
            house=HouseId("lannister"),
            old_player_name="Player 2",
            player_name="Eve",
            token_sha256=NEW,
        ),
    )
    after = then_state(state, events)
    assert actor_of(after, "1" * 64) is None
    assert actor_of(after, NEW) == Actor(seat=Seat(1))
    assert after.seats[Seat(1)].player_name == "Eve"
    assert sentence(after, events[0]) == "Player 2's seat was handed to Eve."


def test_a_seat_moved_to_a_new_device_keeps_its_player() -> None:
    state = hosted_lobby()
    events = when(state, HandSeat(seat=Seat(2), token_sha256=NEW), host(state))
    after = then_state(state, events)
    assert after.seats[Seat(2)].player_name == "Player 3"
    assert sentence(after, events[0]) == "Player 3's seat moved to a new device."


def test_a_stale_actor_kept_by_a_connection_acts_no_more_after_its_seat_is_handed() -> None:
    """Given a seat's actor found by its token (as a connection keeps it), when the seat is
    handed to a new token, then the kept actor stands for nothing."""
    state = hosted_lobby()
    kept = actor_of(state, "2" * 64)
    assert kept is not None
    after = then_state(state, when(state, HandSeat(seat=Seat(2), token_sha256=NEW), host(state)))
    assert still_acting(after, kept) is None


def test_the_host_handing_his_own_seat_moves_the_host_role_with_it() -> None:
    """Given the host at seat 0, when he hands his own seat to a new token, then his creation
    token stops too and the new token is the host with seat 0."""
    state = hosted_lobby()
    after = then_state(state, when(state, HandSeat(seat=Seat(0), token_sha256=NEW), host(state)))
    assert actor_of(after, HOST_TOKEN) is None
    assert actor_of(after, "0" * 64) is None
    assert actor_of(after, NEW) == Actor(seat=Seat(0), host=True)


@pytest.mark.parametrize(
    ("command", "actor", "code"),
    [
        (HandSeat(seat=Seat(1), token_sha256=NEW), seat(1), "host_only"),
        (HandSeat(seat=Seat(5), token_sha256=NEW), seat(0, host=True), "unknown_seat"),
        (HandSeat(seat=Seat(1), token_sha256="2" * 64), seat(0, host=True), "token_reused"),
        (HandSeat(seat=Seat(1), token_sha256=HOST_TOKEN), seat(0, host=True), "token_reused"),
        (HandSeat(seat=Seat(1), token_sha256=NEW, player_name=""), seat(0, host=True), "bad_name"),
        (HandHost(seat=Seat(1)), seat(1), "host_only"),
        (HandHost(seat=Seat(0)), seat(0, host=True), "already_host"),
        (HandHost(seat=Seat(7)), seat(0, host=True), "unknown_seat"),
        (RemoveSeat(seat=Seat(1)), seat(2), "host_only"),
        (RemoveSeat(seat=Seat(0)), seat(0, host=True), "remove_self"),
        (VoteForHost(seat=Seat(1)), seat(0, host=True), "host_cannot_vote"),
        (VoteForHost(seat=Seat(2)), Actor(), "seat_required"),
        (VoteForHost(seat=Seat(2)), seat(1), "game_lobby"),
        (VoteForHost(seat=Seat(2), host_away_since=0.0), seat(1), "game_lobby"),
    ],
)
def test_moves_of_seats_and_of_the_host_role_are_refused_with_a_reason(
    command, actor, code
) -> None:
    state = hosted_lobby()
    with pytest.raises(CourtError) as err:
        when(state, command, actor)
    assert err.value.code == code and err.value.message


START, AWAY = 1000.0, 1100.0  # the game's start, and the moment the host's last page closed
LATER = AWAY + 600  # the profile's 10 minutes after


def vote(seat_for: int | None, away: float | None = AWAY) -> VoteForHost:
    return VoteForHost(seat=None if seat_for is None else Seat(seat_for), host_away_since=away)


def game_at(start: float = START, players: int = 3, host_seat: int | None = 0) -> CourtState:
    """A started game whose host holds `host_seat` (None: the host never sat down)."""
    seats = [joined(i, host=i == host_seat) for i in range(players)]
    state = given(created(players), *seats)
    return then_state(state, decide(state, StartGame(), HOST, start))


def voted(state: CourtState, command: VoteForHost, voter: int, now: float) -> CourtState:
    return then_state(state, decide(state, command, seat(voter), now))


@pytest.mark.parametrize(
    ("command", "now", "code"),
    [
        (vote(0), LATER, "already_host"),
        (vote(None), LATER, "no_host_vote"),
        (vote(9), LATER, "unknown_seat"),
        (vote(2, away=None), LATER, "host_present"),
        (vote(2), LATER - 1, "host_not_away_long"),
        (vote(2, away=0.0), START + 599, "host_not_away_long"),
    ],
)
def test_a_vote_for_a_new_host_in_play_is_refused_with_a_reason(command, now, code) -> None:
    """Given a started game whose host (seat 0) had his last page closed at AWAY, when seat 1
    votes, then a vote for the host himself, a withdrawal without a vote, an unknown seat, a
    host who is connected, and a host gone for less than the profile's 10 minutes (counted from
    the game's start at the earliest) are each refused."""
    state = game_at()
    with pytest.raises(CourtError) as err:
        decide(state, command, seat(1), now)
    assert err.value.code == code and err.value.message


def test_the_refusal_of_an_early_vote_says_how_long_the_host_must_be_away() -> None:
    with pytest.raises(CourtError) as err:
        decide(game_at(), vote(2), seat(1), AWAY + 150)
    assert err.value.message == (
        "The host has been away for 2 minutes; the other seats may vote a new host in once he "
        "has been away for 10 minutes."
    )


def test_a_host_handing_over_keeps_his_seat_without_the_host_powers() -> None:
    """Given the host at seat 0 by his creation token, when he hands the host role to seat 1,
    then his creation token acts as seat 0 alone, seat 1's token carries the host powers, and
    no token acts as a seatless host any more."""
    state = hosted_lobby()
    events = when(state, HandHost(seat=Seat(1)), host(state))
    assert events == (
        HostHandedOver(
            from_seat=Seat(0), to_seat=Seat(1), from_name="Player 1", to_name="Player 2"
        ),
    )
    after = then_state(state, events)
    assert actor_of(after, HOST_TOKEN) == Actor(seat=Seat(0))
    assert actor_of(after, "0" * 64) == Actor(seat=Seat(0))
    assert actor_of(after, "1" * 64) == Actor(seat=Seat(1), host=True)
    assert after.host_name == "Player 2"
    assert sentence(after, events[0]) == "Player 1 handed the host role to Player 2."
    with pytest.raises(CourtError) as err:
        when(after, HandHost(seat=Seat(2)), actor_of(after, HOST_TOKEN))  # type: ignore[arg-type]
    assert err.value.code == "host_only"


def test_the_old_host_token_handed_back_the_role_is_the_host_again_for_his_seat() -> None:
    state = hosted_lobby()
    state = then_state(state, when(state, HandHost(seat=Seat(1)), host(state)))
    state = then_state(state, when(state, HandHost(seat=Seat(0)), seat(1, host=True)))
    assert actor_of(state, HOST_TOKEN) == Actor(seat=Seat(0), host=True)
    assert actor_of(state, "1" * 64) == Actor(seat=Seat(1))


def test_a_new_host_seat_cannot_leave_without_handing_the_role_on() -> None:
    state = hosted_lobby()
    state = then_state(state, when(state, HandHost(seat=Seat(1)), host(state)))
    with pytest.raises(CourtError) as err:
        when(state, LeaveSeat(), seat(1, host=True))
    assert err.value.code == "host_must_hand_over"


def test_a_majority_of_the_other_seats_takes_the_role_from_a_host_gone_long_enough() -> None:
    """Given a game of 3 whose host (seat 0) has had no connection since AWAY, when seat 1
    votes for seat 2 ten minutes later, then nothing changes hands (1 of the 2 other seats);
    when seat 2 votes for itself, then seat 2 is the host by both other seats' votes, the
    takeover names them and the absence, the votes are cleared, and the old host's token keeps
    his seat without host powers."""
    state = game_at()
    first = decide(state, vote(2), seat(1), LATER)
    assert first == (HostVoteCast(seat=Seat(1), for_seat=Seat(2), at=LATER, host_away_since=AWAY),)
    state = then_state(state, first)
    assert state.host_votes == {Seat(1): HostVote(seat=Seat(2), at=LATER)}
    second = decide(state, vote(2), seat(2), LATER + 5)
    assert second[1] == HostTakenOver(
        from_seat=Seat(0),
        to_seat=Seat(2),
        from_name="Player 1",
        to_name="Player 3",
        votes=2,
        seats=2,
        voters=(Seat(1), Seat(2)),
        host_away_since=AWAY,
    )
    state = then_state(state, second)
    assert state.host_votes == {}
    assert actor_of(state, "2" * 64) == Actor(seat=Seat(2), host=True)
    assert actor_of(state, HOST_TOKEN) == Actor(seat=Seat(0))
    assert sentence(state, second[1]) == (
        "Player 3 became the host in place of Player 1, who had been away: Player 2 (House "
        "Lannister) and Player 3 (House Tyrell) voted for it, 2 of the 2 other seats."
    )


def test_the_host_seat_counts_for_nothing_in_a_takeover() -> None:
    """Given a game of 4 whose host holds seat 0, two of the three other seats are a majority;
    given one whose host never sat down, three of the four seats are needed."""
    seated = voted(game_at(players=4), vote(3), 1, LATER)
    assert isinstance(decide(seated, vote(3), seat(2), LATER)[-1], HostTakenOver)
    unseated = game_at(players=4, host_seat=None)
    unseated = voted(voted(unseated, vote(3), 1, LATER), vote(3), 2, LATER)
    assert list(unseated.host_votes) == [Seat(1), Seat(2)]
    events = decide(unseated, vote(3), seat(0), LATER)
    taken = events[-1]
    assert isinstance(taken, HostTakenOver) and taken.from_seat is None
    assert (taken.votes, taken.seats, taken.voters) == (3, 4, (Seat(0), Seat(1), Seat(2)))


def test_the_absence_counts_from_the_start_of_the_game_at_the_earliest() -> None:
    """A host the server never saw leave is away since before the game: the seats wait the
    profile's time from the start all the same."""
    state = game_at()
    with pytest.raises(CourtError):
        decide(state, vote(2, away=0.0), seat(1), START + 599)
    events = decide(state, vote(2, away=0.0), seat(1), START + 600)
    assert events == (
        HostVoteCast(seat=Seat(1), for_seat=Seat(2), at=START + 600, host_away_since=START),
    )


def test_a_vote_of_an_earlier_absence_counts_no_more_once_the_host_came_back() -> None:
    """Given seat 1's vote for seat 2 while the host was away, when the host came back and
    left again at `again`, then seat 2's vote for itself is 1 of 2 counted, seat 1 may vote
    for seat 2 once more, and that makes seat 2 the host."""
    state = voted(game_at(), vote(2), 1, LATER)
    again = LATER + 100
    back = vote(2, away=again)
    state = voted(state, back, 2, again + 600)
    assert state.seats[Seat(0)].host
    events = decide(state, back, seat(1), again + 601)
    assert isinstance(events[-1], HostTakenOver) and events[-1].voters == (Seat(1), Seat(2))
    assert events[-1].host_away_since == again


def test_a_vote_from_a_log_too_old_to_say_when_it_was_cast_never_counts() -> None:
    state = game_at()
    state = dataclasses.replace(state, host_votes={Seat(1): HostVote(seat=Seat(2), at=None)})
    events = decide(state, vote(2), seat(2), LATER)
    assert events == (HostVoteCast(seat=Seat(2), for_seat=Seat(2), at=LATER, host_away_since=AWAY),)


def test_a_vote_for_a_host_can_be_changed_and_withdrawn() -> None:
    state = voted(game_at(), vote(2), 1, LATER)
    state = voted(state, vote(1), 1, LATER)
    assert state.host_votes == {Seat(1): HostVote(seat=Seat(1), at=LATER)}
    with pytest.raises(CourtError) as err:
        decide(state, vote(1), seat(1), LATER)
    assert err.value.code == "already_voted"
    events = decide(state, vote(None, away=None), seat(1), LATER)
    assert events == (HostVoteWithdrawn(seat=Seat(1)),)
    assert then_state(state, events).host_votes == {}


def test_votes_are_cleared_when_the_host_hands_the_role_over() -> None:
    state = voted(game_at(), vote(2), 1, LATER)
    state = then_state(state, when(state, HandHost(seat=Seat(1)), host(state)))
    assert state.host_votes == {}


def test_a_game_keeps_the_time_it_started() -> None:
    assert game_at(start=1234.5).started_at == 1234.5


def test_the_host_removes_a_squatter_in_the_lobby_only() -> None:
    """Given a lobby, when the host removes seat 2, then its token opens nothing, the House is
    free, and the history tells it apart from leaving; in a started game it is refused."""
    state = hosted_lobby()
    events = when(state, RemoveSeat(seat=Seat(2)), host(state))
    assert events == (SeatRemoved(seat=Seat(2), house=HouseId("tyrell"), player_name="Player 3"),)
    after = then_state(state, events)
    assert Seat(2) not in after.seats and after.seat_of_house(HouseId("tyrell")) is None
    assert actor_of(after, "2" * 64) is None
    assert sentence(after, events[0]) == (
        "The host removed Player 3 from the table, freeing House Tyrell."
    )
    with pytest.raises(CourtError) as err:
        when(hosted_game(), RemoveSeat(seat=Seat(2)), seat(0, host=True))
    assert err.value.code == "game_playing"
