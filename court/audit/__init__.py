"""Deep verification of a game's log: what `/verify`, `flask court verify` and import check.

Beyond the hash chain (court/log/chain.py), record by record:
- record: the id, type, schema version, time and seat are well formed (the API's patterns);
  a private part only where the event type has one, with exactly its fields; an event whose
  private part belongs to a seat (a ballot, a bid, a seat token) names that seat;
- names: ids and names pass the checks the API applies when they are typed (court/model/text.py),
  and no text holds control characters;
- fold: the log folds into a court without error;
- invariants: every invariant of court/soundness/invariants.py holds at every version;
- commitments: every marker and sealed bid revealed opens the commitment published when it
  was placed, on the candidate shown then; secrets present in the log agree with both;
- tally: every reveal's votes, winner and reason recompute from the opened markers and the
  votes recorded when the ballot opened (R-7.1, R-7.2); every sale's result from the bids;
- dice: every roll recomputes from the game's seed (whose SHA-256 the first event
  published), when the seed is in the log: an export made before the end withholds it;
- signatures: every move signed on a player's device carries a good signature by a key its
  holder held there, a nonce never taken before and a head of this log, and every record of a
  keyed seat's (or keyed host's or game master's) move follows a signed move (signatures.py);
- moves: with a `Rebuild` of commands from what was signed, each signed move decided again on
  the court before it gives exactly the records stored for it (moves.py).

The first failing check is reported with its record and version; checks that could not be
made are listed as notes. `Audit` takes one record at a time, from version 1 or from the
checkpoint an earlier check of the same log left (the server's verify-so-far,
server/service/whole_logs.py): a stream of any length holds one record in memory. The checks of one
record's fields are in record.py, those of what was sealed (commitments, tallies, sales, dice) in
secrets.py.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from court.audit.failed import Failed
from court.audit.moves import DecidedAgain, Rebuild, Rebuilding
from court.audit.record import names, readable, seat
from court.audit.secrets import secrets
from court.audit.signatures import MovesPoint, SignedMoves
from court.evolve import evolve, initial
from court.ids import GameId
from court.log import codec
from court.log.chain import GENESIS, Record, Verification, chain_problem
from court.soundness.invariants import violations
from court.state import CourtState

__all__ = ["Audit", "Checkpoint", "Failed", "Rebuild", "Rebuilding", "audit"]


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """Where a deep check stood right after a record it passed: enough to go on from there.
    Only the check itself makes one (`Audit.checkpoint`)."""

    game_id: str
    version: int
    hash: str
    state: CourtState
    rolls_unchecked: int
    moves: MovesPoint | None = None


class Audit:
    """The deep check fed one record at a time, from version 1 or from a checkpoint of an
    earlier check; `check` answers the first failure, `passed` the result once all are in."""

    def __init__(
        self,
        upcasters: Mapping[codec.UpcasterKey, codec.Upcaster] = codec.UPCASTERS,
        start: Checkpoint | None = None,
        rebuild: Rebuilding | None = None,
    ) -> None:
        """`rebuild`: the commands signed moves sent, rebuilt from them, and the log's times
        read as seconds: then every signed move is decided again (moves.py)."""
        self.upcasters = upcasters
        self.since = start.version if start else 0
        self.count = self.since
        self.game_id = start.game_id if start else None
        self.prev = start.hash if start else GENESIS
        self.state = start.state if start else None
        self.rolls_unchecked = start.rolls_unchecked if start else 0
        self.moves = SignedMoves(start.moves if start else None)
        self.decided = DecidedAgain(*rebuild) if rebuild is not None else None

    def check(self, record: Record) -> Verification | None:
        """Check the next record; the failure, or None when it passes."""
        try:
            problem = chain_problem(record, self.count, self.game_id, self.prev)
            if problem:
                raise Failed("chain", problem)
            try:
                state, unchecked = _checked(
                    record, self.state, self.upcasters, self.moves, self.decided
                )
            except Failed:
                raise
            except Exception as exc:  # a forged value of a type no check expected
                raise Failed("record", f"the record cannot be read ({exc!r:.120})") from None
        except Failed as exc:
            version = record.version if exc.version is None else exc.version
            return Verification.failed(
                self.count, version, self.prev, exc.check, exc.reason, self.since
            )
        self.state, self.rolls_unchecked = state, self.rolls_unchecked + unchecked
        self.moves.passed(record)
        self.game_id, self.prev, self.count = record.game_id, record.hash, self.count + 1
        return None

    @property
    def checkpoint(self) -> Checkpoint | None:
        """Where the check stands: None before its first record."""
        if self.state is None or self.game_id is None:
            return None
        return Checkpoint(
            self.game_id,
            self.count,
            self.prev,
            self.state,
            self.rolls_unchecked,
            self.moves.point(),
        )

    def passed(self) -> Verification:
        """The result of a check every record passed, with what it could not check."""
        unfinished = self.moves.unfinished()
        if unfinished is not None:
            version, reason = unfinished
            return Verification.failed(
                self.count, version, self.prev, "signatures", reason, self.since
            )
        notes: tuple[str, ...] = ()
        if self.rolls_unchecked:
            notes = (
                f"{self.rolls_unchecked} die roll(s) not checked: the dice seed is secret until "
                "the game ends, and this log withholds it",
            )
        if self.decided is not None and self.decided.unrebuilt:
            notes += (
                f"{self.decided.unrebuilt} signed move(s) not decided again: they used what the "
                "log does not hold (a new link's token, an invitation), and were checked by the "
                "rules alone",
            )
        if self.moves.unchecked_heads:
            notes += (
                f"{self.moves.unchecked_heads} signed move(s) name a head older than this check "
                "keeps: their hashes were not compared",
            )
        return Verification(
            ok=True, records=self.count, head=self.prev, notes=notes, since=self.since
        )


def audit(
    records: Iterable[Record],
    upcasters: Mapping[codec.UpcasterKey, codec.Upcaster] = codec.UPCASTERS,
    rebuild: Rebuilding | None = None,
) -> Verification:
    """Every check above, record by record from version 1; the first failure, or ok with
    notes. `records` is read one at a time: a stream of any length holds one in memory."""
    check = Audit(upcasters, rebuild=rebuild)
    for record in records:
        failed = check.check(record)
        if failed is not None:
            return failed
    return check.passed()


def _checked(
    record: Record,
    state: CourtState | None,
    upcasters: Mapping[codec.UpcasterKey, codec.Upcaster],
    moves: SignedMoves,
    decided: DecidedAgain | None,
) -> tuple[CourtState, int]:
    """Every check of one record; the state it leads to and its die rolls left unchecked."""
    event = readable(record, upcasters)
    before = state if state is not None else initial(GameId(record.game_id))
    names(record, event)
    unchecked = secrets(before, event)
    moves.check(record, event, before)
    if decided is not None:
        decided.check(record, event, before)
    try:
        after = evolve(before, event)
    except Exception as exc:  # evolve trusts its input; a forged log can break it
        raise Failed("fold", f"the log cannot be folded here ({exc!r})") from None
    seat(record, event, after)
    broken = violations(after, event)
    if broken:
        raise Failed("invariants", broken[0])
    return after, unchecked
