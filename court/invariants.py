"""Properties every court state must keep, whatever events led to it.

Used to refuse an imported log that was re-chained after a rule-breaking edit,
and by the simulation tests after every event.
"""

from __future__ import annotations

from court.state import CourtState


def violations(state: CourtState) -> list[str]:
    """Sentences naming each broken property; empty when the state is sound."""
    found: list[str] = []
    for house, gold in state.treasury.items():
        if gold < 0:
            found.append(
                f"House {house} holds {gold} Gold Dragons; a treasury never goes below 0 (R-2.1)"
            )
    if state.players and len(state.seats) > state.players:
        found.append(f"{len(state.seats)} seats are taken in a game for {state.players}")
    houses = [s.house for s in state.seats.values()]
    if len(houses) != len(set(houses)):
        found.append("two seats play the same House")
    if state.rules is not None:
        known = {h.id for h in state.rules.houses}
        found.extend(f"House {h} is not in the roster" for h in houses if h not in known)
    for title, noble in state.titles.items():
        if noble not in state.nobles:
            found.append(f"title {title} is held by unknown Noble {noble}")
    return found
