"""An outage as the log tells it (server/outages.py): one warning at the first failure, one line
at the first success after it with how long it lasted, and nothing in between."""

from __future__ import annotations

import logging

import pytest

from server.outages import Outage, short_reason


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def lines(caplog: pytest.LogCaptureFixture) -> list[tuple[str, str]]:
    return [(r.levelname, r.getMessage()) for r in caplog.records if r.name.startswith("small")]


def test_many_failures_then_many_successes_log_two_lines(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    clock = Clock()
    redis = Outage("redis", clock)
    redis.passed()
    for n in range(50):
        redis.failed(ConnectionError(f"Error 111 connecting, attempt {n}"))
        clock.now += 0.0625
    for _ in range(3):
        redis.passed()

    assert lines(caplog) == [
        ("WARNING", "redis unavailable: Error 111 connecting, attempt 0"),
        ("INFO", "redis available again after 3.1 s"),
    ]
    assert not redis.down


def test_an_outage_of_writes_ends_with_a_write_only(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    database = Outage("database", Clock())
    database.failed("database or disk is full", of_writes=True)
    database.passed()  # a read: the disk is still full

    assert database.down
    database.passed(writing=True)
    assert [message for _, message in lines(caplog)] == [
        "database unavailable: database or disk is full",
        "database available again after 0.0 s",
    ]


def test_a_second_outage_is_told_again(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    redis = Outage("redis", Clock())
    for _ in range(2):
        redis.failed(OSError("refused"))
        redis.passed()

    assert len(lines(caplog)) == 4


@pytest.mark.parametrize(
    ("reason", "told"),
    [
        (OSError("first line\nDETAIL: second line"), "first line"),
        (TimeoutError(), "TimeoutError"),
        ("x" * 500, "x" * 200),
    ],
)
def test_a_reason_is_told_in_one_short_line(reason: BaseException | str, told: str) -> None:
    assert short_reason(reason) == told
