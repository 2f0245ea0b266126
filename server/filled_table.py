"""What the service fills into the table's votes and the host's corrections: since when a seat
has had no connection (the presence book, asked about that seat as it is about the host's),
the version of the command's first record, the digest of the link a replacement would hand
the seat to (server/table_links.py), and the corrected record read from the log."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from court.commands import Command, ProposeCorrection, VoteToReplace
from court.events import Event
from court.state import CourtState
from server.keys import InstanceSecret
from server.ports import HostPresence, token_digest
from server.replay import Head
from server.table_links import link_token

if TYPE_CHECKING:
    from server.service import CourtService


@dataclass(frozen=True, slots=True)
class Past:
    """The game's log as a correction needs it: the event recorded at a version (None past
    the head), and the court as it stood right after a version."""

    event_at: Callable[[int], Event | None]
    state_at: Callable[[int], CourtState]

    @staticmethod
    def of(service: CourtService, game_id: str) -> Past:
        def event_at(version: int) -> Event | None:
            found = service.records(game_id, after=version - 1, upto=version)
            return service.decode(found[0]) if found else None

        return Past(event_at, lambda version: service.state_at(game_id, version).state)


def filled_table(
    command: Command,
    game_id: str,
    head: Head,
    presence: HostPresence | None,
    past: Past | None,
    secret: InstanceSecret | None = None,
) -> Command:
    if isinstance(command, VoteToReplace):
        state = head.state
        away = (
            None
            if presence is None or command.seat not in state.seats
            else presence.host_away_since(game_id, command.seat, state.started_at)
        )
        at = head.version + 1
        digest = command.token_sha256
        if not digest and secret is not None:
            # The hand-over is the command's third record, should the vote make the majority.
            digest = token_digest(link_token(secret, game_id, command.seat, at + 2))
        return replace(command, away_since=away, at_version=at, token_sha256=digest)
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
