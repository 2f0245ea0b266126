"""Sections of the court view kept from one court to the next: the court is frozen (a changed
part is a new object), so a section made of the very same parts is the same section, and
being the same object it is compared with the view before at no cost (server/live/views.py)."""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any

from court.state import CourtState

# Per key: the parts of the court the section was made of, and the section.
Kept = dict[str, tuple[tuple[Any, ...], Any]]


def reuse(
    state: CourtState,
    kept: Kept | None,
    key: str,
    reads: Sequence[str],
    make: Callable[[CourtState], Any],
) -> Any:
    """The section under `key` in `kept` when the parts of the court it `reads` are the very
    same objects; else made anew and kept with them (made alone when `kept` is None)."""
    now = tuple(getattr(state, part) for part in reads)
    before = kept.get(key) if kept is not None else None
    if before is not None and all(map(operator.is_, before[0], now)):
        return before[1]
    section = make(state)
    if kept is not None:
        kept[key] = (now, section)
    return section
