"""Game setup: creating a game, taking seats, starting (R-1.1, R-1.2, R-2.2)."""

from __future__ import annotations

import pytest

from court.commands import SPECTATOR, Actor, CreateGame, JoinSeat, LeaveSeat, StartGame
from court.errors import CourtError, NotAllowed
from court.events import GameCreated, GameStarted, RoundStarted, SeatJoined, SeatLeft
from court.ids import GameId, HouseId, Seat
from court.model import dice
from court.model.ruleset import Gender
from court.model.tokens import still_acting
from court.state import GameStatus, Phase
from tests.court.given import (
    HOST,
    created,
    given,
    joined,
    lobby,
    ruleset,
    seat,
    started,
    then_state,
    when,
)


def create(players: int = 4, **kw: object) -> CreateGame:
    return CreateGame(
        game_id=GameId("g1"),
        ruleset=ruleset(),
        players=players,
        host_name="Hostess",
        host_token_sha256="h" * 64,
        dice_seed="s33d",
        **kw,  # type: ignore[arg-type]
    )


def test_a_created_game_records_its_whole_ruleset_and_commits_the_dice_seed() -> None:
    # given a fresh game id
    state = given()
    # when the host creates a 4-player game
    (event,) = when(state, create(4))
    # then the event holds profile, map, roster and titles, and the seed's SHA-256
    assert isinstance(event, GameCreated)
    assert set(event.ruleset) == {"profile", "map", "roster", "titles"}
    assert event.dice_seed_sha256 == dice.commitment("s33d")
    assert then_state(state, (event,)).status is GameStatus.LOBBY


@pytest.mark.parametrize("players", [0, 1, 2, 7, 12])
def test_a_game_has_three_to_six_players(players: int) -> None:
    """R-1.1: 3 to 6 players."""
    with pytest.raises(CourtError) as err:
        when(given(), create(players))
    assert err.value.code == "bad_player_count"
    assert "R-1.1" in err.value.message


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_every_allowed_player_count_creates_a_game(players: int) -> None:
    (event,) = when(given(), create(players))
    assert isinstance(event, GameCreated) and event.players == players


def test_variants_chosen_at_creation_are_written_into_the_recorded_profile() -> None:
    (event,) = when(
        given(),
        create(
            variants={"nights_watch": True, "title_concession": True},
            deadlines={"ballot": 90},
        ),
    )
    assert isinstance(event, GameCreated)
    profile = event.ruleset["profile"]
    assert profile["variants"]["nights_watch"] is True
    assert profile["variants"]["title_concession"] is True
    assert profile["deadlines"]["ballot"] == 90


def test_the_court_follows_the_profile_recorded_in_the_first_event() -> None:
    """The first event carries the rules: replay never reads today's config (R-2.2)."""
    (event,) = when(given(), create(3))
    assert isinstance(event, GameCreated)
    event.ruleset["profile"]["treasury"]["starting"] = 7
    assert ruleset()["profile"]["treasury"]["starting"] != 7
    state = given(event, joined(0), joined(1), joined(2))
    state = then_state(state, when(state, StartGame(), HOST))
    assert set(state.treasury.values()) == {7}


@pytest.mark.parametrize(
    ("kw", "code"),
    [
        ({"variants": {"dragons": True}}, "unknown_variants"),
        ({"deadlines": {"lunch": 5}}, "unknown_deadlines"),
        ({"deadlines": {"ballot": -1}}, "bad_deadline"),
        ({"first_player_seat": 4}, "bad_first_player"),
        ({"first_player_seat": -1}, "bad_first_player"),
    ],
)
def test_bad_creation_choices_are_refused(kw: dict, code: str) -> None:
    with pytest.raises(CourtError) as err:
        when(given(), create(4, **kw))
    assert err.value.code == code


def test_a_game_cannot_be_created_twice() -> None:
    with pytest.raises(CourtError) as err:
        when(given(created()), create(3))
    assert err.value.code == "game_exists"


def test_a_player_takes_the_next_seat_and_his_house() -> None:
    state = given(*lobby(4, seated=2))
    (event,) = when(
        state,
        JoinSeat(house=HouseId("martell"), player_name="  Dora  ", token_sha256="t" * 64),
        SPECTATOR,
    )
    assert event == SeatJoined(
        seat=Seat(2),
        house=HouseId("martell"),
        player_name="Dora",
        host=False,
        token_sha256="t" * 64,
    )


def test_the_host_joining_is_marked_as_the_host_seat() -> None:
    (event,) = when(
        given(created()),
        JoinSeat(house=HouseId("stark"), player_name="Hostess", token_sha256="t" * 64),
        HOST,
    )
    assert isinstance(event, SeatJoined) and event.host


@pytest.mark.parametrize(
    ("events", "house", "actor", "code"),
    [
        (lobby(3, seated=1), "stark", SPECTATOR, "house_taken"),
        (lobby(3, seated=1), "wildlings", SPECTATOR, "unknown_house"),
        (lobby(3, seated=3), "martell", SPECTATOR, "game_full"),
        (lobby(3, seated=1), "martell", seat(0), "already_seated"),
        (started(3), "martell", SPECTATOR, "game_playing"),
        ((), "stark", SPECTATOR, "game_new"),
    ],
)
def test_a_seat_is_refused_when_it_cannot_be_taken(events, house, actor, code) -> None:
    with pytest.raises(CourtError) as err:
        when(given(*events), JoinSeat(house=house, player_name="Eve", token_sha256="e" * 64), actor)
    assert err.value.code == code


@pytest.mark.parametrize("name", ["", "   ", "x" * 41])
def test_a_player_name_has_one_to_forty_characters(name: str) -> None:
    with pytest.raises(CourtError) as err:
        when(given(created()), JoinSeat(house="stark", player_name=name, token_sha256="e" * 64))
    assert err.value.code == "bad_name"


