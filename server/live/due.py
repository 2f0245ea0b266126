"""What falls due at a time of a clock, acted on in a thread of its own: the deadline watcher's
closes (server/live/deadlines.py) and the bot's moves (server/live/bots.py) are both things of a
game to do once a time has come, whichever command announced them."""

from __future__ import annotations

import heapq
import threading
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

T = TypeVar("T", bound=Hashable)


class Due(Generic[T]):
    """Items, each due at a time of `clock`, handed one at a time to `act` in the thread `name`
    once due, earliest first. The same item at the same time is held once, however often it is
    announced."""

    def __init__(self, name: str, act: Callable[[T], object], clock: Callable[[], float]) -> None:
        self.name = name
        self.act = act
        self.clock = clock
        self._heap: list[tuple[float, T]] = []
        self._held: set[tuple[float, T]] = set()  # what the heap holds
        self._wake = threading.Condition()
        self._stopped = False
        self._thread: threading.Thread | None = None

    def add(self, at: float, item: T) -> None:
        with self._wake:
            if (at, item) in self._held:
                return
            self._held.add((at, item))
            heapq.heappush(self._heap, (at, item))
            self._wake.notify()

    def drop(self, gone: Callable[[T], bool]) -> None:
        """Hold no more the items `gone` says are."""
        with self._wake:
            kept = [due for due in self._heap if not gone(due[1])]
            if len(kept) != len(self._heap):
                self._heap = kept
                heapq.heapify(self._heap)
                self._held = set(kept)

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        with self._wake:
            self._stopped = True
            self._wake.notify()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _run(self) -> None:
        while True:
            with self._wake:
                while not self._stopped and (not self._heap or self._heap[0][0] > self.clock()):
                    timeout = self._heap[0][0] - self.clock() if self._heap else None
                    self._wake.wait(timeout=timeout)
                if self._stopped:
                    return
                due = heapq.heappop(self._heap)
                self._held.discard(due)
            self.act(due[1])
