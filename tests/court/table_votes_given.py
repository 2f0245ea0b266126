"""A started game whose seats vote at the table (replace a player gone, end the game, accept
a correction), for the engine tests of the table's votes."""

from __future__ import annotations

from court.commands import (
    Actor,
    AnswerCorrection,
    Command,
    ProposeCorrection,
    StartGame,
    VoteToReplace,
)
from court.ids import Seat
from tests.court.fold_table import proposal
from tests.court.given import HOST, Table, created, joined, seat

START = 1000.0


AWAY = START + 100  # when seat 2's last page closed


LATER = AWAY + 600  # the game's replace_after (600 s) later


NEW = "n" * 64


HOST_SEAT = Actor(seat=Seat(0), host=True)


def table(players: int = 3) -> Table:
    """A started game whose host holds seat 0; the other seats may replace a player gone for
    600 seconds."""
    court = Table(
        created(players, table_votes__replace_after=600),
        joined(0, host=True),
        *(joined(i) for i in range(1, players)),
    )
    court.act(StartGame(), HOST, START)
    return court


def replace_vote(for_seat: int, away: float | None = AWAY) -> VoteToReplace:
    return VoteToReplace(seat=Seat(for_seat), away_since=away, token_sha256=NEW, at_version=50)


def version_of(court: Table, kind: type) -> int:
    """The version of the last record of this kind (versions count from 1)."""
    return max(i for i, e in enumerate(court.events, 1) if isinstance(e, kind))


def propose(court: Table, version: int, **value: object) -> ProposeCorrection:
    return proposal(court, version, **value)


def accepted_by(court: Table, command: Command, *voters: int) -> tuple:  # type: ignore[type-arg]
    court.act(command, HOST_SEAT)
    found: tuple = ()  # type: ignore[type-arg]
    for voter in voters:
        found = court.act(AnswerCorrection(accept=True), seat(voter))
    return found
