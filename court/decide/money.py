"""Paying at court: a treasury never goes below zero (R-2.1)."""

from __future__ import annotations

from court.errors import CourtError
from court.ids import HouseId
from court.state import CourtState


def afford(state: CourtState, house: HouseId, amount: int) -> None:
    """R-2.1: a payment the House cannot afford is refused."""
    if state.treasury[house] < amount:
        raise CourtError(
            "treasury_too_low",
            f"This costs {amount} Gold Dragons and your House holds {state.treasury[house]}; "
            "a treasury never goes below zero (R-2.1).",
        )
