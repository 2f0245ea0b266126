"""The court page as the benches play it: a peer that listens for what static/lib/live.js
listens for and reads each message as static/pages/court.js and static/lib/witness.js do, on
bench/load.py's loop (PagePeer) or in python-socketio's threads for bench/live.py
(ThreadPagePeer).

On its first welcome it keeps the court view and asks for the feed's records with `sync`,
as the page does; each push's change of the sections every audience sees alike, then its
audience's own part when the push names it, is applied to the court it holds (RFC 6902, with
`jsonpatch` as the page applies it with fast-json-patch), and the witness recomputes the hash
of every pushed record from the last one it kept and checks the newest checkpoint's Ed25519
signature at most every SIGN_EVERY seconds, as static/lib/witness.js does. A change the page could
not apply (from a version it does not hold, a part it missed, a part for another audience), or
records that do not chain, are counted: the page would connect again or ask the server for the
chain. Bytes (a push's and its own part's) and CPU spent on pushes are counted per peer.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from typing import Any

import jsonpatch
from live_peers import ACK_SECONDS, NAMESPACE, Peer, Room
from loop_peers import Loop, LoopPeer
from page_keys import MoveFold, PageKey

from court.log.chain import canonical, link
from server.keys.signing import signed_by

# What static/lib/live.js listens for on the court's namespace (tests/scale keeps them equal).
PAGE_LISTENS = frozenset({"welcome", "events", "own", "presence", "talk", "seat_ended"})
# What the page sends by itself, besides the commands its player chooses.
PAGE_SENDS = frozenset({"sync"})
SIGN_EVERY = 5.0  # seconds: static/lib/witness.js SIGN_EVERY_MS
FEED_LIMIT = 30  # the records the page's feed shows (static/panels/feed.js)
# The sealed choices the page pads to one width (static/lib/padding.js).
WIDTHS = {"place_ballot": 512, "place_bid": 512}


def padded(message: str, payload: dict[str, Any]) -> dict[str, Any]:
    """The payload as static/lib/padding.js sends it."""
    width = WIDTHS.get(message)
    if width is None:
        return payload
    bare = len(json.dumps({**payload, "pad": ""}, separators=(",", ":")))
    return {**payload, "pad": " " * max(0, width - bare)}


class CourtPage:
    """What the court page keeps and how it reads each message, without a connection: the
    court view from the welcome and the pushes (static/pages/court.js `follow` and `followOwn`), the
    feed's records, and the witness's last version and hash (static/lib/witness.js). The tests
    play it against the server's pushes too (tests/property/test_pushed_views.py)."""

    def __init__(self, keys: dict[str, bytes] | None = None) -> None:
        self.keys = keys or {}  # the server's public keys by id, as kept at the first visit
        self.signed_at = -SIGN_EVERY  # when the page last checked a checkpoint's signature
        self.court: dict[str, Any] | None = None
        self.audience: str | None = None
        self.feed: dict[int, dict[str, Any]] = {}
        self.witnessed: tuple[int, str] | None = None  # the version and hash kept
        self.awaiting: int | None = None  # the version whose own part the page waits for
        self.stale = 0  # changes the page could not apply: it would connect again
        self.unchained = 0  # pushes whose records did not chain: it would ask for the chain
        self.moves = MoveFold()  # the players' keys, each signed move checked against them

    def welcome(self, payload: dict[str, Any]) -> bool:
        """The welcome's court and audience; whether it is the page's first."""
        first = self.court is None and self.witnessed is None
        self.court, self.audience = payload["court"], payload["audience"]
        self.awaiting = None
        checkpoint = payload["checkpoint"]
        self.witnessed = (checkpoint["version"], checkpoint["hash"])
        self.moves.known(self.court.get("devices", []))
        return first

    def events(self, push: dict[str, Any]) -> None:
        """A push, as static/pages/court.js `follow` reads it."""
        self.add(push["records"])
        view = push.get("view")
        if view is None or self.court is None or self.court["game"]["version"] >= push["version"]:
            return
        start = view["from"]
        if self.awaiting is not None or (
            start is not None and start != self.court["game"]["version"]
        ):
            self.lose()
            return
        jsonpatch.apply_patch(self.court, view["patch"], in_place=True)
        if self.audience in view["own"]:
            self.awaiting = push["version"]
        self.court["checkpoint"] = push["checkpoint"]
        self._witness(push["records"], push["checkpoint"])

    def own(self, part: dict[str, Any]) -> None:
        """A push's own part, as static/pages/court.js `followOwn` reads it."""
        if self.court is None:
            return
        if self.awaiting is None and self.court["game"]["version"] > part["version"]:
            return
        if part["audience"] != self.audience or part["version"] != self.awaiting:
            self.lose()
            return
        self.awaiting = None
        if "records" in part:
            self.add(part["records"])
        jsonpatch.apply_patch(self.court, part["patch"], in_place=True)

    def lose(self) -> None:
        """The page could not keep its view: it would connect again (counted)."""
        self.stale += 1
        self.court = None
        self.awaiting = None

    def add(self, records: list[dict[str, Any]]) -> None:
        """Records into the feed, which keeps the last FEED_LIMIT (static/panels/feed.js)."""
        for record in records:
            self.feed[record["version"]] = record
        for old in sorted(self.feed)[:-FEED_LIMIT]:
            del self.feed[old]

    def _witness(self, records: list[dict[str, Any]], checkpoint: dict[str, Any]) -> None:
        """As static/lib/witness.js: the pushed records' hashes recomputed from the kept one."""
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
                recorded_at=record["recorded_at"],
                seat=record["seat"],
                **_hashed(record),
            )
            if previous != record["hash"]:
                self.unchained += 1
                return
        if previous != checkpoint["hash"]:
            self.unchained += 1
            return
        for record in records:  # each move believed only once its signature checks
            self.moves.see(record)
        # The hashes chain from the kept head at every push; the page checks the newest
        # checkpoint's signature at most every SIGN_EVERY seconds.
        self.witnessed = (checkpoint["version"], previous)
        if not self.keys or time.monotonic() < self.signed_at + SIGN_EVERY:
            return
        self.signed_at = time.monotonic()
        public = self.keys.get(checkpoint["key_id"])
        if public is None or not signed_by(public, checkpoint):
            self.unchained += 1


