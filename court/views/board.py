"""The board as every viewer sees it alike: the marriage alliances, the titles and who holds
them, and the map's regions with who controls each village and its Septs."""

from __future__ import annotations

from typing import Any

from court.state import CourtState


def alliances_view(state: CourtState) -> list[dict[str, Any]]:
    """The marriage alliances (R-5.2): the two seats, their Houses, and the couple."""
    return [
        {
            "seats": list(a.seats),
            "houses": [state.seats[seat].house for seat in a.seats],
            "lord": a.lord,
            "lady": a.lady,
        }
        for a in state.alliances
    ]


def titles_view(state: CourtState) -> list[dict[str, Any]]:
    return [
        {
            "id": t.id,
            "name": t.name,
            "category": t.category.value,
            "vp": t.vp,
            "council": t.council,
            "nights_watch": t.nights_watch,
            "holder": state.titles.get(t.id),
        }
        for t in state.ruleset.titles
    ]


def regions_view(state: CourtState) -> list[dict[str, Any]]:
    """The map's regions and their villages: who controls each, and its Septs."""
    rules = state.ruleset
    return [
        {
            "id": r.id,
            "number": r.number,
            "name": r.name,
            "principal": r.principal,
            "villages": [
                {
                    "id": v.id,
                    "name": v.name,
                    "fiefdom": v.fiefdom,
                    "controller": state.villages.get(v.id),
                    "sept": v.id in state.septs,
                    "septs": state.septs.get(v.id, 0),
                }
                for v in rules.villages
                if v.region == r.id
            ],
        }
        for r in rules.regions
    ]
