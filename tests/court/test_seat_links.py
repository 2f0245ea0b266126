"""The tokens a person's key hands out (court/model/links.py): a link stands for what the token it
was
made from stands for now, and for nothing once the key drops it, the seat is handed on, given up
or removed, or the token it was made from stops; a link made from a link falls with it. Links
are the server's (section 10), no rule of the game's: the table's own rule that a seat's things
belong to its player (R-9.2) is why a hand-over takes them too."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest

from court.commands import (
    Actor,
    AddSeatLink,
    DropSeatLink,
    HandHost,
    HandSeat,
    LeaveSeat,
    RemoveSeat,
    StartGame,
)
from court.decide import decide
from court.errors import CourtError
from court.events import Event, SeatHanded, SeatLinkAdded, SeatLinkDropped, SeatReplaced
from court.evolve import replay
from court.ids import Seat
from court.log import codec, snapshot
from court.log.provenance import Kind, kind_of
from court.model.links import SeatLink, SeatLinks
from court.model.tokens import actor_of, still_acting
from court.sentences import describe
from court.soundness.invariants import violations
from court.state import CourtState, GameStatus
from tests.court.given import GAME, created, given, joined, started, then_state, when
from tests.court.single_records import record_of
from tests.court.table_votes_given import HOST_SEAT, LATER, replace_vote, table

HOST_TOKEN = "h" * 64
LINK = "a" * 64
LINK_OF_LINK = "b" * 64
NEW = "n" * 64


def holder(state: CourtState, token: str) -> Actor:
    actor = actor_of(state, token)
    assert actor is not None, token
    return actor


def linked(state: CourtState, token: str, link: str = LINK) -> CourtState:
    return then_state(state, when(state, AddSeatLink(link_sha256=link), holder(state, token)))


def hosted_lobby() -> CourtState:
    return given(created(3), joined(0, host=True), joined(1), joined(2))


def game() -> CourtState:
    return given(*started(3))


def sentence(state: CourtState, event: Event) -> str:
    return describe(record_of(event), state)


def test_a_link_stands_for_the_seat_of_the_token_it_was_made_from() -> None:
    """Given a game, when a key gathers seat 1's token, then its link is link 1 of the game,
    records both digests in its private part alone, and acts as seat 1."""
    state = game()
    events = when(state, AddSeatLink(link_sha256=LINK), holder(state, "1" * 64))
    assert events == (
        SeatLinkAdded(link=1, seat=Seat(1), master=False, link_sha256=LINK, of_sha256="1" * 64),
    )
    _, public, private = codec.encode(events[0])
    assert public == {"link": 1, "seat": 1, "master": False}
    assert private == {"link_sha256": LINK, "of_sha256": "1" * 64}
    after = then_state(state, events)
    assert actor_of(after, LINK) == Actor(seat=Seat(1))
    assert holder(after, LINK).token_sha256 == LINK
    assert actor_of(after, "1" * 64) == Actor(seat=Seat(1))  # the seat's own token works on
    assert sentence(after, events[0]) == (
        "Player 2's seat (House Lannister) was gathered into a key: a device that opens the key "
        "plays it with a link of its own (link 1)."
    )
    assert kind_of("SeatLinkAdded") is Kind.BOOKKEEPING


def test_a_dropped_link_opens_nothing_and_takes_the_links_made_from_it() -> None:
    """Given seat 1's link, and a link made from that link (a device that holds it made a key
    of its own), when the first key drops its link, then both open nothing, and the seat's
    own token still plays."""
    state = linked(linked(game(), "1" * 64), LINK, LINK_OF_LINK)
    assert actor_of(state, LINK_OF_LINK) == Actor(seat=Seat(1))
    kept = holder(state, LINK_OF_LINK)  # as a connection keeps it

    events = when(state, DropSeatLink(link=1, reason="revoked"), Actor())
    after = then_state(state, events)

    assert events == (SeatLinkDropped(link=1, seat=Seat(1), reason="revoked"),)
    assert actor_of(after, LINK) is None and actor_of(after, LINK_OF_LINK) is None
    assert still_acting(after, kept) is None
    assert after.links == SeatLinks(added=2)
    assert actor_of(after, "1" * 64) == Actor(seat=Seat(1))
    assert sentence(after, events[0]) == (
        "Player 2's seat (House Lannister): link 1 of a key opens nothing now; the key was revoked."
    )


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(
            lambda s: when(
                s, HandSeat(seat=Seat(1), token_sha256=NEW), Actor(seat=Seat(0), host=True)
            ),
            id="handed",
        ),
        pytest.param(
            lambda s: when(s, RemoveSeat(seat=Seat(1)), Actor(seat=Seat(0), host=True)),
            id="removed",
        ),
        pytest.param(lambda s: when(s, LeaveSeat(), holder(s, "1" * 64)), id="left"),
    ],
)
def test_a_seat_handed_on_removed_or_given_up_drops_every_link_to_it(
    change: Callable[[CourtState], tuple[Event, ...]],
) -> None:
    """Given a lobby where a key gathered seat 1, when the host hands the seat to a new token or
    removes it, or its player leaves, then its link opens nothing and the court forgets it:
    the old player's devices do not keep the seat through his key (R-9.2)."""
    state = linked(hosted_lobby(), "1" * 64)
    after = then_state(state, change(state))
    assert actor_of(after, LINK) is None
    assert after.links.by_token == {}
    assert violations(after) == []