class PagePeer(LoopPeer):
    """One page of the court on the bench's loop: a CourtPage fed by its WebSocket."""

    def __init__(
        self,
        loop: Loop,
        room: Room,
        index: int,
        *,
        keep_records: bool = False,
        keys: dict[str, bytes] | None = None,
        key: PageKey | None = None,
    ) -> None:
        super().__init__(loop, room, index, keep_records=keep_records)
        self.page = CourtPage(keys)
        self.key = key  # the seat's device key: its moves go signed (None: a spectator)
        self.presence: dict[str, Any] | None = None
        self.pushes = 0
        self.push_bytes = 0
        self.cpu_ns = 0  # thread CPU spent reading pushes
        self.pushes = 0
        self.unheard: set[str] = set()  # messages the page does not listen for

    @property
    def stale(self) -> int:
        return self.page.stale

    @property
    def unchained(self) -> int:
        return self.page.unchained

    @property
    def unbelieved(self) -> int:
        return self.page.moves.unbelieved

    async def call(self, event: str, payload: dict[str, Any]) -> dict[str, Any]:
        return await super().call(event, sent(self.page.court, self.key, event, payload))

    def _socketio(self, kind: str, body: str) -> None:
        push = body.startswith('["events"')
        if kind != "2" or not (push or body.startswith('["own"')):
            super()._socketio(kind, body)
            return
        started = time.thread_time_ns()
        super()._socketio(kind, body)
        self.cpu_ns += time.thread_time_ns() - started
        self.pushes += push
        self.push_bytes += len(body)

    def _on(self, name: str, args: list[Any]) -> None:
        payload: dict[str, Any] = args[0] if args else {}
        if name not in PAGE_LISTENS:
            self.unheard.add(name)
        elif name == "welcome":
            if self.page.welcome(payload):
                asyncio.get_running_loop().create_task(self._backlog(payload["version"]))
        elif name == "events":
            self.page.events(payload)
        elif name == "own":
            self.page.own(payload)
        elif name == "presence":
            self.presence = payload
        super()._on(name, args)

    async def _backlog(self, version: int) -> None:
        after = max(0, version - FEED_LIMIT)
        while True:
            ack = await LoopPeer.call(self, "sync", {"last_version": after})
            self.page.add(ack["records"])
            if not ack["more"]:
                return
            after = ack["next_after"]


