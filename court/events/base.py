"""The base of every court event.

Fields named in an event's `PRIVATE` set travel in the record's private part:
hashed into the chain but shown only to the owning seat until the game ends.
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
