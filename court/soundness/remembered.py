"""Checks of a court that remember their last answer by the parts of the court they read:
the invariants (court/soundness/invariants.py) run on every state a command leads to, most of which
change one part."""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter, is_
from typing import Any

from court.state import CourtState

Check = Callable[[CourtState], list[str]]


def reads(*parts: str) -> Callable[[Check], Check]:
    """A check that reads only these parts of the court answers from its last call on the
    same game when it is handed the very same parts (the court is frozen: a changed part is a
    new object), so that checking every state a command leads to costs little beyond what
    changed. The last answer is kept per game: a server's commands come from many games in
    turn, and one kept answer would be another game's at nearly every call."""

    # attrgetter of one name returns the value itself, of several a tuple: always a tuple.
    read = attrgetter(*parts, "__class__")

    def wrap(check: Check) -> Check:
        last: dict[str, tuple[tuple[Any, ...], tuple[str, ...]]] = {}

        def cached(state: CourtState) -> list[str]:
            key = read(state)
            seen = last.get(state.game_id)  # one read and one write: safe between threads
            if seen is not None and all(map(is_, seen[0], key)):
                return list(seen[1])
            found = check(state)
            if len(last) >= GAMES:
                last.clear()
            last[state.game_id] = (key, tuple(found))
            return found

        cached.__name__ = check.__name__
        cached.__doc__ = check.__doc__
        # What it declares it reads, and the check itself: a test traces the parts it reads.
        cached.reads = parts  # type: ignore[attr-defined]
        cached.__wrapped__ = check  # type: ignore[attr-defined]
        return cached

    return wrap


# The games whose last answers a check keeps; past them, it starts afresh.
GAMES = 4096
