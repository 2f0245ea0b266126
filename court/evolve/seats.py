"""Folding the events of seats moving between players and devices and of the host role
changing hands."""

from __future__ import annotations

import dataclasses

from court.events.seats import (
    HostHandedOver,
    HostTakenOver,
    HostVoteCast,
    HostVoteWithdrawn,
    SeatClaimed,
    SeatHanded,
    SeatLinkAdded,
    SeatLinkDropped,
    SeatRemoved,
)
from court.evolve.base import Handlers, replace
from court.evolve.devices import without_keys
from court.ids import Seat
from court.model.devices import seat_holder
from court.model.links import SeatLink, SeatLinks
from court.model.table import TableVotes
from court.model.tokens import own_tokens
from court.state import CourtState, HostVote


def sealed_by(state: CourtState, seat: Seat) -> frozenset[str]:
    """The commitments of the seat's markers in the election under way and of its bid in the
    council seat's sale: what it keeps sealed until the reveal."""
    markers = state.election.placements.get(seat, ()) if state.election else ()
    bid = state.auction.bids.get(seat) if state.auction else None
    return frozenset(m.commitment for m in markers) | ({bid.commitment} if bid else set())


def _seat_handed(state: CourtState, e: SeatHanded) -> CourtState:
    """The seat's tokens are replaced by the new one; the host token stood for the host seat,
    so it stops too: the host role goes with the seat to its new token. What the seat keeps
    sealed now stays its old holder's. A fresh hand-over (R-9.2) drops every vote and answer
    the seat cast and the votes to replace it, gives it the profile's full clock banks, and
    leaves it uncounted until its new player claims it; the old player's devices' keys go."""
    info = state.seats[e.seat]
    state = without_keys(state, seat_holder(e.seat))
    seats = {
        **state.seats,
        e.seat: dataclasses.replace(
            info,
            player_name=e.player_name,
            token_sha256=e.token_sha256,
            former_host_token_sha256="",
            handed_at=e.at_version,
            withheld=sealed_by(state, e.seat),
            unclaimed=e.fresh,
        ),
    }
    votes = {v: s for v, s in state.host_votes.items() if v != e.seat}
    table = without_votes_of(state.table, e.seat) if e.fresh else state.table
    if e.at:  # the new player's absence counts from the hand-over (0.0: not recorded)
        table = dataclasses.replace(table, replaced_at={**table.replaced_at, e.seat: e.at})
    # The table's replacement is recorded just before its hand-over; any other is the host's.
    voters = table.handing.get(e.seat)
    others = {s: v for s, v in table.replaced_by.items() if s != e.seat}
    table = dataclasses.replace(
        table, replaced_by={**others, e.seat: voters} if voters else others, handing={}
    )
    banks = {s: b for s, b in state.banks.items() if s != e.seat} if e.fresh else state.banks
    state = replace(state, seats=seats, host_votes=votes, table=table, banks=banks)
    if not info.host:
        return links_standing(state)
    return links_standing(replace(state, host_token_sha256="", host_name=e.player_name))


def without_votes_of(table: TableVotes, seat: Seat) -> TableVotes:
    """The table's votes with none cast by `seat` and none to replace it (R-9.2)."""
    replace_votes = {
        target: {v: at for v, at in voters.items() if v != seat}
        for target, voters in table.replace.items()
        if target != seat
    }
    return dataclasses.replace(
        table,
        replace={target: voters for target, voters in replace_votes.items() if voters},
        for_bot=frozenset(pair for pair in table.for_bot if seat not in pair),
        end=table.end - {seat},
        accepted=table.accepted - {seat},
        refused=table.refused - {seat},
    )


def links_standing(state: CourtState) -> CourtState:
    """The court without the keys' links that stand on a token that opens nothing now (a seat
    handed on, given up or removed, a host token without the host role or a seat): the old
    player's devices do not keep the seat through a key."""
    if not state.links.by_token:
        return state
    links = state.links.standing_on(own_tokens(state))
    return state if links is state.links else replace(state, links=links)


def _seat_claimed(state: CourtState, e: SeatClaimed) -> CourtState:
    info = dataclasses.replace(state.seats[e.seat], player_name=e.player_name, unclaimed=False)
    return replace(state, seats={**state.seats, e.seat: info})


def host_moved(state: CourtState, from_seat: Seat | None, to_seat: Seat) -> CourtState:
    """The host role moves to `to_seat`. The host token of the game's creation carries no
    host powers from now on: it stays the token of the old host's seat, if he has one."""
    seats = dict(state.seats)
    if from_seat is not None:
        old = seats[from_seat]
        kept = old.former_host_token_sha256 or state.host_token_sha256
        seats[from_seat] = dataclasses.replace(old, host=False, former_host_token_sha256=kept)
    seats[to_seat] = dataclasses.replace(seats[to_seat], host=True)
    moved = replace(
        state,
        seats=seats,
        host_token_sha256="",
        host_name=seats[to_seat].player_name,
        host_votes={},
    )
    return links_standing(without_keys(moved, "host"))


def _host_handed_over(state: CourtState, e: HostHandedOver) -> CourtState:
    return host_moved(state, e.from_seat, e.to_seat)


def _host_taken_over(state: CourtState, e: HostTakenOver) -> CourtState:
    return host_moved(state, e.from_seat, e.to_seat)


def _host_vote_cast(state: CourtState, e: HostVoteCast) -> CourtState:
    vote = HostVote(seat=e.for_seat, at=e.at)
    return replace(state, host_votes={**state.host_votes, e.seat: vote})


def _host_vote_withdrawn(state: CourtState, e: HostVoteWithdrawn) -> CourtState:
    return replace(state, host_votes={v: s for v, s in state.host_votes.items() if v != e.seat})


def without_seat(state: CourtState, seat: Seat) -> CourtState:
    """The seat is free again, no vote for a host is by it or for it, and no key's link or
    device's key stands for it."""
    freed = replace(
        state,
        seats={s: i for s, i in state.seats.items() if s != seat},
        host_votes={v: h for v, h in state.host_votes.items() if seat not in (v, h.seat)},
    )
    return links_standing(without_keys(freed, seat_holder(seat)))


def _seat_removed(state: CourtState, e: SeatRemoved) -> CourtState:
    return without_seat(state, e.seat)


def _seat_link_added(state: CourtState, e: SeatLinkAdded) -> CourtState:
    link = SeatLink(number=e.link, of_sha256=e.of_sha256, seat=e.seat)
    added = max(state.links.added, e.link)
    links = SeatLinks(by_token={**state.links.by_token, e.link_sha256: link}, added=added)
    return replace(state, links=links)


def _seat_link_dropped(state: CourtState, e: SeatLinkDropped) -> CourtState:
    """The link goes, and every link made from it with it."""
    kept = {t: k for t, k in state.links.by_token.items() if k.number != e.link}
    links = SeatLinks(by_token=kept, added=state.links.added)
    return links_standing(replace(state, links=links))


HANDLERS: Handlers = {
    SeatHanded: _seat_handed,
    SeatClaimed: _seat_claimed,
    HostHandedOver: _host_handed_over,
    HostTakenOver: _host_taken_over,
    HostVoteCast: _host_vote_cast,
    HostVoteWithdrawn: _host_vote_withdrawn,
    SeatRemoved: _seat_removed,
    SeatLinkAdded: _seat_link_added,
    SeatLinkDropped: _seat_link_dropped,
}