def test_leaving_frees_the_seat_and_the_house_for_someone_else() -> None:
    state = given(*lobby(3, seated=2))
    state = then_state(state, when(state, LeaveSeat(), seat(0)))
    assert Seat(0) not in state.seats
    (event,) = when(state, JoinSeat(house="stark", player_name="New", token_sha256="n" * 64))
    # a seat number is never given twice: the leaver's private records stay his
    assert isinstance(event, SeatJoined) and event.house == "stark" and event.seat == 2
    state = then_state(state, (event,))
    assert sorted(state.seats) == [1, 2]
    state = then_state(
        state, when(state, JoinSeat(house="martell", player_name="M", token_sha256="m" * 64))
    )
    state = then_state(state, when(state, StartGame()))
    assert state.seat_order == (1, 2, 3) and state.first_player == 1


def test_a_spectator_has_no_seat_to_leave_and_nobody_leaves_a_running_game() -> None:
    with pytest.raises(NotAllowed):
        when(given(*lobby(3, seated=2)), LeaveSeat(), SPECTATOR)
    with pytest.raises(CourtError) as err:
        when(given(*started(3)), LeaveSeat(), seat(1))
    assert err.value.code == "game_playing"
    assert isinstance(when(given(*lobby(3, 2)), LeaveSeat(), seat(1))[0], SeatLeft)


def test_only_the_host_starts_the_game() -> None:
    with pytest.raises(NotAllowed) as err:
        when(given(*lobby(3)), StartGame(), seat(1))
    assert err.value.code == "host_only"


def test_the_game_starts_only_with_every_seat_filled() -> None:
    with pytest.raises(CourtError) as err:
        when(given(*lobby(4, seated=3)), StartGame())
    assert err.value.code == "seats_not_filled"


def test_starting_seats_the_houses_with_their_nobles_and_treasury() -> None:
    """R-1.2: 5 Lords and 3 Ladies a House; R-2.2: the starting treasury of the profile."""
    state = given(*lobby(3))
    events = when(state, StartGame())
    assert events[:2] == (
        GameStarted(seat_order=(0, 1, 2), first_player=Seat(0)),
        RoundStarted(round=1, first_player=Seat(0)),
    )
    state = then_state(state, events)
    assert state.status is GameStatus.PLAYING and state.round == 1
    # phase 1 begins with the marriages, every player in turn order
    assert state.phase is Phase.DECREES
    assert state.decree is not None and state.decree.id == "marriages"
    assert state.decree.order == (0, 1, 2)
    for house in ("stark", "lannister", "tyrell"):
        nobles = [n for n in state.nobles.values() if n.house == house]
        assert sum(n.gender is Gender.LORD for n in nobles) == 5
        assert sum(n.gender is Gender.LADY for n in nobles) == 3
        assert state.treasury[house] == 10
    assert set(state.treasury) == {"stark", "lannister", "tyrell"}


def test_turn_order_starts_from_the_first_player_clockwise() -> None:
    """R-1.1: in turn order means from the First Player, clockwise."""
    state = given(created(4, players__first_player_seat=2), *(joined(i) for i in range(4)))
    state = then_state(
        state, when(state, StartGame(seat_order=(Seat(2), Seat(0), Seat(3), Seat(1))))
    )
    assert state.seat_order == (2, 0, 3, 1)
    assert state.first_player == 3
    assert state.turn_order() == (3, 1, 2, 0)


def test_the_first_player_seat_chosen_at_creation_holds_the_marker() -> None:
    """R-1.1 [D]: the First Player starts at a place of the seat order chosen at creation."""
    (event,) = when(given(), create(3, first_player_seat=2))
    state = given(event, joined(0), joined(1), joined(2))
    state = then_state(state, when(state, StartGame()))
    assert state.first_player == 2
    assert state.turn_order() == (2, 0, 1)
    state = given(event, joined(0), joined(1), joined(2))
    state = then_state(state, when(state, StartGame(seat_order=(Seat(1), Seat(2), Seat(0)))))
    assert state.first_player == 0 and state.turn_order() == (0, 1, 2)


@pytest.mark.parametrize("order", [(0, 1), (0, 1, 1), (0, 1, 5), (0, 1, 2, 3)])
def test_the_seat_order_names_every_seat_once(order: tuple[int, ...]) -> None:
    with pytest.raises(CourtError) as err:
        when(given(*lobby(3)), StartGame(seat_order=tuple(Seat(s) for s in order)))
    assert err.value.code == "bad_seat_order"


def test_a_game_cannot_start_twice() -> None:
    with pytest.raises(CourtError) as err:
        when(given(*started(3)), StartGame())
    assert err.value.code == "game_playing"


def test_a_seat_given_up_acts_no_more_and_its_host_stays_the_host() -> None:
    """Given a lobby where the host (seat 0) and seat 1 gave up their seats, when each is
    checked against the game as it now stands, then the host acts as the host without a
    seat, seat 1 acts as nobody, and seats still held act as they are (R-1.1: a seat's
    number is never given again)."""
    state = given(*lobby(3, seated=3))
    state = then_state(state, when(state, LeaveSeat(), seat(0, host=True)))
    state = then_state(state, when(state, LeaveSeat(), seat(1)))

    assert still_acting(state, seat(0, host=True)) == Actor(host=True)
    assert still_acting(state, seat(1)) is None
    assert still_acting(state, seat(2)) == seat(2)
    assert still_acting(state, SPECTATOR) == SPECTATOR
    assert still_acting(state, Actor(master=True)) == Actor(master=True)
