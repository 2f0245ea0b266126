"""A game's commands are applied one at a time, in the order they arrived."""

from __future__ import annotations

import threading

from server.service.locks import FifoLock, FifoLocks
from tests.waiting import wait_until


def test_waiters_are_served_in_arrival_order() -> None:
    lock = FifoLock()
    served: list[int] = []
    threads = []
    lock.acquire()
    for n in range(20):
        thread = threading.Thread(
            target=lambda n=n: (lock.acquire(), served.append(n), lock.release())
        )
        thread.start()
        threads.append(thread)
        wait_until(lambda n=n: lock.waiting == n + 2)  # the holder and n + 1 waiters
    lock.release()
    for thread in threads:
        thread.join(timeout=5)
    assert served == list(range(20))


def test_only_one_holder_at_a_time() -> None:
    lock = FifoLock()
    inside = []
    overlaps = []

    def work() -> None:
        for _ in range(200):
            with lock:
                inside.append(1)
                if len(inside) > 1:
                    overlaps.append(1)
                inside.pop()

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=10)
    assert overlaps == [] and lock.waiting == 0


def test_a_game_has_one_lock_whoever_asks_first() -> None:
    # Given threads asking at once for the locks of two games
    locks = FifoLocks()
    start = threading.Barrier(8)
    got: list[tuple[str, FifoLock]] = []

    def ask(game: str) -> None:
        start.wait(timeout=5)
        got.append((game, locks.of(game)))

    threads = [threading.Thread(target=ask, args=("ab"[n % 2],)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=5)
    # Then every asker of a game got the very same lock, and the two games two locks
    assert len(got) == 8
    assert {id(lock) for game, lock in got if game == "a"} == {id(locks.of("a"))}
    assert {id(lock) for game, lock in got if game == "b"} == {id(locks.of("b"))}
    assert locks.of("a") is not locks.of("b")
