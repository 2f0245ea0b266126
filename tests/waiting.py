"""Waiting in a test for another thread to get somewhere: a bounded poll, never a bare sleep."""

from __future__ import annotations

import time
from collections.abc import Callable


def wait_until(condition: Callable[[], object], seconds: float = 10.0) -> None:
    """Returns once `condition()` holds; fails the test after `seconds`."""
    limit = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < limit, "timed out"
        time.sleep(0.001)
