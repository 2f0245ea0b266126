"""What the service fills into the table's votes and the host's corrections: since when a seat
has had no connection (the presence book, asked about that seat as it is about the host's),
the version of the command's first record, the digest of the link a replacement would hand
the seat to (server/service/table_links.py), and the corrected record read from the log."""

from __future__ import annotations

from dataclasses import replace
from typing import Protocol

from court.commands import Command, ProposeCorrection, VoteToReplace
from court.decide.seats import handed_version
from court.events import Event
from court.log.chain import Record
from court.state import CourtState
from server.keys import InstanceSecret
from server.service.ports import HostPresence, token_digest
from server.service.replay import Head
from server.service.table_links import link_token


class Readable(Protocol):
    """What a `Past` reads of a game: the court service's reads of its records and states."""

    def records(self, game_id: str, *, after: int = 0, upto: int | None = None) -> list[Record]: ...
    def decode(self, record: Record) -> Event: ...
    def state_at(self, game_id: str, version: int) -> Head: ...


class Past:
    """The game's log as a correction needs it: the event recorded at a version (None past
    the head), the events after a version up to another, and the court as it stood right
    after a version; and as a signed move needs it: the hash a version ends on (None past the
    head). Made for every command and read by few: it reads nothing until asked."""

    __slots__ = ("_game_id", "_service")

    def __init__(self, service: Readable, game_id: str) -> None:
        self._service = service
        self._game_id = game_id

    def event_at(self, version: int) -> Event | None:
        found = self._service.records(self._game_id, after=version - 1, upto=version)
        return self._service.decode(found[0]) if found else None

    def events_between(self, after: int, upto: int) -> tuple[Event, ...]:
        found = self._service.records(self._game_id, after=after, upto=upto)
        return tuple(self._service.decode(record) for record in found)

    def state_at(self, version: int) -> CourtState:
        return self._service.state_at(self._game_id, version).state

    def hash_at(self, version: int) -> str | None:
        found = self._service.records(self._game_id, after=version - 1, upto=version)
        return found[0].hash if found else None


def filled_table(
    command: Command,
    game_id: str,
    head: Head,
    presence: HostPresence | None,
    past: Past | None,
    first: int,
    secret: InstanceSecret | None = None,
) -> Command:
    if isinstance(command, VoteToReplace):
        state = head.state
        away = (
            None
            if presence is None or command.seat not in state.seats
            else presence.host_away_since(game_id, command.seat, state.started_at)
        )
        at = first
        digest = command.token_sha256
        if not digest and secret is not None:
            # The hand-over's records follow the vote's and the replacement's, should the vote
            # make the majority; the link is made for the version its SeatHanded will hold.
            handed_at = handed_version(state, command.seat, at + 2)
            digest = token_digest(link_token(secret, game_id, command.seat, handed_at))
        return replace(command, away_since=away, at_version=at, token_sha256=digest)
    if isinstance(command, ProposeCorrection) and past is not None:
        return _correction(command, head, past)
    return command


def _correction(command: ProposeCorrection, head: Head, past: Past) -> ProposeCorrection:
    """The record a correction names, the one before it and the court before it, and every
    record since: the engine judges what followed from it (court/decide/followed.py). The
    first record, the game's creation, has none before it."""
    version = command.version
    if not 1 <= version <= head.version:
        return replace(command, recorded=None, head=head.version)
    first = version == 1
    return replace(
        command,
        recorded=past.event_at(version),
        before=None if first else past.event_at(version - 1),
        court_before=None if first else past.state_at(version - 1),
        later=past.events_between(version, head.version),
        head=head.version,
    )
