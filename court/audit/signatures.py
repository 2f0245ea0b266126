"""The deep audit's check of moves signed on players' devices (court/model/devices.py): each signed
move's Ed25519 signature by a key standing for its holder as the log recorded the keys, its
nonce never taken before, the head it was signed on one of the log's; and every record of a
keyed holder's move inside the span of the signed move before it, so that no record is
believed as a player's move that no key of his signed."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from court.audit.failed import Failed
from court.events import BotPlayed, Event, FactRecorded, MoveSigned
from court.log.chain import GENESIS, Record
from court.model.devices import NONCE, move_text, seat_holder, signed_by
from court.state import CourtState

# Records the key service makes with a person's gathered token, by no device (court/decide/
# signed.py `UNSIGNED_KINDS`): the links' own digests are what vouches for them.
UNSIGNED_TYPES = frozenset({"SeatLinkAdded", "SeatLinkDropped"})
# The heads a signature may name, kept as the check goes: a device signs on a head it saw
# moments before; one older than these is noted, not failed.
HEADS_KEPT = 512


@dataclass(frozen=True, slots=True)
class Span:
    """The records a signed move covers still to come: `left` of them, by `holder`'s seat
    (None for the seatless host and the game master), at the signed move's own time."""

    holder: str
    seat: int | None
    left: int
    recorded_at: str
    signed_at: int


@dataclass(frozen=True, slots=True)
class MovesPoint:
    """Where the check of signed moves stood after a record: what a checkpoint keeps."""

    span: Span | None
    heads: tuple[tuple[int, str], ...]
    unchecked_heads: int
    bot: tuple[int | None, str] | None = None


class SignedMoves:
    """The signed moves' check, fed each record with the court before it."""

    def __init__(self, start: MovesPoint | None = None) -> None:
        self.span = start.span if start else None
        self.heads: deque[tuple[int, str]] = deque(start.heads if start else (), HEADS_KEPT)
        self.unchecked_heads = start.unchecked_heads if start else 0
        # The seat and time of the bot's move under way: its records are the server's.
        self.bot = start.bot if start else None

    def check(self, record: Record, event: Event, before: CourtState) -> None:
        """Fail unless the record is where the signed moves allow it."""
        if isinstance(event, MoveSigned):
            self._signed(record, event, before)
        elif self.span is not None:
            self._covered(record, event)
        else:
            self._unsigned(record, event, before)

    def passed(self, record: Record) -> None:
        """The record passed: it is a head a later signature may name."""
        self.heads.append((record.version, record.hash))

    def point(self) -> MovesPoint:
        return MovesPoint(self.span, tuple(self.heads), self.unchecked_heads, self.bot)

    def unfinished(self) -> tuple[int, str] | None:
        """Why the log cannot end here, and the version to blame: a signed move whose records
        never came."""
        if self.span is None:
            return None
        return self.span.signed_at, (
            f"the move signed at version {self.span.signed_at} names {self.span.left} more "
            "record(s) than the log holds"
        )

    def _signed(self, record: Record, e: MoveSigned, before: CourtState) -> None:
        if self.span is not None:
            raise Failed("signatures", self._cut_short())
        seat = _seat_of(e.holder)
        if record.seat != seat:
            raise Failed(
                "signatures", f"a move signed for {e.holder} is recorded for seat {record.seat}"
            )
        key = before.devices.by_id.get(e.key_id)
        if key is None or key.holder != e.holder:
            raise Failed(
                "signatures",
                f"a move of {_who(e.holder)} signed by key {e.key_id:.16}, which "
                f"{_who(e.holder)} does not hold here",
            )
        if NONCE.fullmatch(e.nonce) is None or e.nonce in key.nonces:
            raise Failed("signatures", f"a move of {_who(e.holder)} whose nonce was taken before")
        self._head(record, e)
        text = move_text(record.game_id, e.holder, e.message, e.payload, e.version, e.hash, e.nonce)
        if not signed_by(key.public_key, e.signature, text):
            raise Failed(
                "signatures",
                f"a move of {_who(e.holder)} whose signature by key {e.key_id} does not match it",
            )
        if e.records < 1:
            raise Failed("signatures", "a signed move that led to no record")
        self.span = Span(e.holder, seat, e.records, record.recorded_at, record.version)

    def _head(self, record: Record, e: MoveSigned) -> None:
        """The head the device saw is an earlier version of this log, ending on that hash."""
        if not 0 <= e.version < record.version:
            raise Failed("signatures", f"a move signed on version {e.version}, which came after it")
        if e.version == 0:
            if e.hash != GENESIS:
                raise Failed("signatures", "a move signed on a start of the log that is not its")
            return
        known = dict(self.heads)
        if e.version not in known:
            self.unchecked_heads += 1
        elif known[e.version] != e.hash:
            raise Failed(
                "signatures",
                f"a move signed on version {e.version} with a hash the log does not hold there",
            )

    def _covered(self, record: Record, event: Event) -> None:
        """The record is the signed move's next: by its seat (or the seat the event itself
        names, as a ballot's does), at its time."""
        span = self.span
        assert span is not None
        by = record.seat == span.seat or (event.OWNER is not None and record.seat is not None)
        if not by or record.recorded_at != span.recorded_at:
            raise Failed("signatures", self._cut_short())
        left = span.left - 1
        self.span = (
            None
            if left == 0
            else Span(span.holder, span.seat, left, span.recorded_at, span.signed_at)
        )

    def _cut_short(self) -> str:
        span = self.span
        assert span is not None
        return (
            f"the move signed at version {span.signed_at} names {span.left} more record(s) of "
            f"{_who(span.holder)} than follow it"
        )

    def _unsigned(self, record: Record, event: Event, before: CourtState) -> None:
        """A record outside any signed move: the server's own (the bot's move for a seat the
        table voted it among them, R-9.2), or an unkeyed holder's."""
        if isinstance(event, BotPlayed) and event.seat in before.table.bots:
            self.bot = (record.seat, record.recorded_at)
            return
        if self.bot == (record.seat, record.recorded_at):
            return
        self.bot = None
        holder = _holder_of(record, event)
        if holder is None or record.type in UNSIGNED_TYPES:
            return
        if before.devices.keyed(holder):
            who = _who(holder)
            raise Failed("signatures", f"a move of {who} that no key of {who} signed")


def _holder_of(record: Record, event: Event) -> str | None:
    """Whose move a record is, as far as the record says: its seat's, or the recorder's of a
    fact; None for what the server records alone."""
    if record.seat is not None:
        return seat_holder(record.seat)
    if isinstance(event, FactRecorded):
        return "host" if event.by == "host" else "master"
    return None


def _seat_of(holder: str) -> int | None:
    return int(holder[5:]) if holder.startswith("seat:") and holder[5:].isdigit() else None


def _who(holder: str) -> str:
    seat = _seat_of(holder)
    if seat is not None:
        return f"seat {seat}"
    return "the game master" if holder == "master" else "the host"
