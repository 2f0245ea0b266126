"""The deep audit's check that the log follows from the signed moves: each move a device signed
is decided again on the court before it, at the time its records name, and the records stored
for it must be exactly the events the engine decides, follow-ups included. The command is
rebuilt from what was signed by the caller's `Rebuild` (the server's catalogue of messages,
server/messages/rebuilt.py), with the openings of a sealed choice taken from the records it led
to; a move it cannot rebuild (one whose decision used what the log does not hold) is counted
and noted, its records checked by the rules alone as every record is."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from court.audit.failed import Failed
from court.commands import Actor, Command, SignedMove
from court.commands.signed import Signature
from court.decide.signed import decide_move
from court.errors import CourtError
from court.events import Event, MoveSigned
from court.ids import Seat
from court.log.chain import Record
from court.state import CourtState

# The command a signed move sent, rebuilt from it and from the events stored after it (for
# the openings beside its commitments); None when it cannot be rebuilt from the log.
Rebuild = Callable[[MoveSigned, tuple[Event, ...]], Command | None]
# A rebuild and the reading of the log's times it decides at.
Rebuilding = tuple[Rebuild, Callable[[str], float]]


@dataclass
class _Pending:
    """A signed move whose records are still coming: the court before it, the move, and its
    records and events so far."""

    before: CourtState
    move: MoveSigned
    records: list[Record]
    events: list[Event]


class DecidedAgain:
    """Fed every record with its event and the court before it; fails at the first record
    that is not what the engine decides for the signed move it follows."""

    def __init__(self, rebuild: Rebuild, time_of: Callable[[str], float]) -> None:
        self.rebuild, self.time_of = rebuild, time_of
        self.pending: _Pending | None = None
        self.unrebuilt = 0

    def check(self, record: Record, event: Event, before: CourtState) -> None:
        if isinstance(event, MoveSigned):
            self.pending = _Pending(before, event, [record], [])
            return
        pending = self.pending
        if pending is None:
            return
        pending.records.append(record)
        pending.events.append(event)
        if len(pending.events) == pending.move.records:
            self.pending = None
            self._decide(pending)

    def _decide(self, pending: _Pending) -> None:
        move, first = pending.move, pending.records[0]
        try:
            command = self.rebuild(move, tuple(pending.events))
        except ValueError as exc:
            raise Failed(
                "moves",
                f"the move {move.message} signed here is no move a client could send ({exc})",
                first.version,
            ) from None
        if command is None:
            self.unrebuilt += 1
            return
        signed = SignedMove(command=command, signature=_signature(move), seen=True)
        actor = _actor(pending.before, move.holder)
        try:
            decided, _ = decide_move(pending.before, signed, actor, self.time_of(first.recorded_at))
        except CourtError as exc:
            raise Failed(
                "moves",
                f"the move {move.message} signed here is refused by the rules on the court "
                f"before it ({exc.code}): its records do not follow from it",
                first.version,
            ) from None
        stored = (move, *pending.events)
        for record, expected, found in zip(pending.records, decided, stored, strict=False):
            if expected != found:
                raise Failed(
                    "moves",
                    f"the {record.type} is not what the move {move.message} signed at version "
                    f"{first.version} decides (the engine decides a {type(expected).__name__})",
                    record.version,
                )
        if len(decided) != len(stored):
            raise Failed(
                "moves",
                f"the move {move.message} signed here decides {len(decided) - 1} record(s), "
                f"and {len(stored) - 1} are stored for it",
                first.version,
            )

    def unfinished(self) -> bool:
        return self.pending is not None


def _signature(move: MoveSigned) -> Signature:
    return Signature(
        key_id=move.key_id,
        message=move.message,
        payload=move.payload,
        version=move.version,
        hash=move.hash,
        nonce=move.nonce,
        signature=move.signature,
    )


def _actor(state: CourtState, holder: str) -> Actor:
    """Who sent a move, from the holder whose key signed it (the signatures' check made sure
    the key is that holder's)."""
    if holder == "master":
        return Actor(master=True)
    if holder == "host":
        return Actor(host=True)
    seat = Seat(int(holder.removeprefix("seat:")))
    info = state.seats.get(seat)
    return Actor(seat=seat, host=info is not None and info.host)
