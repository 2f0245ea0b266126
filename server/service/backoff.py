"""How long a command that lost a race to another writer of its game waits before it is decided
again: a random pause that doubles with each loss, so that two processes racing on one game
fall out of step instead of one of them losing every time."""

from __future__ import annotations

import random

# Seconds of the most the pause after the first loss may be, and the most it ever grows to.
FIRST = 0.002
MOST = 0.05


def pause_after(losses: int) -> float:
    """The pause, in seconds, after the race was lost `losses` times in a row (1 or more)."""
    return random.uniform(0, min(FIRST * 2 ** (losses - 1), MOST))