def test_a_link_of_the_host_token_follows_it_when_the_host_role_moves() -> None:
    """Given the host (seat 0, by his creation token) whose key gathered that token, when he
    hands the host role to seat 1, then the link, as the token, stands for seat 0 alone."""
    state = linked(hosted_lobby(), HOST_TOKEN)
    assert actor_of(state, LINK) == Actor(seat=Seat(0), host=True)
    after = then_state(state, when(state, HandHost(seat=Seat(1)), holder(state, HOST_TOKEN)))
    assert actor_of(after, LINK) == Actor(seat=Seat(0))
    assert actor_of(after, "1" * 64) == Actor(seat=Seat(1), host=True)


def test_a_link_of_a_host_without_a_seat_goes_when_he_hands_the_role_on() -> None:
    """Given a host without a seat whose key gathered his token, when he hands the host role
    to seat 1, then his token opens nothing, and neither does its link."""
    lobby = given(created(3), joined(0), joined(1))
    events = when(lobby, AddSeatLink(link_sha256=LINK), holder(lobby, HOST_TOKEN))
    state = then_state(lobby, events)
    assert actor_of(state, LINK) == Actor(host=True)
    assert sentence(state, events[0]) == (
        "The host's role was gathered into a key: a device that opens the key plays it with a "
        "link of its own (link 1)."
    )
    after = then_state(state, when(state, HandHost(seat=Seat(1)), holder(state, HOST_TOKEN)))
    assert actor_of(after, LINK) is None and after.links.by_token == {}


def test_a_link_is_no_move_a_seat_makes_and_may_be_added_after_the_end() -> None:
    """Given a game whose decree step awaits a seat, a link its key adds is the one event: the
    turn stays his, no clock or step moves. An ended game takes a link too: a key gathers its
    seat for the player to read it on another device."""
    lobby = given(*started(3)[:4])
    state = then_state(lobby, when(lobby, StartGame(), Actor(host=True)))
    assert state.decree is not None and state.decree.current is not None
    waiting = state.decree.current
    events = when(state, AddSeatLink(link_sha256=LINK), holder(state, f"{waiting}" * 64))
    assert [type(e) for e in events] == [SeatLinkAdded]
    after = then_state(state, events)
    assert after.decree == state.decree and after.running == state.running
    ended = dataclasses.replace(state, status=GameStatus.ENDED)
    added = when(ended, AddSeatLink(link_sha256=LINK), holder(ended, "2" * 64))[0]
    assert isinstance(added, SeatLinkAdded) and added.link == 1


