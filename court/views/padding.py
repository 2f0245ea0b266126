"""Fixed widths for what a sealed choice would otherwise show by its length alone.

A placement's kind ("for" or "decoy"), its candidate and a bid's amount are secrets, but
their JSON is as long as they are: anyone watching the encrypted traffic, or a proxy's log
of request sizes, would read them from the size of a message. So each record of a sealed
choice, and each receipt answered for one, carries `pad`: spaces filling the compact JSON of
its variable parts up to one width, the same whatever they hold (docs/protocol.md,
"Padding"). Every separator and key is the same for the same number of markers, so the
message's whole encoding has one length, compact or not.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

# The record types whose parts are padded; the width covers their `data`, `private` and what
# their hash covers (`hashed`). A record of an older shape also carries its public part as
# stored (court/views/observer.py `hashed`): its width is twice as long, the same for every
# record of that shape, which is public.
PADDED_RECORDS = frozenset({"BallotPlaced", "BidPlaced"})
RECORD_WIDTH = 1024
# The width of the receipt in the ack of a placement or a bid.
RECEIPT_WIDTH = 768
# The width of the kind and candidate of one of the viewer's markers in his court view.
MARKER_WIDTH = 96
PAD = "pad"


def encoded_width(*parts: Any) -> int:
    """The length of the parts' compact JSON, as Socket.IO and Flask send it (ASCII-escaped)."""
    return sum(len(json.dumps(part, separators=(",", ":"))) for part in parts)


def pad(width: int, *parts: Any) -> str:
    """Spaces that bring the parts' encoding up to `width` characters."""
    return " " * max(0, width - encoded_width(*parts))


def padded_record(told: dict[str, Any]) -> dict[str, Any]:
    """A told record with its `pad`, when its type is a sealed choice's and it carries the
    choice's private part. A copy that withholds it needs none: its public part's length
    depends on nothing secret (the number of markers, the candidates of an open ballot), and
    it is most of what a push carries about a choice to every other viewer."""
    if told["type"] in PADDED_RECORDS and told["private"] is not None:
        hashed = told.get("hashed") or {}
        width = RECORD_WIDTH * (2 if "data_json" in hashed else 1)
        told[PAD] = pad(width, told["data"], told["private"], told.get("hashed"))
    return told


def padded_receipt(answer: dict[str, Any]) -> dict[str, Any]:
    """The ack of a placement or a bid with its `pad`, filling its receipt's width."""
    return {**answer, PAD: pad(RECEIPT_WIDTH, answer["receipt"])}


def padded_marker(marker: dict[str, Any]) -> dict[str, Any]:
    """One of the viewer's own markers in his court view, with its `pad`."""
    return {**marker, PAD: _marker_pad(marker["kind"], marker["candidate"])}


@lru_cache(maxsize=1024)
def _marker_pad(kind: str | None, candidate: str | None) -> str:
    """A marker's pad, for each kind and candidate once: every push makes a voter's markers
    again, from the few candidates of an election."""
    return pad(MARKER_WIDTH, kind, candidate)
