"""Group commit: work that arrives while an earlier write is under way (appends to the
database, announcements to Redis) is written together, in one transaction or one round trip,
by whichever of its callers comes first.

Each caller hands its work to `GroupCommit.submit` and waits. When no write is under way,
the caller becomes the leader: it takes every item queued so far (up to `most`), writes them
with one call of `write_many`, and wakes their callers with their outcomes; then the oldest
item still queued (queued while it wrote) is woken to lead the next group. No thread of its
own: it works the same with real threads and with gevent's greenlets.

On PostgreSQL appends commit one at a time (server/store/postgres.py): a group pays for one
transaction, one lock and one flush of the write-ahead log instead of one each.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

Work = TypeVar("Work")


class Item(Generic[Work]):
    """One caller's work, and what became of it: `error` is raised to that caller alone."""

    __slots__ = ("done", "error", "wake", "work")

    def __init__(self, work: Work) -> None:
        self.work = work
        self.done = False
        self.error: BaseException | None = None
        # Made only for a caller that waits: a leader never does, and one Event costs a
        # Condition and a lock, a good part of an uncontended append.
        self.wake: threading.Event | None = None


class GroupCommit(Generic[Work]):
    """`submit` runs `write_many` over groups of at most `most` items. `write_many` sets an
    item's `error` for a failure of that item alone; an exception it raises fails every item
    of the group."""

    def __init__(self, write_many: Callable[[Sequence[Item[Work]]], None], most: int) -> None:
        self._write_many = write_many
        self._most = most
        self._guard = threading.Lock()
        self._queue: deque[Item[Work]] = deque()
        self._busy = False

    def submit(self, work: Work) -> None:
        """Write `work` (with whatever else is waiting); raises its failure."""
        item = Item(work)
        with self._guard:
            lead = not self._busy
            if not lead:
                item.wake = threading.Event()
            self._queue.append(item)
            self._busy = True
        if item.wake is not None:
            try:
                item.wake.wait()  # written by a leader, or told to lead the next group
            except BaseException:  # the caller is stopped (a greenlet killed): step out
                self._abandon(item)
                raise
        if not item.done:
            self._lead()
        if item.error is not None:
            raise item.error

    def _abandon(self, item: Item[Work]) -> None:
        """Take a stopped caller's unwritten item out of the queue; when it had been told to
        lead, the next one leads instead."""
        with self._guard:
            if item.done or item not in self._queue:
                return
            told_to_lead = item is self._queue[0] and _woken(item)
            self._queue.remove(item)
            if told_to_lead:
                if self._queue:
                    _wake(self._queue[0])
                else:
                    self._busy = False

    def _lead(self) -> None:
        """Write the oldest queued items (the leader's own is first), then hand over."""
        with self._guard:
            group = [self._queue.popleft() for _ in range(min(self._most, len(self._queue)))]
        try:
            self._write_many(group)
        except BaseException as exc:
            for item in group:
                item.error = item.error or exc
            raise
        finally:
            for item in group:
                item.done = True
                _wake(item)
            with self._guard:
                if self._queue:
                    _wake(self._queue[0])  # it leads the next group
                else:
                    self._busy = False


def _wake(item: Item[Any]) -> None:
    if item.wake is not None:
        item.wake.set()


def _woken(item: Item[Any]) -> bool:
    return item.wake is not None and item.wake.is_set()
