"""Private games: a game is unlisted unless the host lists it; joining an unlisted game needs the
invite secret, checked against the digest creation recorded; the host lists and unlists; logs older
than invites read as listed games with no invite."""

from __future__ import annotations

import pytest

from court.audit import audit
from court.commands import (
    SPECTATOR,
    Actor,
    ChangeListing,
    CreateGame,
    JoinSeat,
    LeaveSeat,
    StartGame,
)
from court.errors import CourtError, NotAllowed
from court.events import GameCreated, GameListed, GameUnlisted, SeatJoined
from court.evolve import replay
from court.ids import HouseId
from court.log import codec
from court.model import invites
from court.options.legal import legal_commands
from court.sentences import describe
from court.views import Observer
from tests.court.chained_logs import chained, rechain
from tests.court.given import (
    GAME,
    HOST,
    INVITE,
    create_game,
    created,
    given,
    joined,
    seat,
    started,
    then_state,
    when,
)

MASTER = Actor(master=True)


def join(invite: str | None = None, house: str = "tyrell") -> JoinSeat:
    return JoinSeat(house=HouseId(house), player_name="Eve", token_sha256="e" * 64, invite=invite)


def create(listed: bool = False) -> CreateGame:
    return create_game(listed=listed)


def private_lobby() -> tuple:
    return (created(3, listed=False), joined(0, host=True), joined(1))


def test_a_new_game_is_unlisted_and_records_only_the_digest_of_its_invite() -> None:
    # when the host creates it without asking for a listing
    (event,) = when(given(), create())
    # then it is unlisted, and the invite's digest travels in the private part only
    assert isinstance(event, GameCreated) and event.listed is False
    _, public, private = codec.encode(event)
    assert public["listed"] is False and "invite_sha256" not in public
    assert private is not None and private["invite_sha256"] == invites.digest(INVITE)
    assert INVITE not in str(public) and INVITE not in str(private)
    assert then_state(given(), (event,)).listed is False


def test_a_game_created_listed_is_on_the_front_page() -> None:
    (event,) = when(given(), create(listed=True))
    assert isinstance(event, GameCreated) and event.listed is True


@pytest.mark.parametrize(
    ("invite", "code"),
    [(None, "invite_required"), ("not-the-invite", "bad_invite"), ("", "bad_invite")],
)
def test_a_stranger_cannot_join_an_unlisted_game_without_its_invite(
    invite: str | None, code: str
) -> None:
    # given an unlisted lobby with a free seat
    state = given(*private_lobby())
    # when a spectator joins with no invite, or a wrong one
    with pytest.raises(NotAllowed) as err:
        when(state, join(invite), SPECTATOR)
    # then he is refused with a code and a sentence that sends him to the host
    assert err.value.code == code
    assert "invite link" in err.value.message


def test_the_invite_opens_an_unlisted_game() -> None:
    state = given(*private_lobby())
    (event,) = when(state, join(INVITE), SPECTATOR)
    assert isinstance(event, SeatJoined) and event.house == "tyrell"


def test_a_listed_game_needs_no_invite() -> None:
    state = given(created(3, listed=True), joined(0, host=True))
    (event,) = when(state, join(None), SPECTATOR)
    assert isinstance(event, SeatJoined)


def test_the_host_needs_no_invite_to_take_a_seat() -> None:
    state = given(created(3, listed=False))
    (event,) = when(state, join(None, house="stark"), HOST)
    assert isinstance(event, SeatJoined) and event.host is True


def test_the_host_lists_and_unlists_the_game_with_a_sentence_each() -> None:
    # given an unlisted lobby
    state = given(*private_lobby())
    # when the host lists it, a stranger may join without the invite
    listed = when(state, ChangeListing(listed=True), seat(0, host=True))
    assert listed == (GameListed(),)
    after = then_state(state, listed)
    assert after.listed is True
    assert isinstance(when(after, join(None), SPECTATOR)[0], SeatJoined)
    # and when he unlists it again, the invite is needed once more
    unlisted = when(after, ChangeListing(listed=False), seat(0, host=True))
    assert unlisted == (GameUnlisted(),)
    with pytest.raises(NotAllowed):
        when(then_state(after, unlisted), join(None), SPECTATOR)
    lines = chained((*private_lobby(), *listed, *unlisted))
    told = [describe(r, after) for r in rechain(lines)[-2:]]
    assert told == [
        "Hostess listed the game on the front page: anyone may take a free seat.",
        "Hostess took the game off the front page: joining needs the invite link.",
    ]


