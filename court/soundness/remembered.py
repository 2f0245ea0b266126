"""Checks of a court that remember their last answers by the parts of the court they read: the
invariants (court/soundness/invariants.py) run on every state a command leads to, most of which
change one part."""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from itertools import chain, compress
from operator import attrgetter, is_not
from typing import Any

from court.state import CourtState

Check = Callable[[CourtState], list[str]]
Court = Callable[[], CourtState | None]  # a weak reference to a court


def reads(*parts: str) -> Callable[[Check], Check]:
    """Declare the parts of the court a check reads: `Remembered` runs it again only when one
    of them changed (tests/court/test_invariant_reads.py traces what each check reads)."""

    def declare(check: Check) -> Check:
        check.reads = parts  # type: ignore[attr-defined]
        return check

    return declare


def declared_reads(check: Check) -> tuple[str, ...]:
    """The parts of the court `check` declared it reads."""
    parts: tuple[str, ...] = getattr(check, "reads")  # noqa: B009 - set by `reads`
    return parts


class Remembered:
    """Checks run in turn, each answering from the same game's last state checked while the
    parts it reads are the very same objects (the court is frozen: a changed part is a new
    object). The parts are compared once a state, not once a check, so checking every state a
    command leads to costs little beyond what changed. The last answers are kept per game: a
    server's commands come from many games in turn."""

    def __init__(self, checks: Sequence[Check]) -> None:
        self._checks = tuple(checks)
        # The class too: a court of another kind (a test's tracing court) is checked afresh.
        declared = [(*declared_reads(check), "__class__") for check in checks]
        fields = sorted({part for parts in declared for part in parts})
        bit = {field: 1 << i for i, field in enumerate(fields)}
        self._read = attrgetter(*fields)
        self._bits = tuple(bit.values())
        self._uses = tuple(sum({bit[part] for part in parts}) for parts in declared)
        self._last: dict[str, tuple[tuple[Any, ...], list[tuple[str, ...]], Court]] = {}
        # Per set of changed parts (one bit each), the checks that read one of them.
        self._plans: dict[int, tuple[int, ...]] = {}

    def __call__(self, state: CourtState) -> list[str]:
        seen = self._last.get(state.game_id)  # one read and one write: safe between threads
        if seen is not None and seen[2]() is state:  # an event that changed nothing
            return list(chain.from_iterable(seen[1]))
        parts = self._read(state)
        if seen is None:
            answers = [tuple(check(state)) for check in self._checks]
        else:
            before, kept, _ = seen
            # One bit a part that is a new object: all of it in C, one pass over the parts.
            changed = sum(compress(self._bits, map(is_not, before, parts)))
            if not changed:
                return list(chain.from_iterable(kept))
            answers = list(kept)
            for at in self._plan(changed):
                answers[at] = tuple(self._checks[at](state))
        if len(self._last) >= GAMES:
            self._last.clear()
        self._last[state.game_id] = (parts, answers, _weakly(state))
        return list(chain.from_iterable(answers))

    def _plan(self, changed: int) -> tuple[int, ...]:
        plan = self._plans.get(changed)
        if plan is None:
            if len(self._plans) >= PLANS:
                self._plans.clear()
            plan = tuple(at for at, uses in enumerate(self._uses) if uses & changed)
            self._plans[changed] = plan
        return plan


def _weakly(state: CourtState) -> Court:
    """The court itself, weakly: a game's last court need not outlive the game's use. A court
    of a kind that takes no weak reference (a test's tracing court) is never the same."""
    try:
        return weakref.ref(state)
    except TypeError:
        return _gone


def _gone() -> None:
    return None


# The games whose last answers are kept; past them, they start afresh.
GAMES = 4096
# The sets of changed parts whose checks are kept; past them, they start afresh.
PLANS = 1024
