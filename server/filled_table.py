"""What the service fills into the table's votes and the host's corrections: since when a seat
has had no connection (the presence book, asked about that seat as it is about the host's),
the version of the command's first record, and the corrected record read from the log."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from court.commands import Command, ProposeCorrection, VoteToReplace
from court.events import Event
from court.state import CourtState
from server.ports import HostPresence
from server.replay import Head

if TYPE_CHECKING:
    from server.service import CourtService


@dataclass(frozen=True, slots=True)
class Past:
    """The game's log as a correction needs it: the event recorded at a version (None past
    the head), and the court as it stood right after a version; and as a signed move needs
    it: the hash a version ends on (None past the head)."""

    event_at: Callable[[int], Event | None]
    state_at: Callable[[int], CourtState]
    hash_at: Callable[[int], str | None]

    @staticmethod
    def of(service: CourtService, game_id: str) -> Past:
        def event_at(version: int) -> Event | None:
            found = service.records(game_id, after=version - 1, upto=version)
            return service.decode(found[0]) if found else None

        def hash_at(version: int) -> str | None:
            found = service.records(game_id, after=version - 1, upto=version)
            return found[0].hash if found else None

        return Past(event_at, lambda version: service.state_at(game_id, version).state, hash_at)


def filled_table(
    command: Command,
    game_id: str,
    head: Head,
    presence: HostPresence | None,
    past: Past | None,
    first: int,
) -> Command:
    if isinstance(command, VoteToReplace):
        state = head.state
        away = (
            None
            if presence is None or command.seat not in state.seats
            else presence.host_away_since(game_id, command.seat, state.started_at)
        )
        return replace(command, away_since=away, at_version=first)
    if isinstance(command, ProposeCorrection) and past is not None:
        version = command.version
        if not 2 <= version <= head.version:
            return replace(command, recorded=None)
        recorded = past.event_at(version)
        noble = getattr(recorded, "noble", None)
        before = past.state_at(version - 1).nobles.get(noble) if noble else None
        return replace(
            command, recorded=recorded, before=past.event_at(version - 1), noble_before=before
        )
    return command
