"""The host's correction of a fact he recorded (section 9, R-9.1), once proposed
(court/decide/proposals.py): accepted or refused by the seats (a strict majority), withdrawn,
and made as compensating events that set the court as the corrected fact would have, the
corrected record staying in the log (docs/rules-map.md, "The table decides together")."""

from __future__ import annotations

from court.commands import Actor, AnswerCorrection
from court.decide.compensation import compensation, holds
from court.decide.guards import require_host, require_status, require_voter
from court.errors import CourtError
from court.events import (
    CorrectionAnswered,
    CorrectionMade,
    CorrectionRefused,
    CorrectionWithdrawn,
    Event,
    GoldAdjusted,
    NobleDied,
    VillageControlChanged,
)
from court.ids import Seat
from court.model.table import Correction, majority
from court.state import CourtState, GameStatus

Fact = GoldAdjusted | VillageControlChanged | NobleDied


def require_playing(state: CourtState) -> None:
    """The table decides only in a started game that has not ended; asked once the sender's
    role is known to allow it."""
    if state.status is GameStatus.LOBBY:
        raise CourtError(
            "game_lobby",
            "Before the game starts the table votes on nothing: the host seats and removes "
            "players himself.",
        )
    require_status(state, GameStatus.PLAYING)


def answer(state: CourtState, cmd: AnswerCorrection, actor: Actor) -> tuple[Event, ...]:
    voter = require_voter(state, actor, "answer a correction")
    require_playing(state)
    table = state.table
    correction = table.correction
    if correction is None:
        raise CourtError("no_correction", "No correction is waiting for an answer.")
    if voter in table.accepted | table.refused:
        raise CourtError("already_answered", "You already answered this correction.")
    accepted, refused = set(table.accepted), set(table.refused)
    (accepted if cmd.accept else refused).add(voter)
    answered = CorrectionAnswered(seat=voter, accept=cmd.accept)
    return (answered, *settle(state, correction, accepted, refused))


def settle(
    state: CourtState, c: Correction, accepted: set[Seat], refused: set[Seat]
) -> tuple[Event, ...]:
    """What the answers so far decide: the correction made with its compensating event once
    a strict majority of the seats that count (R-9.2) accepts it, refused once it no longer
    can; nothing yet."""
    seats = len(state.counting())
    if majority(len(accepted), seats):
        holds(c, state)
        made = CorrectionMade(
            correction=c, votes=len(accepted), seats=seats, voters=tuple(sorted(accepted))
        )
        return (made, *compensation(c, state))
    if not majority(seats - len(refused), seats):
        return (
            CorrectionRefused(
                version=c.version,
                refusals=len(refused),
                seats=seats,
                voters=tuple(sorted(refused)),
            ),
        )
    return ()


def settled_now(state: CourtState) -> tuple[Event, ...]:
    """What the answers given decide once the seats that count have changed (R-9.2): the
    correction made or refused as at an answer; one that would no longer be sound stays under
    vote, for the host to withdraw."""
    table = state.table
    if table.correction is None:
        return ()
    try:
        return settle(state, table.correction, set(table.accepted), set(table.refused))
    except CourtError:
        return ()


def withdraw(state: CourtState, actor: Actor) -> tuple[Event, ...]:
    require_host(actor, "withdraw a correction")
    require_playing(state)
    correction = state.table.correction
    if correction is None:
        raise CourtError("no_correction", "No correction is waiting for an answer.")
    return (CorrectionWithdrawn(version=correction.version),)