@pytest.mark.parametrize("actor", [seat(1), SPECTATOR, MASTER])
def test_only_the_host_lists_the_game(actor: Actor) -> None:
    with pytest.raises(NotAllowed) as err:
        when(given(*private_lobby()), ChangeListing(listed=True), actor)
    assert err.value.code == "host_only"


def test_listing_twice_or_after_the_start_is_refused() -> None:
    with pytest.raises(CourtError) as err:
        when(given(*private_lobby()), ChangeListing(listed=False))
    assert err.value.code == "already_unlisted"
    with pytest.raises(CourtError) as err:
        when(given(*started(3)), ChangeListing(listed=False))
    assert err.value.code == "game_playing"


def test_a_stranger_is_offered_no_seat_of_an_unlisted_game_but_the_host_may_list_it() -> None:
    state = given(*private_lobby())
    assert legal_commands(state, SPECTATOR) == []
    host_moves = legal_commands(state, seat(0, host=True))
    assert ChangeListing(listed=True) in host_moves and LeaveSeat() in host_moves
    listed = given(created(3, listed=True), joined(0, host=True))
    assert any(isinstance(m, JoinSeat) for m in legal_commands(listed, SPECTATOR))
    assert ChangeListing(listed=False) in legal_commands(listed, seat(0, host=True))
    assert StartGame() not in legal_commands(listed, seat(0, host=True))


@pytest.mark.parametrize(
    ("viewer", "shown"),
    [
        (HOST, True),
        (seat(0, host=True), True),
        (MASTER, True),
        (seat(1), False),
        (SPECTATOR, False),
    ],
)
def test_the_invite_is_shown_to_the_host_and_the_game_master_only(
    viewer: Actor, shown: bool
) -> None:
    state = given(*private_lobby())
    view = Observer.of(viewer, state).court(state, 3)
    assert view["invite"] == (INVITE if shown else None)
    assert view["game"]["listed"] is False


def test_the_invite_is_shown_to_nobody_once_the_game_started() -> None:
    state = given(*started(3))
    assert Observer.of(HOST, state).court(state, 9)["invite"] is None


def _schema_1(lines: list[dict]) -> None:
    """GameCreated as the code of schema 1 stored it: no listing, no invite digest."""
    first = lines[0]
    assert first["type"] == "GameCreated"
    del first["data"]["listed"]
    del first["private"]["invite_sha256"]
    first["schema_version"] = 1


def test_an_old_game_reads_as_listed_with_no_invite_and_still_verifies() -> None:
    # given a log written before private games (GameCreated schema 1)
    lines = chained((created(3, listed=False), joined(0, host=True)))
    _schema_1(lines)
    log = rechain(lines)
    # when it is audited and folded
    assert audit(log).ok
    events = [codec.decode(r.type, r.schema_version, r.data, r.private) for r in log]
    state = replay(GAME, events)
    # then the game is listed, has no invite, and anyone may join it
    assert state.listed is True and state.invite_sha256 is None
    assert isinstance(when(state, join(None), SPECTATOR)[0], SeatJoined)
    assert invites.of(state) is None
    # and it cannot be made private: there is no invite to share
    with pytest.raises(CourtError) as err:
        when(state, ChangeListing(listed=False), seat(0, host=True))
    assert err.value.code == "no_invite"
    assert ChangeListing(listed=False) not in legal_commands(state, seat(0, host=True))


def test_an_old_record_with_its_private_part_withheld_still_reads() -> None:
    lines = chained((created(3),))
    _schema_1(lines)
    (record,) = rechain(lines)
    event = codec.decode(record.type, 1, record.data, None)
    assert isinstance(event, GameCreated) and event.listed is True
    assert event.invite_sha256 is None
