"""The widths of court/views/padding.py hold the longest sealed choice the protocol allows: a
placement of two DECOY markers on 64-character ids in an election of a 64-character title,
and a bid of the most gold, at the highest version; below them every choice is padded to
exactly the width (tests/hostile/test_size_side_channel.py measures it on the wire)."""

from __future__ import annotations

import json

import pytest

from court.log.chain import canonical
from court.views.padding import (
    PAD,
    RECEIPT_WIDTH,
    RECORD_WIDTH,
    encoded_width,
    padded_receipt,
    padded_record,
)

LONGEST_ID = "x" * 64
HASH = "f" * 64
SALT = "a" * 32
VERSION_MAX = 2**31 - 1


def ballot_parts(kind: str, candidate: str) -> tuple[dict, dict]:
    data = {
        "election": LONGEST_ID,
        "seat": 99,
        "markers": [{"commitment": HASH, "candidate": candidate}] * 2,
    }
    private = {"secrets": [{"kind": kind, "candidate": candidate, "salt": SALT}] * 2}
    return data, private


def hashed(data: dict, stored: bool) -> dict:  # type: ignore[type-arg]
    """What a told record's hash covers beside its own fields (court/views/observer.py); with
    the public part's text as `stored` for a record of an older shape."""
    out = {"schema_version": 1, "private_sha256": HASH}
    return {**out, "data_json": canonical(data)} if stored else out


@pytest.mark.parametrize("stored", [False, True], ids=["current shape", "older shape"])
def test_the_longest_placement_and_bid_fit_the_record_width(stored: bool) -> None:
    width = RECORD_WIDTH * (2 if stored else 1)
    data, private = ballot_parts("decoy", LONGEST_ID)
    assert encoded_width(data, private, hashed(data, stored)) <= width
    bid = {"seat": 99, "commitment": HASH}
    assert (
        encoded_width(bid, {"secret": {"amount": 10_000, "salt": SALT}}, hashed(bid, stored))
        <= width
    )


def test_the_longest_receipts_fit_the_receipt_width() -> None:
    _, private = ballot_parts("decoy", LONGEST_ID)
    ballot = {
        "election": LONGEST_ID,
        "version": VERSION_MAX,
        "record_hash": HASH,
        "commitments": [HASH, HASH],
        "markers": private["secrets"],
    }
    bid = {
        "version": VERSION_MAX,
        "record_hash": HASH,
        "commitment": HASH,
        "amount": 10_000,
        "salt": SALT,
    }
    assert encoded_width(ballot) <= RECEIPT_WIDTH
    assert encoded_width(bid) <= RECEIPT_WIDTH


def test_a_padded_receipt_has_one_length_whatever_its_kind_and_candidate() -> None:
    lengths = {
        len(json.dumps(padded_receipt({"ok": True, "receipt": {"markers": [m]}})))
        for m in (
            {"kind": "for", "candidate": "robb-stark", "salt": SALT},
            {"kind": "decoy", "candidate": LONGEST_ID, "salt": SALT},
        )
    }
    assert len(lengths) == 1


def told(kind: str, candidate: str, shown: bool) -> dict:  # type: ignore[type-arg]
    """A told sealed placement (a hidden candidate in its public part), its private part
    `shown` or withheld."""
    data, private = ballot_parts(kind, candidate)
    data = {**data, "markers": [{"commitment": HASH, "candidate": None}] * 2}
    return {"type": "BallotPlaced", "data": data, "private": private if shown else None}


def test_a_placement_shown_to_its_owner_is_padded_and_one_withheld_is_not() -> None:
    # Given the same placement told with its secrets and without, for two kinds and candidates
    secrets = (("for", "robb-stark"), ("decoy", LONGEST_ID))
    owners = [padded_record(told(kind, candidate, True)) for kind, candidate in secrets]
    others = [padded_record(told(kind, candidate, False)) for kind, candidate in secrets]
    # Then the owner's copies have one length, the record width, whatever they hide
    widths = {encoded_width(r["data"], r["private"], None) + len(r[PAD]) for r in owners}
    assert widths == {RECORD_WIDTH}
    assert len({len(json.dumps(r)) for r in owners}) == 1
    # And a withheld copy carries no pad: its length, one whatever the secrets, tells nothing
    assert all(PAD not in r for r in others)
    assert len({len(json.dumps(r)) for r in others}) == 1
