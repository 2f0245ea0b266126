"""The talk service: table talk and whispers said, stored in their own chained table
(server/store/talk.py) and read back by their parties alone.

Adapters (Socket.IO, HTTP, the export) call only this module for talk. Each line is chained
to its channel's newest and signed with the server's key (server/keys/signing.py) under one
lock of this process; another process saying a line in the
same channel at the same moment makes the store refuse the second number, and the line is
chained again. A sender may say LIMITS' lines per window (counted in this process's memory).
No line's text is ever logged.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Protocol

from court import talk
from court.commands import Actor
from court.errors import ConcurrencyError, Conflict, CourtError
from court.talk import ChannelCheck, Said, TalkLine
from server.keys.signing import talk_message
from server.service.court_service import CourtService
from server.service.ports import iso_time
from server.store.failures import DATABASE_ERRORS, log_failure

log = logging.getLogger("small_council.talk")

# (lines, seconds): a sender says at most this many lines in any window this long.
LIMITS = ((5, 10.0), (60, 600.0))
RETRIES = 5


class TooFast(CourtError):
    """Talk faster than its limit allows."""


class TalkStore(Protocol):
    def add(self, line: TalkLine) -> TalkLine: ...
    def channel_head(self, game_id: str, channel: str) -> talk.ChannelHead | None: ...
    def last_position(self, game_id: str) -> int: ...
    def lines_of(
        self,
        game_id: str,
        channels: Sequence[str] | None,
        *,
        after: int = 0,
        limit: int | None = None,
        whispers_from: int = 0,
    ) -> list[TalkLine]: ...


class RateLimit:
    """The times of each sender's recent lines, against every window of `limits`."""

    def __init__(self, limits: Sequence[tuple[int, float]], clock: Callable[[], float]) -> None:
        self.limits = limits
        self.clock = clock
        self._said: dict[tuple[str, str], deque[float]] = {}
        self._lock = threading.Lock()

    def take(self, game_id: str, sender: str) -> None:
        """Count one line of the sender now, or refuse it with `talk_too_fast`."""
        now = self.clock()
        longest = max(seconds for _, seconds in self.limits)
        with self._lock:
            said = self._said.setdefault((game_id, sender), deque())
            while said and said[0] <= now - longest:
                said.popleft()
            for most, seconds in self.limits:
                recent = [t for t in said if t > now - seconds]
                if len(recent) >= most:
                    wait = max(1, math.ceil(recent[0] + seconds - now))
                    raise TooFast(
                        "talk_too_fast",
                        f"You are talking too fast: at most {most} lines in "
                        f"{seconds:g} seconds. Wait {wait} s.",
                    )
            said.append(now)


