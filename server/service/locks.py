"""A game's lock, which serves its waiters in the order they arrived, and the back-off of a
command that lost a race to another writer of its game.

`threading.Lock` makes no promise about which waiter wins; a game's commands must
be applied in arrival order, so each game has one of these instead. A command that lost the
race waits a random pause that doubles with each loss before it is decided again, so that two
processes racing on one game fall out of step instead of one of them losing every time.
"""

from __future__ import annotations

import random
import threading
from types import TracebackType

# Seconds of the most the pause after the first loss may be, and the most it ever grows to.
FIRST = 0.002
MOST = 0.05


class FifoLock:
    def __init__(self) -> None:
        self._cond = threading.Condition(threading.Lock())
        self._next_ticket = 0
        self._serving = 0

    def acquire(self) -> None:
        with self._cond:
            ticket = self._next_ticket
            self._next_ticket += 1
            while ticket != self._serving:
                self._cond.wait()

    def release(self) -> None:
        with self._cond:
            self._serving += 1
            self._cond.notify_all()

    @property
    def waiting(self) -> int:
        """Holders and waiters: tickets handed out and not yet released."""
        with self._cond:
            return self._next_ticket - self._serving

    def __enter__(self) -> FifoLock:
        self.acquire()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.release()


class FifoLocks:
    """One FifoLock per key (a game), made when first asked for."""

    def __init__(self) -> None:
        self._locks: dict[str, FifoLock] = {}
        self._guard = threading.Lock()

    def of(self, key: str) -> FifoLock:
        lock = self._locks.get(key)  # one read: safe between threads
        if lock is not None:
            return lock
        with self._guard:  # made once: `setdefault` would make one a call, to drop it
            lock = self._locks.get(key)
            if lock is None:
                lock = self._locks[key] = FifoLock()
            return lock


def pause_after(losses: int) -> float:
    """The pause, in seconds, after the race was lost `losses` times in a row (1 or more)."""
    return random.uniform(0, min(FIRST * 2 ** (losses - 1), MOST))
