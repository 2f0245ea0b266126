"""What every evolve module shares: the fast copy of the court state."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from court.events import Event
from court.frozen import replacer
from court.state import CourtState

replace = replacer(CourtState)

Handlers = dict[type[Event], Callable[[CourtState, Any], CourtState]]