@pytest.mark.parametrize(
    ("command", "actor", "code"),
    [
        (AddSeatLink(link_sha256=LINK), Actor(), "bad_token"),
        (AddSeatLink(link_sha256=LINK), Actor(seat=Seat(1)), "bad_token"),  # no token
        (AddSeatLink(link_sha256=LINK), Actor(seat=Seat(1), token_sha256="9" * 64), "bad_token"),
        (
            AddSeatLink(link_sha256="2" * 64),
            Actor(seat=Seat(1), token_sha256="1" * 64),
            "token_reused",
        ),
        (
            AddSeatLink(link_sha256=HOST_TOKEN),
            Actor(seat=Seat(1), token_sha256="1" * 64),
            "token_reused",
        ),
        (
            AddSeatLink(link_sha256="short"),
            Actor(seat=Seat(1), token_sha256="1" * 64),
            "token_reused",
        ),
        (DropSeatLink(link=7, reason="revoked"), Actor(), "no_seat_link"),
        (DropSeatLink(link=1, reason="because"), Actor(), "bad_reason"),
    ],
)
def test_a_link_of_nothing_or_a_drop_of_no_link_is_refused(
    command: object, actor: Actor, code: str
) -> None:
    state = linked(game(), "1" * 64, "c" * 64)
    with pytest.raises(CourtError) as refused:
        decide(state, command, actor)  # type: ignore[arg-type]
    assert refused.value.code == code and refused.value.message


def test_a_link_reused_is_refused_and_a_game_not_created_takes_none() -> None:
    state = linked(game(), "1" * 64)
    with pytest.raises(CourtError) as reused:
        decide(state, AddSeatLink(link_sha256=LINK), holder(state, "2" * 64))
    assert reused.value.code == "token_reused"
    with pytest.raises(CourtError) as new:
        decide(replay(GAME, ()), DropSeatLink(link=1, reason="revoked"), Actor())
    assert new.value.code == "game_new"


def test_a_link_standing_on_nothing_breaks_the_court() -> None:
    state = game()
    stray = SeatLinks(
        by_token={LINK: SeatLink(number=1, of_sha256="9" * 64, seat=Seat(1))}, added=1
    )
    assert violations(dataclasses.replace(state, links=stray)) == [
        "link 1 stands on a token that opens nothing in this game"
    ]
    twice = SeatLinks(
        by_token={
            LINK: SeatLink(number=1, of_sha256="1" * 64, seat=Seat(1)),
            NEW: SeatLink(number=1, of_sha256="2" * 64, seat=Seat(2)),
        },
        added=1,
    )
    assert violations(dataclasses.replace(state, links=twice)) == [
        "the links' numbers [1, 1] repeat or pass 1"
    ]


def test_a_court_with_links_comes_back_whole_from_a_snapshot() -> None:
    state = linked(linked(game(), "1" * 64), HOST_TOKEN, NEW)
    back = snapshot.from_plain(snapshot.state_to_plain(state))
    assert back == state and back.links.by_token[NEW].seat is None


def test_a_seat_the_table_replaces_drops_every_link_to_it() -> None:
    """Given seat 2 gathered into its player's key and gone for the profile's time, when the
    other seats vote to replace him (R-9.2), then the seat goes to a new token and the key's
    link opens nothing: the old player's devices do not keep the seat."""
    court = table()
    court.act(AddSeatLink(link_sha256=LINK), holder(court.state, "2" * 64))
    assert actor_of(court.state, LINK) == Actor(seat=Seat(2))
    court.act(replace_vote(2), HOST_SEAT, LATER)

    events = court.act(replace_vote(2), Actor(seat=Seat(1)), LATER + 5)

    assert [type(e) for e in events[1:3]] == [SeatReplaced, SeatHanded]
    assert actor_of(court.state, LINK) is None and court.state.links.by_token == {}
