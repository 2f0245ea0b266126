"""An outage of a dependency (Redis, the database) as the log tells it: one line when the first
failure comes, one when the first success after it comes, with how long it lasted; nothing in
between, however many requests and attempts fail meanwhile."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

log = logging.getLogger("small_council.outage")

REASON_CHARS = 200  # a driver's message can run to several lines; its first is enough


def short_reason(reason: BaseException | str) -> str:
    """The first line of a failure's message (its type's name when it says nothing)."""
    text = str(reason).strip().splitlines()[0] if str(reason).strip() else ""
    if isinstance(reason, BaseException):
        text = text or type(reason).__name__
    return text[:REASON_CHARS]


class Outage:
    """The state of one dependency in this process: up, or down since some moment.

    An outage opened by a failure `of_writes` (a full disk) ends only when a write passes:
    reads go on passing all the while, and must not end it at each request."""

    def __init__(self, name: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.name = name
        self.clock = clock
        self._since: float | None = None
        self._of_writes = False
        self._lock = threading.Lock()

    @property
    def down(self) -> bool:
        return self._since is not None

    def failed(self, reason: BaseException | str, *, of_writes: bool = False) -> None:
        """A request or attempt failed for want of the dependency: the outage's first line,
        or nothing while it lasts."""
        with self._lock:
            if self._since is not None:
                return
            self._since = self.clock()
            self._of_writes = of_writes
        log.warning("%s unavailable: %s", self.name, short_reason(reason))

    def passed(self, *, writing: bool = False) -> None:
        """A request or attempt reached the dependency: the outage's last line, if one lasts."""
        if self._since is None:  # the common case, without the lock
            return
        with self._lock:
            if self._since is None or (self._of_writes and not writing):
                return
            lasted = self.clock() - self._since
            self._since = None
        log.info("%s available again after %.1f s", self.name, lasted)
