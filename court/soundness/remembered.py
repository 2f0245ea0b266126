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
    """A check that reads only these parts of the court answers from the last call when it
    is handed the very same parts (the court is frozen: a changed part is a new object), so
    that checking every state a command leads to costs little beyond what changed."""

    # attrgetter of one name returns the value itself, of several a tuple: always a tuple.
    read = attrgetter(*parts, "__class__")
    never = object()  # matches no part, so the first call checks

    def wrap(check: Check) -> Check:
        last: list[Any] = [((never,) * (len(parts) + 1), ())]

        def cached(state: CourtState) -> list[str]:
            key = read(state)
            seen = last[0]  # one read and one write of a tuple: safe between threads
            if all(map(is_, seen[0], key)):
                return list(seen[1])
            found = check(state)
            last[0] = (key, tuple(found))
            return found

        cached.__name__ = check.__name__
        cached.__doc__ = check.__doc__
        return cached

    return wrap
