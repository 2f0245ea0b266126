"""The talk service's rate limit: a few lines in a short window, more in a long one, counted per
sender, with a sentence saying how long to wait."""

from __future__ import annotations

import pytest

from court.errors import CourtError
from server.service.talk import LIMITS, RateLimit


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_five_lines_in_ten_seconds_then_the_sixth_waits() -> None:
    clock = Clock()
    rate = RateLimit(LIMITS, clock)
    for _ in range(5):
        rate.take("g", "seat:0")
        clock.now += 1
    with pytest.raises(CourtError) as refused:
        rate.take("g", "seat:0")
    assert refused.value.code == "talk_too_fast"
    assert refused.value.message == (
        "You are talking too fast: at most 5 lines in 10 seconds. Wait 5 s."
    )
    rate.take("g", "seat:1")  # another sender is counted alone
    rate.take("other", "seat:0")  # and so is the same seat in another game
    clock.now += 5
    rate.take("g", "seat:0")


def test_the_long_window_caps_a_steady_talker() -> None:
    clock = Clock()
    rate = RateLimit(LIMITS, clock)
    for _ in range(60):
        rate.take("g", "seat:0")
        clock.now += 2.5
    with pytest.raises(CourtError) as refused:
        rate.take("g", "seat:0")
    assert "at most 60 lines in 600 seconds" in refused.value.message
    clock.now = 1000.0 + 600
    rate.take("g", "seat:0")
