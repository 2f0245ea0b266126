"""The court page as bench/load.py plays it: a LoopPeer that listens for what static/live.js
listens for and reads each message as static/game.js and static/witness.js do.

On its first welcome it keeps the court view and asks for the feed's records with `sync`,
as the page does; each push's view change is applied to the court it holds (RFC 6902, with
`jsonpatch` as the page applies it with fast-json-patch), whole views replace it, and the
witness recomputes the hash of every pushed record from the last one it kept and checks the
newest checkpoint's Ed25519 signature at most every SIGN_EVERY seconds, as static/witness.js
does. A change the page could not apply, or records that do not chain, are counted: the page
would connect again or ask the server for the chain. Bytes and CPU spent on pushes are counted
per peer.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import jsonpatch
from live_peers import Room
from loop_peers import Loop, LoopPeer

from court.chain import canonical, link
from server.keys.signing import signed_by

# What static/live.js listens for on the court's namespace (tests/scale keeps them equal).
PAGE_LISTENS = frozenset({"welcome", "events", "presence", "talk", "seat_ended"})
# What the page sends by itself, besides the commands its player chooses.
PAGE_SENDS = frozenset({"sync"})
SIGN_EVERY = 5.0  # seconds: static/witness.js SIGN_EVERY_MS
FEED_LIMIT = 30  # the records the page's feed shows (static/feed.js)
# The sealed choices the page pads to one width (static/padding.js).
WIDTHS = {"place_ballot": 512, "place_bid": 512}


def padded(message: str, payload: dict[str, Any]) -> dict[str, Any]:
    """The payload as static/padding.js sends it."""
    width = WIDTHS.get(message)
    if width is None:
        return payload
    bare = len(json.dumps({**payload, "pad": ""}, separators=(",", ":")))
    return {**payload, "pad": " " * max(0, width - bare)}


class PagePeer(LoopPeer):
    """One page of the court on the bench's loop."""

    def __init__(
        self,
        loop: Loop,
        room: Room,
        index: int,
        *,
        keep_records: bool = False,
        keys: dict[str, bytes] | None = None,
    ) -> None:
        super().__init__(loop, room, index, keep_records=keep_records)
        self.keys = keys or {}  # the server's public keys by id, as kept at the first visit
        self.signed_at = -SIGN_EVERY  # when the page last checked a checkpoint's signature
        self.court: dict[str, Any] | None = None
        self.audience: str | None = None
        self.presence: dict[str, Any] | None = None
        self.feed: dict[int, dict[str, Any]] = {}
        self.witnessed: tuple[int, str] | None = None  # the version and hash kept
        self.pushes = 0
        self.push_bytes = 0
        self.cpu_ns = 0  # thread CPU spent reading pushes
        self.stale = 0  # changes the page could not apply: it would connect again
        self.unchained = 0  # pushes whose records did not chain: it would ask for the chain
        self.unheard: set[str] = set()  # messages the page does not listen for

    async def call(self, event: str, payload: dict[str, Any]) -> dict[str, Any]:
        return await super().call(event, padded(event, payload))

    def _socketio(self, kind: str, body: str) -> None:
        if kind != "2" or not body.startswith('["events"'):
            super()._socketio(kind, body)
            return
        started = time.thread_time_ns()
        super()._socketio(kind, body)
        self.cpu_ns += time.thread_time_ns() - started
        self.pushes += 1
        self.push_bytes += len(body)

    def _on(self, name: str, args: list[Any]) -> None:
        payload: dict[str, Any] = args[0] if args else {}
        if name not in PAGE_LISTENS:
            self.unheard.add(name)
        elif name == "welcome":
            self._welcome(payload)
        elif name == "events":
            self._events(payload)
        elif name == "presence":
            self.presence = payload
        super()._on(name, args)

    def _welcome(self, payload: dict[str, Any]) -> None:
        first = self.court is None
        self.court, self.audience = payload["court"], payload["audience"]
        checkpoint = payload["checkpoint"]
        self.witnessed = (checkpoint["version"], checkpoint["hash"])
        if first:
            asyncio.get_running_loop().create_task(self._backlog(payload["version"]))

    async def _backlog(self, version: int) -> None:
        after = max(0, version - FEED_LIMIT)
        while True:
            ack = await LoopPeer.call(self, "sync", {"last_version": after})
            self._feed(ack["records"])
            if not ack["more"]:
                return
            after = ack["next_after"]

    def _feed(self, records: list[dict[str, Any]]) -> None:
        for record in records:
            self.feed[record["version"]] = record
        for old in sorted(self.feed)[:-FEED_LIMIT]:
            del self.feed[old]

    def _events(self, push: dict[str, Any]) -> None:
        self._feed(push["records"])
        view = push.get("view")
        if view is None or self.court is None:
            return
        if view["audience"] == self.audience and self.court["game"]["version"] >= push["version"]:
            return
        if "court" in view:
            self.court = view["court"]
        elif view["audience"] == self.audience and self.court["game"]["version"] == view["from"]:
            jsonpatch.apply_patch(self.court, view["patch"], in_place=True)
        else:
            self.stale += 1
            return
        self.audience = view["audience"]
        self.court["checkpoint"] = push["checkpoint"]
        self._witness(push["records"], push["checkpoint"])

    def _witness(self, records: list[dict[str, Any]], checkpoint: dict[str, Any]) -> None:
        """As static/witness.js: the pushed records' hashes recomputed from the kept one."""
        if self.witnessed is None:
            return
        version, previous = self.witnessed
        for offset, record in enumerate(records):
            if record["version"] != version + 1 + offset:
                self.unchained += 1
                return
            previous = link(
                previous,
                game_id=record["game_id"],
                version=record["version"],
                type=record["type"],
                schema_version=record["schema_version"],
                recorded_at=record["recorded_at"],
                seat=record["seat"],
                data_json=canonical(record["data"]),
                private_sha256=record["private_sha256"],
            )
            if previous != record["hash"]:
                self.unchained += 1
                return
        if previous != checkpoint["hash"]:
            self.unchained += 1
            return
        # The hashes chain from the kept head at every push; the page checks the newest
        # checkpoint's signature at most every SIGN_EVERY seconds.
        self.witnessed = (checkpoint["version"], previous)
        if not self.keys or time.monotonic() < self.signed_at + SIGN_EVERY:
            return
        self.signed_at = time.monotonic()
        public = self.keys.get(checkpoint["key_id"])
        if public is None or not signed_by(public, checkpoint):
            self.unchained += 1
