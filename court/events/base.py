"""The base of every court event.

Fields named in an event's `PRIVATE` set travel in the record's private part:
hashed into the chain but shown only to the owning seat until the game ends.
`FOLLOWS_NO_FACT` marks the records that never follow from a recorded fact.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    PRIVATE: ClassVar[frozenset[str]] = frozenset()
    # The field naming the seat that owns this event's private part; without
    # one, the acting seat owns it.
    OWNER: ClassVar[str | None] = None
    # A record no recorded fact is ever followed by: the table's own votes and answers, who
    # recorded a fact, the clocks' marks. A correction's lapse never names one (R-9.1).
    FOLLOWS_NO_FACT: ClassVar[bool] = False
