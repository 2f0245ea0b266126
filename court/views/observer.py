"""The observer: everything a viewer may see of a game — its court and its log — decided here.

A private part of the log (a player's markers and salts, a bid's amount, a token's digest) is
shown to the seat that owns it, and to everyone once the game has ended; the court shows each
viewer the secrets that are the viewer's own (court/views/court.py). A seat the host handed to
a new token is a new holder's from that version on: what the seat held before stays its old
holder's. Pushes, the HTTP views, the history, the receipts and the export all ask an Observer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from court.commands import Actor
from court.events import EVENT_TYPES
from court.log import codec, provenance
from court.log.chain import Record, canonical
from court.sentences import describe
from court.state import CourtState, GameStatus
from court.views.made import court_view
from court.views.padding import padded_record


@dataclass(frozen=True, slots=True)
class Observer:
    """What `viewer` may see while the game stands as it does now (`ended`: every private
    part is open); `handed_at` is the version at which the host last handed the viewer's seat
    to a new token (None: never)."""

    viewer: Actor
    ended: bool
    handed_at: int | None = None

    @classmethod
    def of(cls, viewer: Actor, now: CourtState) -> Observer:
        info = now.seats.get(viewer.seat) if viewer.seat is not None else None
        handed_at = info.handed_at if info is not None else None
        return cls(viewer, now.status is GameStatus.ENDED, handed_at)

    def sees_private(self, record: Record) -> bool:
        """Whether the record's private part is the viewer's to see: his seat's, recorded since
        the seat was last handed to a new token."""
        if self.ended:
            return True
        mine = self.viewer.seat is not None and record.seat == self.viewer.seat
        return mine and record.version >= (self.handed_at or 0)

    def record(self, record: Record) -> dict[str, Any]:
        """The record as stored, its private part withheld unless the viewer may see it (the
        digest stays, so the chain still verifies): one line of an export."""
        return (record if self.sees_private(record) else record.withheld()).to_json()

    def told(self, record: Record, after: CourtState) -> dict[str, Any]:
        """The record with a sentence told with the court as it stood right `after` it.

        `data` and `private` are read through the upcasters (court/log/codec.py), so a client
        meets one shape per event type, the one docs/protocol.md lists; `schema_version`
        names it. `hash` stays the stored record's: the export gives the records as stored,
        to verify. A page recomputes it from the record's own fields, the canonical JSON of
        `data` standing for the stored text; where that is not the stored text (an older
        shape, a float), `hashed` holds what the hash covers as stored, as a history entry's.
        A sealed choice's record has one length whatever it hides (`pad`,
        court/views/padding.py)."""
        out = record.to_json()
        private = record.private if self.sees_private(record) else None
        out["data"], out["private"], out["schema_version"] = current_shape(record, private)
        out["text"] = describe(record, after)
        stored = hashed(record, out["data"])
        if "data_json" in stored:
            out["hashed"] = stored
        return padded_record(out)

    def entry(self, record: Record, after: CourtState) -> dict[str, Any]:
        """A history entry: the record's public part told as a sentence, with the round and
        phase it happened in. The history is the table's shared chronicle: it carries no
        private part, not even the viewer's own (those are in `record` and the export). `kind`
        and `rules` say whether it is play, a skip or bookkeeping, and the rules it applied
        (court/log/provenance.py). `hashed` holds the rest of what the record's hash covers, as
        stored: with the entry's version, type, seat, time and hash, a page recomputes the
        hash of every entry it shows (static/lib/witness.js)."""
        text = describe(record, after)
        data = current_shape(record, None)[0]
        return {
            "version": record.version,
            "type": record.type,
            "seat": record.seat,
            "recorded_at": record.recorded_at,
            "hash": record.hash,
            "round": after.round,
            "phase": after.phase.value if after.phase else None,
            "data": data,
            "text": text,
            "kind": provenance.kind_of(record.type).value,
            "rules": provenance.rules_of(record.type, text, data),
            "hashed": hashed(record, data),
        }

    def court(self, state: CourtState, version: int) -> dict[str, Any]:
        """The whole court at `version` as the viewer may see it, with the moves it may send
        (as commands: the server names them for the wire)."""
        return court_view(state, version, self.viewer, self.handed_at)


def hashed(record: Record, shown: dict[str, Any]) -> dict[str, Any]:
    """What a record's hash covers beside its version, type, seat, time and hash, as stored:
    its schema version and its private part's digest, and its public part's canonical JSON
    (`data_json`) unless a page makes that text itself from the public part it is `shown`: the
    very part stored, made only of strings, booleans, nulls and integers a page holds exactly
    (JavaScript writes a float such as 1.0 otherwise). Without it the page hashes what it
    shows, and a push is shorter by the public part once more."""
    out: dict[str, Any] = {
        "schema_version": record.schema_version,
        "private_sha256": record.private_sha256,
    }
    if shown is not record.data or not _rewritable(shown):
        out["data_json"] = canonical(record.data)
    return out


# The integers a page's JSON holds exactly (JavaScript's numbers are doubles).
_EXACT = 2**53


def _rewritable(value: Any) -> bool:
    """Whether a page's canonical JSON of `value` (static/lib/witness_crypto.js) is the
    server's, character for character: keys in ASCII (sorted alike by code point and by
    UTF-16 unit), no float, no integer past what a double holds exactly."""
    # A loop over a stack rather than recursion through all(): every pushed record's public
    # part is walked, and generators cost more than the walk.
    stack = [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is str or kind is bool or item is None:
            continue
        if kind is int:
            if not -_EXACT < item < _EXACT:
                return False
        elif kind is dict:
            for key in item:
                if not key.isascii():
                    return False
            stack.extend(item.values())
        elif kind is list:
            stack.extend(item)
        else:
            return False
    return True


def current_shape(
    record: Record, private: dict[str, Any] | None
) -> tuple[dict[str, Any], dict[str, Any] | None, int]:
    """The record's public and (when given) private parts in the current shape of its type,
    and that shape's schema version; a type this server does not know is shown as stored."""
    if record.type not in EVENT_TYPES:
        return record.data, private, record.schema_version
    cls, current = EVENT_TYPES[record.type]
    if record.schema_version == current:
        return record.data, private, current
    merged = codec.upcast(record.type, record.schema_version, {**record.data, **(private or {})})
    public = {k: v for k, v in merged.items() if k not in cls.PRIVATE}
    hidden = {k: v for k, v in merged.items() if k in cls.PRIVATE}
    return public, (hidden if private is not None else None), current
