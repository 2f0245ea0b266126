"""Seats follow the player: a seat handed to a new token, the host role handed over or taken over by
a majority of the seats, a squatter removed in the lobby."""

from __future__ import annotations

import pytest

from court.commands import Actor, HandHost, HandSeat, LeaveSeat, RemoveSeat, VoteForHost
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
from court.rules import actor_of, still_acting
from court.sentences import describe
from court.state import CourtState
from tests.court.given import (
    created,
    given,
    joined,
    seat,
    started,
    then_state,
    when,
)
from tests.court.test_sentences import record_of

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
        (VoteForHost(seat=Seat(0)), seat(1), "already_host"),
        (VoteForHost(seat=None), seat(1), "no_host_vote"),
        (VoteForHost(seat=Seat(9)), seat(1), "unknown_seat"),
        (VoteForHost(seat=Seat(2)), Actor(), "seat_required"),
    ],
)
def test_moves_of_seats_and_of_the_host_role_are_refused_with_a_reason(
    command, actor, code
) -> None:
    state = hosted_lobby()
    with pytest.raises(CourtError) as err:
        when(state, command, actor)
    assert err.value.code == code and err.value.message


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


def test_a_strict_majority_of_the_seats_takes_the_host_role_over() -> None:
    """Given a game of 3 whose host (seat 0) is gone, when seat 1 votes for seat 2, then
    nothing changes hands (1 of 3); when seat 2 votes for itself, then seat 2 is the host (2 of
    3), the votes are cleared, and the old host's token keeps his seat without host powers."""
    state = hosted_game()
    first = when(state, VoteForHost(seat=Seat(2)), seat(1))
    assert first == (HostVoteCast(seat=Seat(1), for_seat=Seat(2)),)
    state = then_state(state, first)
    assert state.host_votes == {Seat(1): Seat(2)}
    second = when(state, VoteForHost(seat=Seat(2)), seat(2))
    assert second[1] == HostTakenOver(
        from_seat=Seat(0),
        to_seat=Seat(2),
        from_name="Player 1",
        to_name="Player 3",
        votes=2,
        seats=3,
    )
    state = then_state(state, second)
    assert state.host_votes == {}
    assert actor_of(state, "2" * 64) == Actor(seat=Seat(2), host=True)
    assert actor_of(state, HOST_TOKEN) == Actor(seat=Seat(0))
    assert sentence(state, second[1]) == (
        "Player 3 became the host in place of Player 1, by the votes of 2 of the 3 seats."
    )


def test_a_vote_for_a_host_can_be_changed_and_withdrawn() -> None:
    state = hosted_game()
    state = then_state(state, when(state, VoteForHost(seat=Seat(2)), seat(1)))
    state = then_state(state, when(state, VoteForHost(seat=Seat(1)), seat(1)))
    assert state.host_votes == {Seat(1): Seat(1)}
    with pytest.raises(CourtError) as err:
        when(state, VoteForHost(seat=Seat(1)), seat(1))
    assert err.value.code == "already_voted"
    events = when(state, VoteForHost(seat=None), seat(1))
    assert events == (HostVoteWithdrawn(seat=Seat(1)),)
    assert then_state(state, events).host_votes == {}


def test_votes_are_cleared_when_the_host_hands_the_role_over() -> None:
    state = hosted_lobby()
    state = then_state(state, when(state, VoteForHost(seat=Seat(2)), seat(1)))
    state = then_state(state, when(state, HandHost(seat=Seat(1)), host(state)))
    assert state.host_votes == {}


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
