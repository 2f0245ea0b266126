"""Limits per client address, for HTTP and Socket.IO alike: token buckets on game creation,
seat claims, connections and messages, and a count of each address's open connections. An
IPv6 client counts as its network (a /64 unless LIMIT_IPV6_PREFIX says otherwise).

Each process limits alone, in its memory (docs/deployment.md); an address idle long enough
for its bucket to be full again is forgotten, and at most `MAX_ADDRESSES` are kept at once.
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from config.settings import Rate
from server.clients.addresses import limit_key

MAX_ADDRESSES = 100_000  # per bucket; the least recently seen address is forgotten first


class RateLimited(Exception):
    """Too many requests from one address (or connection): 429 with Retry-After over HTTP,
    `rate_limited` over Socket.IO."""

    code = "rate_limited"

    def __init__(self, what: str, retry_after: int) -> None:
        self.retry_after = retry_after
        self.message = f"Too many {what} from your address; try again in {retry_after} s."
        super().__init__(self.message)

    def as_dict(self) -> dict[str, str | int]:
        return {"code": self.code, "message": self.message, "retry_after": self.retry_after}


class Buckets:
    """One token bucket per key; a key whose bucket is full again is dropped, as if new."""

    def __init__(
        self,
        rate: Rate,
        *,
        most: int = MAX_ADDRESSES,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rate = rate
        self.most = most
        self.clock = clock
        self._idle = rate.burst / rate.per_second  # seconds after which a bucket is full
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, key: str) -> float:
        """0 when a token was taken; else the seconds until the next one."""
        now = self.clock()
        with self._lock:
            self._expire(now)
            tokens, last = self._buckets.pop(key, (self.rate.burst, now))
            tokens = min(self.rate.burst, tokens + (now - last) * self.rate.per_second)
            wait = 0.0 if tokens >= 1 else (1 - tokens) / self.rate.per_second
            self._buckets[key] = (tokens - 1 if wait == 0 else tokens, now)
            return wait

    def forget(self, key: str) -> None:
        with self._lock:
            self._buckets.pop(key, None)

    def __len__(self) -> int:
        return len(self._buckets)

    def _expire(self, now: float) -> None:
        """Oldest first: the keys seen least recently are at the front."""
        while self._buckets:
            key, (_, last) = next(iter(self._buckets.items()))
            if now - last < self._idle and len(self._buckets) < self.most:
                return
            del self._buckets[key]


@dataclass(frozen=True, slots=True)
class LimitSettings:
    """The limits of settings.py: a rate per kind, and open connections per address."""

    games: Rate
    seats: Rate
    connects: Rate
    messages: Rate
    connection_messages: Rate
    connections: int
    ipv6_prefix: int = (
        64  # bits of an IPv6 address that name one client (server/clients/addresses.py)
    )


WHAT = {
    "games": "new games",
    "seats": "seat claims",
    "connects": "connections",
    "messages": "messages",
}


class Limits:
    """Every limit of one process. `enabled=False` lets everything through (benches and
    tests that play many games from one address)."""

    def __init__(self, settings: LimitSettings, *, enabled: bool = True) -> None:
        self.settings = settings
        self.enabled = enabled
        self.buckets = {
            "games": Buckets(settings.games),
            "seats": Buckets(settings.seats),
            "connects": Buckets(settings.connects),
            "messages": Buckets(settings.messages),
        }
        self.per_connection = Buckets(settings.connection_messages)
        self._open: dict[str, int] = {}
        self._lock = threading.Lock()

    def key(self, address: str) -> str:
        """Whom an address is counted as: itself, or its IPv6 network."""
        return limit_key(address, self.settings.ipv6_prefix)

    def check(self, kind: str, address: str) -> None:
        """Take one of `address`'s tokens of this kind; RateLimited when there is none."""
        if not self.enabled:
            return
        wait = self.buckets[kind].take(self.key(address))
        if wait:
            raise RateLimited(WHAT[kind], math.ceil(wait))

    def message(self, address: str, connection: str) -> None:
        """A Socket.IO message: the connection's own bucket, then its address's."""
        if not self.enabled:
            return
        wait = self.per_connection.take(connection)
        if wait:
            raise RateLimited("messages on this connection", math.ceil(wait))
        self.check("messages", address)

    def open(self, address: str) -> None:
        """A connection opens: the address's connect rate, then its count of open ones.
        Every `open` that returns is matched by one `close`."""
        self.check("connects", address)
        key = self.key(address)
        with self._lock:
            count = self._open.get(key, 0)
            if self.enabled and count >= self.settings.connections:
                raise RateLimited("open connections", 1)
            self._open[key] = count + 1

    def close(self, address: str, connection: str) -> None:
        self.per_connection.forget(connection)
        key = self.key(address)
        with self._lock:
            count = self._open.pop(key, 0) - 1
            if count > 0:
                self._open[key] = count

    def open_count(self, address: str) -> int:
        with self._lock:
            return self._open.get(self.key(address), 0)
