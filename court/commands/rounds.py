"""Commands that move the round along (R-4)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True, kw_only=True)
class AdvancePhase:
    """Host: the table is done with the current phase (R-4.1)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class CloseTablePhases:
    """Host: the table is done with the current phase and with every phase played at the table
    that follows it, up to the next phase the server runs (R-4.1)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Pass:
    """Pass in the current step: no candidate, or no marker."""


@dataclass(frozen=True, slots=True, kw_only=True)
class CloseOverdueStep:
    """Close the step whose deadline has passed (anyone may ask; the clock decides)."""


RoundCommand = AdvancePhase | CloseTablePhases | Pass | CloseOverdueStep