class TalkService:
    """Say at the table, whisper, read one's own channels and check their chains."""

    def __init__(
        self,
        store: TalkStore,
        court: CourtService,
        *,
        clock: Callable[[], float] = time.time,
        limits: Sequence[tuple[int, float]] = LIMITS,
    ) -> None:
        self.store = store
        self.court = court
        self.clock = clock
        self.rate = RateLimit(limits, clock)
        self.publishers: list[Callable[[TalkLine], None]] = []
        self._lock = threading.Lock()

    def say(self, game_id: str, actor: Actor, text: str) -> TalkLine:
        """A line at the table, heard by every seat and the game master."""
        state = self.court.latest(game_id).state
        sender = talk.speaker(actor)
        recipients = tuple(p for p in talk.parties(state) if p != sender)
        return self._said(game_id, talk.TABLE, sender, recipients, text)

    def whisper(self, game_id: str, actor: Actor, to: int | str, text: str) -> TalkLine:
        """A line heard by the sender and `to` (a seat number or "master") alone; a line that
        cannot be said is refused as such before whom it goes to is asked."""
        state = self.court.latest(game_id).state
        sender = talk.speaker(actor)
        talk.clean_talk(text)
        party = talk.addressee(sender, to, state)
        return self._said(game_id, talk.whisper_channel(sender, party), sender, (party,), text)

    def _said(
        self, game_id: str, channel: str, sender: str, recipients: tuple[str, ...], raw: str
    ) -> TalkLine:
        text = talk.clean_talk(raw)
        self.rate.take(game_id, sender)
        said = Said(
            game_id=game_id,
            channel=channel,
            sender=sender,
            recipients=recipients,
            court_version=self.court.latest(game_id).version,
            said_at=iso_time(self.clock()),
            text=text,
        )
        line = self._store(said)
        self._publish(line)
        return line

    def _publish(self, line: TalkLine) -> None:
        """Tell every publisher; the line is stored, so one failing never fails the line nor
        keeps the others from hearing of it (its parties get it when they catch up)."""
        for publish in self.publishers:
            try:
                publish(line)
            except DATABASE_ERRORS as exc:
                log_failure(log, "pushing a talk line", exc, self.court.database)
            except Exception:
                log.exception("pushing line %s of game %s", line.position, line.game_id)

    def _store(self, said: Said) -> TalkLine:
        for _ in range(RETRIES):
            with self._lock:
                head = self.store.channel_head(said.game_id, said.channel)
                try:
                    return self.store.add(self._signed(talk.chained_line(said, head)))
                except ConcurrencyError:
                    continue  # another process said a line there first: chain after it
        raise Conflict("busy", "Too many lines were said at once; please say it again.")

    def _signed(self, line: TalkLine) -> TalkLine:
        body = talk_message(line.game_id, line.channel, line.number, line.hash)
        return replace(line, signature=self.court.keys.signing.sign(body))

    def signed(self, line: TalkLine) -> bool:
        """Whether the line carries the server's signature of its hash (a key of now or of
        before a rotation)."""
        body = talk_message(line.game_id, line.channel, line.number, line.hash)
        return self.court.keys.signing.verifies(line.signature, body)

    # -- reading -----------------------------------------------------------------

    def channels(self, game_id: str, actor: Actor) -> tuple[str, ...]:
        """The channels the actor reads: none for a spectator or the host without a seat."""
        party = talk.party_of(actor)
        if party is None:
            return ()
        return talk.channels_of(party, self.court.latest(game_id).state)

    def lines(
        self, game_id: str, actor: Actor, *, after: int = 0, limit: int | None = None
    ) -> list[TalkLine]:
        """The lines the actor is party to, after position `after`, in the order said. A seat
        the host handed to a new token reads the whispers said since, not its old holder's."""
        channels = self.channels(game_id, actor)
        if not channels:
            return []
        since = self._handed_at(game_id, actor)
        return self.store.lines_of(game_id, channels, after=after, limit=limit, whispers_from=since)

    def last_position(self, game_id: str) -> int:
        """Where the game's talk stands: the position of its newest line, 0 before any."""
        return self.store.last_position(game_id)

    def said_after(self, game_id: str, after: int, limit: int) -> list[TalkLine]:
        """Every line of the game after position `after`, whoever its parties: for the pushes,
        which hand each line to its parties' rooms alone (server/live/talk.py)."""
        return self.store.lines_of(game_id, None, after=after, limit=limit)

    def verify(self, game_id: str, actor: Actor) -> list[ChannelCheck]:
        """The check of the chain of each channel the actor reads that holds a line; a whisper
        of a seat handed to a new token is checked from its first line said since."""
        lines = self.lines(game_id, actor)
        late = self._handed_at(game_id, actor) > 0
        whispers = {line.channel for line in lines if line.channel != talk.TABLE} if late else ()
        return talk.check_channels(lines, joined=whispers, signed=self.signed)

    def _handed_at(self, game_id: str, actor: Actor) -> int:
        """The version from which the actor's seat is his token's (0: since it was taken)."""
        seats = self.court.latest(game_id).state.seats
        info = seats.get(actor.seat) if actor.seat is not None else None
        return (info.handed_at or 0) if info is not None else 0