class ThreadPagePeer(Peer):
    """One page of the court as a python-socketio client: `page` fed by its WebSocket in the
    client's reading thread, and `key` the seat's device key its moves go signed with (None: a
    spectator's page, or an unkeyed seat's). A push counts as seen once read off the socket."""

    def __init__(
        self, room: Room, index: int, page: CourtPage, key: PageKey | None, **kept: bool
    ) -> None:
        super().__init__(room, index, **kept)
        self.page = page
        self.key = key
        self._reading = threading.Lock()  # the client's threads and the driver's
        self._welcomed = threading.Event()
        self.cpu_ns = 0  # thread CPU spent reading pushes
        self.pushes = 0
        self.client.on("own", self._on_own, namespace=NAMESPACE)

    def _on_welcome(self, payload: dict[str, Any]) -> None:
        with self._reading:
            self.page.welcome(payload)
        self._welcomed.set()
        super()._on_welcome(payload)

    def _on_events(self, payload: dict[str, Any]) -> None:
        # The push counts as come when it is read off the socket: the page's own work on it
        # is the player's device's, which sixteen devices do at once and this process one
        # after another (its CPU is printed apart).
        super()._on_events(payload)
        started = time.thread_time_ns()
        with self._reading:
            self.page.events(payload)
        self.cpu_ns += time.thread_time_ns() - started
        self.pushes += 1

    def _on_own(self, payload: dict[str, Any]) -> None:
        started = time.thread_time_ns()
        with self._reading:
            self.page.own(payload)
        self.cpu_ns += time.thread_time_ns() - started

    def connect(self, url: str, auth: dict[str, Any]) -> None:
        """Connects, then asks for the feed's records as the page does once welcomed."""
        super().connect(url, auth)
        if not self._welcomed.wait(ACK_SECONDS):
            raise RuntimeError(f"page {self.index} was never welcomed")
        with self._reading:
            version = self.page.court["game"]["version"] if self.page.court else 0
        after = max(0, version - FEED_LIMIT)
        while True:
            ack = super().call("sync", {"last_version": after})
            with self._reading:
                self.page.add(ack["records"])
            if not ack["more"]:
                return
            after = ack["next_after"]

    def call(self, event: str, payload: dict[str, Any]) -> dict[str, Any]:
        with self._reading:
            payload = sent(self.page.court, self.key, event, payload)
        return super().call(event, payload)


def sent(
    court: dict[str, Any] | None, key: PageKey | None, event: str, payload: dict[str, Any]
) -> dict[str, Any]:
    """A command's payload as the page sends it (static/lib/device.js `prepared`): by a keyed
    seat, salted and signed on the head of the court it last applied; padded when sealed."""
    if key is not None and court is not None:
        sealed = bool(court["game"]["variants"]["sealed_ballots"])
        payload = key.signed(event, payload, court["checkpoint"], sealed)
    return padded(event, payload)


def _hashed(record: dict[str, Any]) -> dict[str, Any]:
    """What the record's hash covers beside its own fields, as the page reads it
    (static/lib/witness.js `hashedFields`): its `hashed` part where it has one, else its schema
    version, digest and the canonical JSON of its public part."""
    if "hashed" in record:
        return record["hashed"]
    return {
        "schema_version": record["schema_version"],
        "data_json": canonical(record["data"]),
        "private_sha256": record["private_sha256"],
    }
