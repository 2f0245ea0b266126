"""The players' clocks as everyone may see them (R-4.3 [D] clocks variant): each player's time
left per kind of step, and whose clock runs since when, so that a page counts it down."""

from __future__ import annotations

from typing import Any

from court.ids import Seat
from court.options.clocks import awaited, runs_out
from court.state import CourtState

KINDS = ("candidacy", "ballot", "decree", "title_choice", "purchase")


def clocks_view(state: CourtState) -> dict[str, Any] | None:
    """None unless the game plays with clocks. `left` is what each bank held when its clock
    last stopped; a running clock's `runs_out` is when its bank reaches zero."""
    profile = state.ruleset.profile
    if not profile.variants.clocks:
        return None
    kinds = [kind for kind in KINDS if profile.clocks.bank(kind) > 0]
    waiting = awaited(state)
    return {
        "banks": {kind: profile.clocks.bank(kind) for kind in KINDS},
        "increment": profile.clocks.increment,
        "kind": next(iter(waiting.values()), None),
        "players": [
            {
                "seat": seat,
                "left": {kind: state.bank(seat, kind) for kind in kinds},
                "running": _running(state, seat),
            }
            for seat in sorted(state.seats)
        ],
    }


def _running(state: CourtState, seat: Seat) -> dict[str, Any] | None:
    clock = state.running.get(seat)
    if clock is None:
        return None
    return {"kind": clock.kind, "since": clock.started, "runs_out": runs_out(state, seat)}
