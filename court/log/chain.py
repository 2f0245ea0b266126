"""Log records and their SHA-256 hash chain.

hash(n) = SHA-256( hash(n-1) "\\n" meta "\\n" data "\\n" private_sha256 )
where meta is the canonical JSON of {game_id, version, type, schema_version,
recorded_at, seat}, data the canonical JSON of the public part, and
private_sha256 the SHA-256 of the canonical JSON of the private part ("" when
there is none). A log exported with private parts withheld still verifies.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from json.encoder import c_make_encoder, encode_basestring  # type: ignore[attr-defined]
from typing import Any

GENESIS = "0" * 64


# One encoder for every call: json.dumps would build one per call with these options.
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
# The encoder's own C function, made once: `encode` makes one at every call, a third of what
# encoding a record's data costs. Without a circular check: what is hashed is plain data.
_C_ENCODE = (
    None
    if c_make_encoder is None
    else c_make_encoder(
        None, _CANONICAL.default, encode_basestring, None, ":", ",", True, False, True
    )
)


def canonical(value: Any) -> str:
    """Sorted keys, no spaces, UTF-8 text: the one JSON form the chain hashes."""
    if _C_ENCODE is None:
        return _CANONICAL.encode(value)
    return "".join(_C_ENCODE(value, 0))


def private_digest(private: dict[str, Any] | None) -> str:
    return private_digest_of(None if private is None else canonical(private))


def private_digest_of(private_json: str | None) -> str:
    """The digest of a private part already in canonical JSON ("" for none)."""
    if private_json is None:
        return ""
    return hashlib.sha256(private_json.encode()).hexdigest()


def link(
    prev_hash: str,
    *,
    game_id: str,
    version: int,
    type: str,
    schema_version: int,
    recorded_at: str,
    seat: int | None,
    data_json: str,
    private_sha256: str,
) -> str:
    meta = meta_json(game_id, version, type, schema_version, recorded_at, seat)
    return linked(prev_hash, meta, data_json, private_sha256)


def linked(prev_hash: str, meta_json: str, data_json: str, private_sha256: str) -> str:
    """The hash a record ends on, from its parts already written as the chain hashes them."""
    payload = f"{prev_hash}\n{meta_json}\n{data_json}\n{private_sha256}"
    return hashlib.sha256(payload.encode()).hexdigest()


def meta_json(
    game_id: str, version: int, type: str, schema_version: int, recorded_at: str, seat: int | None
) -> str:
    """The canonical JSON of a record's meta part, written out for the shape every record the
    server writes has (texts, whole numbers, a seat or null): the encoder walking a dict costs
    nearly three times as much, twice a command. Any other shape (an imported record's odd
    field) goes through the encoder itself."""
    usual = (
        game_id.__class__ is str
        and type.__class__ is str
        and recorded_at.__class__ is str
        and version.__class__ is int
        and schema_version.__class__ is int
        and (seat is None or seat.__class__ is int)
    )
    if not usual:
        return canonical(
            {
                "game_id": game_id,
                "version": version,
                "type": type,
                "schema_version": schema_version,
                "recorded_at": recorded_at,
                "seat": seat,
            }
        )
    return (  # the keys in sorted order, as `canonical` writes them
        f'{{"game_id":{encode_basestring(game_id)},'
        f'"recorded_at":{encode_basestring(recorded_at)},'
        f'"schema_version":{schema_version},"seat":{"null" if seat is None else seat},'
        f'"type":{encode_basestring(type)},"version":{version}}}'
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class Record:
    """One entry of a game's log, as stored and exported."""

    game_id: str
    version: int
    type: str
    schema_version: int
    recorded_at: str
    seat: int | None
    data: dict[str, Any]
    private: dict[str, Any] | None
    private_sha256: str
    hash: str
    position: int | None = None

    def expected_hash(self, prev_hash: str, data_json: str | None = None) -> str:
        """The hash this record ends on after `prev_hash`; `data_json` is the canonical JSON
        of its public part when the caller has it already."""
        return link(
            prev_hash,
            game_id=self.game_id,
            version=self.version,
            type=self.type,
            schema_version=self.schema_version,
            recorded_at=self.recorded_at,
            seat=self.seat,
            data_json=canonical(self.data) if data_json is None else data_json,
            private_sha256=self.private_sha256,
        )

    def withheld(self) -> Record:
        """The same record with its private part left out (its digest stays)."""
        return Record(**{**_fields(self), "private": None})

    def to_json(self) -> dict[str, Any]:
        out = _fields(self)
        out.pop("position")
        return out

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Record:
        keys = set(_FIELD_NAMES) - {"position"}
        missing = sorted(keys - set(raw))
        extra = sorted(set(raw) - keys)
        if missing or extra:
            raise ValueError(f"missing {missing} / unexpected {extra} fields")
        return cls(**{k: raw[k] for k in keys})


_FIELD_NAMES = tuple(Record.__dataclass_fields__)


def _fields(record: Record) -> dict[str, Any]:
    return {name: getattr(record, name) for name in _FIELD_NAMES}


@dataclass(frozen=True, slots=True, kw_only=True)
class Verification:
    """A log's check: ok, or the first record that fails, which `check` failed and why.
    `notes` name what could not be checked (court/audit/)."""

    ok: bool
    records: int
    head: str
    bad_index: int | None = None
    bad_version: int | None = None
    reason: str = ""
    check: str = ""
    notes: tuple[str, ...] = ()
    since: int = 0  # the check began after this version, which an earlier check passed

    @classmethod
    def failed(
        cls, index: int, version: int, head: str, check: str, reason: str, since: int = 0
    ) -> Verification:
        """The record at `index` (of `version`) fails `check`; the `index` records before it
        passed, ending on `head`."""
        return cls(
            ok=False,
            records=index,
            head=head,
            bad_index=index,
            bad_version=version,
            reason=reason,
            check=check,
            since=since,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "records": self.records,
            "head": self.head,
            "bad_index": self.bad_index,
            "bad_version": self.bad_version,
            "check": self.check,
            "reason": self.reason,
            "notes": list(self.notes),
            "since": self.since,
        }


def verify(records: Iterable[Record]) -> Verification:
    """Walk a game's records from version 1 and report the first one that breaks the chain."""
    prev = GENESIS
    game_id: str | None = None
    count = 0
    for index, record in enumerate(records):
        problem = chain_problem(record, index, game_id, prev)
        if problem:
            return Verification.failed(index, record.version, prev, "chain", problem)
        game_id = record.game_id
        prev = record.hash
        count += 1
    return Verification(ok=True, records=count, head=prev)


def chain_problem(record: Record, index: int, game_id: str | None, prev: str) -> str:
    """Why the record breaks the chain after `prev`, or "" when it does not."""
    if game_id is not None and record.game_id != game_id:
        return f"record {index} belongs to game {record.game_id!r}, not {game_id!r}"
    if record.version != index + 1:
        return f"record {index} has version {record.version}; version {index + 1} was expected"
    if record.private is not None and private_digest(record.private) != record.private_sha256:
        return f"the private part of version {record.version} does not match its digest"
    if record.expected_hash(prev) != record.hash:
        return f"version {record.version} does not match its hash: the record was changed"
    return ""
