"""A log of a person's keys, for the golden fold: seats and the host's role gathered into keys,
a link made from a link, links dropped for each reason, and a seat handed on and a seat given up
with links standing for them."""

from __future__ import annotations

from court.commands import (
    Actor,
    AddSeatLink,
    DropSeatLink,
    HandHost,
    HandSeat,
    LeaveSeat,
    StartGame,
)
from court.events import Event
from court.ids import Seat
from tests.court.given import Table, created, joined, seat

HOST_TOKEN = "h" * 64


def by_token(token: str, table: Table) -> Actor:
    """The actor of a token as the service finds it (court/model/tokens.py)."""
    from court.model.tokens import actor_of

    actor = actor_of(table.state, token)
    assert actor is not None, token
    return actor


def seat_links() -> list[Event]:
    table = Table(created(4), joined(0), joined(1), joined(2), joined(3))
    table.act(AddSeatLink(link_sha256="a" * 64), by_token(HOST_TOKEN, table))
    table.act(AddSeatLink(link_sha256="b" * 64), by_token("1" * 64, table))
    table.act(AddSeatLink(link_sha256="c" * 64), by_token("b" * 64, table))  # from a link
    table.act(AddSeatLink(link_sha256="d" * 64), by_token("3" * 64, table))
    table.act(LeaveSeat(), by_token("3" * 64, table))  # link 4 goes with the seat
    table.add(joined(4))
    table.act(HandHost(seat=Seat(0)), by_token("a" * 64, table))  # link 1 goes with the role
    table.act(StartGame(), seat(0, host=True))
    table.act(AddSeatLink(link_sha256="e" * 64), by_token("2" * 64, table))
    table.act(AddSeatLink(link_sha256="f" * 64), by_token("0" * 64, table))
    table.act(DropSeatLink(link=5, reason="replaced"), Actor())
    table.act(DropSeatLink(link=2, reason="revoked"), Actor())  # link 3 goes with it
    table.act(AddSeatLink(link_sha256="g" * 64), by_token("2" * 64, table))
    table.act(HandSeat(seat=Seat(2), token_sha256="9" * 64), seat(0, host=True))
    table.act(DropSeatLink(link=6, reason="revoked"), Actor())
    assert table.state.links.by_token == {} and table.state.links.added == 7, table.state.links
    return table.events
