"""What falls due in a thread of its own: the deadlines' closes and the bot's moves."""

from __future__ import annotations

import threading
import time

from server.live.due import Due


def test_what_is_due_is_acted_on_once_earliest_first_and_a_dropped_item_never() -> None:
    acted: list[str] = []
    done = threading.Event()

    def act(item: str) -> None:
        acted.append(item)
        if item == "last":
            done.set()

    due: Due[str] = Due("test-due", act, time.monotonic)
    now = time.monotonic()
    # Given items announced out of order, one of them twice, and one dropped
    due.add(now + 0.06, "last")
    due.add(now + 0.02, "first")
    due.add(now + 0.02, "first")
    due.add(now + 0.04, "dropped")
    due.drop(lambda item: item == "dropped")
    # When the thread runs past them all
    due.start()
    try:
        assert done.wait(5)
    finally:
        due.stop()
    # Then each was acted on once, earliest first, the dropped one never
    assert acted == ["first", "last"]


def test_a_stopped_thread_acts_on_nothing_still_to_come() -> None:
    acted: list[str] = []
    due: Due[str] = Due("test-due", acted.append, time.monotonic)
    due.add(time.monotonic() + 0.2, "later")
    due.start()
    due.stop()
    time.sleep(0.3)
    assert acted == []
