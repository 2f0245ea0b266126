"""Seats following their players: the host hands a seat to a new token (a new player then
claims it under his own name, R-9.2) or the host role to another seat, removes a squatter in the
lobby; in a started game, the other seats take the host role over by a strict majority of votes
once the host has had no connection for the profile's time."""

from __future__ import annotations

from typing import assert_never

from court.commands import (
    Actor,
    AddSeatLink,
    ClaimSeat,
    DropSeatLink,
    HandHost,
    HandSeat,
    RemoveSeat,
    SeatCommand,
    VoteForHost,
)
from court.decide import bots
from court.decide.guards import require_host, require_seat, require_status, require_voter
from court.decide.links import add_seat_link, drop_seat_link
from court.errors import CourtError, NotAllowed
from court.events import (
    ClockStopped,
    Event,
    HostHandedOver,
    HostTakenOver,
    HostVoteCast,
    HostVoteWithdrawn,
    SeatClaimed,
    SeatHanded,
    SeatRemoved,
)
from court.ids import Seat
from court.model.text import clean_name
from court.model.tokens import tokens_in_use
from court.state import CourtState, GameStatus, SeatInfo


def decide_seat(
    state: CourtState, command: SeatCommand, actor: Actor, now: float
) -> tuple[Event, ...]:
    if isinstance(command, AddSeatLink):
        return add_seat_link(state, command, actor)
    if isinstance(command, DropSeatLink):
        return drop_seat_link(state, command)
    require_status(state, GameStatus.LOBBY, GameStatus.PLAYING)
    match command:
        case HandSeat():
            return hand_seat(state, command, actor, now)
        case ClaimSeat():
            return claim_seat(state, command, actor)
        case HandHost():
            return hand_host(state, command, actor)
        case VoteForHost():
            return vote_for_host(state, command, actor, now)
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


def hand_seat(state: CourtState, cmd: HandSeat, actor: Actor, now: float) -> tuple[Event, ...]:
    require_host(actor, "hand a seat to a new device or player")
    info = _seat(state, cmd.seat)
    if not cmd.token_sha256 or cmd.token_sha256 in tokens_in_use(state):
        raise CourtError("token_reused", "This seat token is already in use.")
    name = info.player_name if cmd.player_name is None else clean_name(cmd.player_name)
    return handed(state, cmd.seat, name, cmd.token_sha256, cmd.at_version, now)


def handed(
    state: CourtState, seat: Seat, name: str, token_sha256: str, at_version: int, now: float
) -> tuple[Event, ...]:
    """R-9.2: the seat goes to a new token and starts afresh, by the host's hand or the table's
    vote: a clock running for it stops first, to start again on the profile's full bank. The
    hand-over records its own version, `at_version` being that of the first record here (0:
    not known)."""
    info = state.seats[seat]
    before = _before_handing(state, seat, now)
    return (
        *before,
        SeatHanded(
            seat=seat,
            house=info.house,
            old_player_name=info.player_name,
            player_name=name,
            token_sha256=token_sha256,
            at_version=at_version + len(before) if at_version else 0,
            at=now,
        ),
    )


def _before_handing(state: CourtState, seat: Seat, now: float) -> tuple[Event, ...]:
    """What a hand-over records before the seat changes hands: a bot playing the seat stands
    down for the new player, and a clock running for it stops."""
    clock = state.running.get(seat)
    stopped = () if clock is None else (ClockStopped(seat=seat, kind=clock.kind, at=now),)
    return (*bots.stood_down(state, seat), *stopped)


def handed_version(state: CourtState, seat: Seat, first: int) -> int:
    """The version of the `SeatHanded` of a hand-over whose records start at version `first`:
    a table's link is made for it before the vote is decided (server/service/filled_table.py)."""
    return first + len(_before_handing(state, seat, 0.0))


