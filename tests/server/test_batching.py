"""Group commit (server/store/group_commit.py): callers queued behind a write are written together,
in
groups of a bounded size, each once; a failing write or a stopped caller never leaves the
next group waiting."""

from __future__ import annotations

import threading
from collections.abc import Sequence

import pytest

from server.store.group_commit import GroupCommit, Item
from tests.waiting import wait_until

WAIT = 10.0  # seconds any step may take


def test_a_group_write_that_fails_fails_every_caller_and_the_next_group_still_runs() -> None:
    # Given a writer whose first group raises
    calls: list[int] = []

    def write_many(group: Sequence[Item[int]]) -> None:
        calls.append(len(group))
        if len(calls) == 1:
            raise OSError("disk on fire")

    commits: GroupCommit[int] = GroupCommit(write_many, most=8)
    # When a caller submits, then another
    with pytest.raises(OSError):
        commits.submit(1)
    commits.submit(2)
    # Then the second was written: the failure did not leave the writer taken
    assert calls == [1, 1]


def test_a_group_is_at_most_the_given_size_and_every_caller_is_written_once() -> None:
    # Given a writer that is slow while twenty callers queue
    written: list[int] = []
    sizes: list[int] = []
    gate = threading.Event()

    def write_many(group: Sequence[Item[int]]) -> None:
        gate.wait(WAIT)
        sizes.append(len(group))
        written.extend(item.work for item in group)

    commits: GroupCommit[int] = GroupCommit(write_many, most=8)
    threads = [threading.Thread(target=commits.submit, args=(n,)) for n in range(20)]
    for thread in threads:
        thread.start()
    wait_until(lambda: len(commits._queue) >= 19)
    # When the writer frees
    gate.set()
    for thread in threads:
        thread.join(WAIT)
    # Then each was written once, in groups of at most eight
    assert sorted(written) == list(range(20))
    assert max(sizes) <= 8 and sizes[0] == 1


def test_a_caller_stopped_while_told_to_lead_hands_the_lead_on() -> None:
    # Given a queue of two behind a write, the first of which is stopped when woken to lead
    gate = threading.Event()
    written: list[int] = []

    def write_many(group: Sequence[Item[int]]) -> None:
        gate.wait(WAIT)
        written.extend(item.work for item in group)

    commits: GroupCommit[int] = GroupCommit(write_many, most=1)
    leader = threading.Thread(target=commits.submit, args=(0,))
    leader.start()
    wait_until(lambda: commits._busy)
    stopped = Item(1)
    stopped.wake = threading.Event()  # a caller queued behind a write waits on one
    commits._queue.append(stopped)
    later = threading.Thread(target=commits.submit, args=(2,))
    later.start()
    wait_until(lambda: len(commits._queue) == 2)
    # When the write ends, the stopped caller is told to lead and steps out instead
    gate.set()
    wait_until(lambda: stopped.wake is not None and stopped.wake.is_set())
    commits._abandon(stopped)
    leader.join(WAIT)
    later.join(WAIT)
    # Then the one behind it led and was written; the stopped one was not
    assert written == [0, 2]
    assert not commits._busy
