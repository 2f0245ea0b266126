"""Checks shared by many commands: who may act, and in which state of the game."""

from __future__ import annotations

from court.commands import Actor
from court.errors import CourtError, NotAllowed
from court.ids import Seat
from court.state import CourtState, GameStatus

_STATUS_SENTENCES = {
    GameStatus.NEW: "This game does not exist yet.",
    GameStatus.LOBBY: "The game has not started yet.",
    GameStatus.PLAYING: "The game has already started.",
    GameStatus.ENDED: "The game is over.",
}


def require_status(state: CourtState, *allowed: GameStatus) -> None:
    if state.status not in allowed:
        raise CourtError(f"game_{state.status.value}", _STATUS_SENTENCES[state.status])


def require_host(actor: Actor, doing: str) -> None:
    if not actor.host:
        raise NotAllowed("host_only", f"Only the host can {doing}.")


def require_recorder(actor: Actor, doing: str) -> None:
    """Section 9: the host, or the game master named at creation, records facts."""
    if not actor.recorder:
        raise NotAllowed("host_only", f"Only the host or the game master can {doing}.")


def require_seat(actor: Actor, doing: str) -> Seat:
    if actor.seat is None:
        raise NotAllowed("seat_required", f"You need a seat at the table to {doing}.")
    return actor.seat


def require_voter(state: CourtState, actor: Actor, doing: str) -> Seat:
    """R-9.2: a seat handed to a new player votes once he has opened his link and said his
    name; until then it counts for no vote."""
    seat = require_seat(actor, doing)
    info = state.seats.get(seat)
    if info is not None and info.unclaimed:
        raise CourtError(
            "seat_unclaimed",
            f"This seat was handed to a new player: say your name first (the page asks it "
            f"when you open your link), then you may {doing}.",
        )
    return seat