def claim_seat(state: CourtState, cmd: ClaimSeat, actor: Actor) -> tuple[Event, ...]:
    """R-9.2: the new player of a handed seat says his own name when he opens his link; the
    seat counts again from then."""
    seat = require_seat(actor, "say your name")
    info = state.seats[seat]
    if not info.unclaimed:
        raise CourtError(
            "seat_claimed",
            f"{info.player_name} plays this seat already: only a seat handed to a new player "
            "waits for its player's name.",
        )
    name = clean_name(cmd.player_name)
    return (
        SeatClaimed(
            seat=seat, house=info.house, old_player_name=info.player_name, player_name=name
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


def vote_for_host(
    state: CourtState, cmd: VoteForHost, actor: Actor, now: float
) -> tuple[Event, ...]:
    """A seat other than the host's votes for a new host in a started game; the votes cast
    since the host's current absence began make a seat the host once they are a strict
    majority of the seats other than the host's. `cmd.host_away_since` is the server's word
    on the host's connections."""
    voter = require_voter(state, actor, "vote for a new host")
    if actor.host:
        raise NotAllowed(
            "host_cannot_vote", "You are the host: hand the host role to a seat instead."
        )
    if state.status is GameStatus.LOBBY:
        raise CourtError(
            "game_lobby",
            "Before the game starts nobody votes for a host: the host who created it hands "
            "the role on himself.",
        )
    if cmd.seat is None:
        if voter not in state.host_votes:
            raise CourtError("no_host_vote", "You have not voted for a new host.")
        return (HostVoteWithdrawn(seat=voter),)
    info = _seat(state, cmd.seat)
    if info.host:
        raise CourtError("already_host", f"{info.player_name} is the host already.")
    since = host_gone_since(state, cmd.host_away_since, now)
    counted = {v: h for v, h in state.host_votes.items() if h.at is not None and h.at >= since}
    if voter in counted and counted[voter].seat == cmd.seat:
        raise CourtError("already_voted", f"You already voted to make {info.player_name} host.")
    cast = HostVoteCast(seat=voter, for_seat=cmd.seat, at=now, host_away_since=since)
    ballots = {**{v: h.seat for v, h in counted.items()}, voter: cmd.seat}
    voters = tuple(sorted(v for v, seat in ballots.items() if seat == cmd.seat))
    electors = len(electors_of(state))
    if 2 * len(voters) <= electors:
        return (cast,)
    taken = HostTakenOver(
        from_seat=state.host_seat(),
        to_seat=cmd.seat,
        from_name=host_name(state),
        to_name=info.player_name,
        votes=len(voters),
        seats=electors,
        voters=voters,
        host_away_since=since,
    )
    return (cast, taken)


def electors_of(state: CourtState) -> tuple[Seat, ...]:
    """The seats that vote for a new host: every seat that counts (R-9.2) but the host's."""
    return tuple(s for s in state.counting() if not state.seats[s].host)


def host_gone_since(state: CourtState, away_since: float | None, now: float) -> float:
    """Since when the host has been gone, counted from the game's start at the earliest; a
    refusal while he is connected, or before he has been gone for the profile's time."""
    if away_since is None:
        raise CourtError(
            "host_present",
            "The host is connected: while he is here, only he hands the host role on.",
        )
    since = max(away_since, state.started_at)
    after = state.ruleset.profile.host_role.takeover_after
    if now - since < after:
        raise CourtError(
            "host_not_away_long",
            f"The host has been away for {span(now - since)}; the other seats may vote a new "
            f"host in once he has been away for {span(after)}.",
        )
    return since


def span(seconds: float) -> str:
    """A duration as a player reads it: whole minutes from two minutes on, else seconds."""
    whole = max(0, int(seconds))
    if whole >= 120 or (whole >= 60 and whole % 60 == 0):
        return _plural(whole // 60, "minute")
    return _plural(whole, "second")


def _plural(count: int, unit: str) -> str:
    return f"{count} {unit}{'' if count == 1 else 's'}"


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
