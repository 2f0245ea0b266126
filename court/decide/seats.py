"""Seats following their players: the host hands a seat to a new token or the host role to
another seat, removes a squatter in the lobby; the seats take the host role over by a strict
majority of votes when the host is gone."""

from __future__ import annotations

from typing import assert_never

from court.commands import Actor, HandHost, HandSeat, RemoveSeat, SeatCommand, VoteForHost
from court.decide.guards import require_host, require_seat, require_status
from court.errors import CourtError, NotAllowed
from court.events import (
    Event,
    HostHandedOver,
    HostTakenOver,
    HostVoteCast,
    HostVoteWithdrawn,
    SeatHanded,
    SeatRemoved,
)
from court.ids import Seat
from court.state import CourtState, GameStatus, SeatInfo
from court.text import clean_name


def decide_seat(state: CourtState, command: SeatCommand, actor: Actor) -> tuple[Event, ...]:
    require_status(state, GameStatus.LOBBY, GameStatus.PLAYING)
    match command:
        case HandSeat():
            return hand_seat(state, command, actor)
        case HandHost():
            return hand_host(state, command, actor)
        case VoteForHost():
            return vote_for_host(state, command, actor)
        case RemoveSeat():
            return remove_seat(state, command, actor)
        case _:
            assert_never(command)


def _seat(state: CourtState, seat: Seat) -> SeatInfo:
    info = state.seats.get(seat)
    if info is None:
        raise CourtError("unknown_seat", f"Nobody holds seat {seat + 1} in this game.")
    return info


def host_name(state: CourtState) -> str:
    """The host's name: the host seat's player, or the name the game was created with."""
    seat = state.host_seat()
    return state.seats[seat].player_name if seat is not None else state.host_name


def tokens_in_use(state: CourtState) -> set[str]:
    """Every token digest that opens something in this game."""
    found = {state.host_token_sha256, state.game_master_token_sha256 or ""}
    for info in state.seats.values():
        found |= {info.token_sha256, info.former_host_token_sha256}
    return found - {""}


def hand_seat(state: CourtState, cmd: HandSeat, actor: Actor) -> tuple[Event, ...]:
    require_host(actor, "hand a seat to a new device or player")
    info = _seat(state, cmd.seat)
    if not cmd.token_sha256 or cmd.token_sha256 in tokens_in_use(state):
        raise CourtError("token_reused", "This seat token is already in use.")
    name = info.player_name if cmd.player_name is None else clean_name(cmd.player_name)
    return (
        SeatHanded(
            seat=cmd.seat,
            house=info.house,
            old_player_name=info.player_name,
            player_name=name,
            token_sha256=cmd.token_sha256,
        ),
    )


def hand_host(state: CourtState, cmd: HandHost, actor: Actor) -> tuple[Event, ...]:
    require_host(actor, "hand the host role to another seat")
    info = _seat(state, cmd.seat)
    if info.host:
        raise CourtError("already_host", f"{info.player_name} is the host already.")
    return (
        HostHandedOver(
            from_seat=state.host_seat(),
            to_seat=cmd.seat,
            from_name=host_name(state),
            to_name=info.player_name,
        ),
    )


def vote_for_host(state: CourtState, cmd: VoteForHost, actor: Actor) -> tuple[Event, ...]:
    voter = require_seat(actor, "vote for a new host")
    if actor.host:
        raise NotAllowed(
            "host_cannot_vote", "You are the host: hand the host role to a seat instead."
        )
    if cmd.seat is None:
        if voter not in state.host_votes:
            raise CourtError("no_host_vote", "You have not voted for a new host.")
        return (HostVoteWithdrawn(seat=voter),)
    info = _seat(state, cmd.seat)
    if info.host:
        raise CourtError("already_host", f"{info.player_name} is the host already.")
    if state.host_votes.get(voter) == cmd.seat:
        raise CourtError("already_voted", f"You already voted to make {info.player_name} host.")
    cast = HostVoteCast(seat=voter, for_seat=cmd.seat)
    votes = sum(1 for v in {**state.host_votes, voter: cmd.seat}.values() if v == cmd.seat)
    if 2 * votes <= len(state.seats):
        return (cast,)
    taken = HostTakenOver(
        from_seat=state.host_seat(),
        to_seat=cmd.seat,
        from_name=host_name(state),
        to_name=info.player_name,
        votes=votes,
        seats=len(state.seats),
    )
    return (cast, taken)


def remove_seat(state: CourtState, cmd: RemoveSeat, actor: Actor) -> tuple[Event, ...]:
    require_host(actor, "remove a player")
    require_status(state, GameStatus.LOBBY)
    info = _seat(state, cmd.seat)
    if cmd.seat == actor.seat or info.host:
        raise CourtError("remove_self", "To give up your own seat, leave it.")
    return (SeatRemoved(seat=cmd.seat, house=info.house, player_name=info.player_name),)


def require_host_stays(state: CourtState, seat: Seat) -> None:
    """A host seat may leave only while the host token of the game's creation still holds the
    host role without it: otherwise the game would have no host."""
    if state.seats[seat].host and not state.host_token_sha256:
        raise CourtError(
            "host_must_hand_over",
            "Hand the host role to another seat before you leave: the game needs a host.",
        )
