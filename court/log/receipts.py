"""Receipts of sealed choices, and checking a ballot receipt against an exported log (R-7.1
step 3, section 10).

A receipt names the record that holds a player's markers (version and hash) and their
commitments. The check: the chain verifies; that record is there with that hash and those
commitments; and the reveal of the election opens every commitment to a kind, candidate
and salt that hash back to it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from court.log.chain import Record, verify
from elections.markers import commitment


def ballot_receipt(placed: Record) -> dict[str, Any]:
    """What the player who placed a ballot keeps: the election, the version and hash of the
    record holding the markers, their commitments, and the markers themselves (kind,
    candidate and salt: the player's own secret)."""
    return {
        "election": placed.data["election"],
        "version": placed.version,
        "record_hash": placed.hash,
        "commitments": [m["commitment"] for m in placed.data["markers"]],
        "markers": list(placed.private["secrets"]) if placed.private else [],
    }


def bid_receipt(placed: Record) -> dict[str, Any]:
    """What a bidder keeps of a sealed bid (R-4.6): the commitment, the amount and salt it
    hides, and the version and hash of the record holding it."""
    secret = placed.private["secret"] if placed.private else {}
    return {
        "version": placed.version,
        "record_hash": placed.hash,
        "commitment": placed.data["commitment"],
        "amount": secret.get("amount"),
        "salt": secret.get("salt"),
    }


def check_receipt(records: Sequence[Record], receipt: dict[str, Any]) -> list[str]:
    """Problems found, as sentences; an empty list means the receipt checks out."""
    chain = verify(records)
    if not chain.ok:
        return [f"the log's chain is broken at record {chain.bad_index}: {chain.reason}"]
    by_version = {r.version: r for r in records}
    placed = by_version.get(receipt["version"])
    if placed is None or placed.type != "BallotPlaced":
        return [f"version {receipt['version']} is not a ballot placement"]
    problems = []
    if placed.hash != receipt["record_hash"]:
        problems.append("the placement record's hash differs from the receipt")
    published = [m["commitment"] for m in placed.data["markers"]]
    if published != list(receipt["commitments"]):
        problems.append("the placement record holds other commitments than the receipt")
    reveal = next(
        (
            r
            for r in records
            if r.type == "BallotsRevealed"
            and r.version > placed.version
            and r.data["election"] == receipt["election"]
        ),
        None,
    )
    if reveal is None:
        return [*problems, "the election has not been revealed yet"]
    opened = {m["commitment"]: m for m in reveal.data["markers"]}
    for expected in receipt["commitments"]:
        marker = opened.get(expected)
        if marker is None:
            problems.append(f"the reveal leaves out marker {expected[:12]}…")
        elif commitment(marker["kind"], marker["candidate"], marker["salt"]) != expected:
            problems.append(f"the revealed marker {expected[:12]}… does not match its commitment")
    for mine in receipt.get("markers", ()):
        shown = opened.get(commitment(mine["kind"], mine["candidate"], mine["salt"]))
        if shown is None or (shown["kind"], shown["candidate"]) != (
            mine["kind"],
            mine["candidate"],
        ):
            problems.append("the reveal shows a marker other than the one placed")
    return problems


def receipt_of(records: Sequence[Record]) -> dict[str, Any] | None:
    """The receipt of the sealed choice these records placed (a ballot or a bid), if any."""
    for record in records:
        if record.type == "BallotPlaced":
            return ballot_receipt(record)
        if record.type == "BidPlaced":
            return bid_receipt(record)
    return None
