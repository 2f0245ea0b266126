"""The power a decree turn acts through (R-6.7): recorded in the step's opening event and held
in the court state while the step runs."""

from __future__ import annotations

from dataclasses import dataclass

from court.ids import NobleId, TitleId


@dataclass(frozen=True, slots=True, kw_only=True)
class Power:
    """The title a turn acts through and the Noble who held it when the step opened: the
    power is his alone, as the court stands when it is used (R-6.7)."""

    title: TitleId
    noble: NobleId
