"""Fold events into the court state. `evolve` trusts its input: every check lives in `decide`.

Dispatch is a dict keyed by event type rather than a `match`: replaying a long
game calls `evolve` once per event, and a chain of class patterns grows with
every event type while a dict lookup does not. Each subdomain module holds the
handlers of its own events.
"""

from __future__ import annotations

from collections.abc import Iterable

from court.events import Event
from court.evolve import (
    bots,
    clocks,
    decrees,
    devices,
    elections,
    nobles,
    purchases,
    rounds,
    seats,
    setup,
    table,
    titles,
)
from court.evolve.base import Handlers
from court.ids import GameId
from court.state import CourtState

HANDLERS: Handlers = {
    **setup.HANDLERS,
    **rounds.HANDLERS,
    **elections.HANDLERS,
    **titles.HANDLERS,
    **nobles.HANDLERS,
    **decrees.HANDLERS,
    **purchases.HANDLERS,
    **clocks.HANDLERS,
    **seats.HANDLERS,
    **table.HANDLERS,
    **devices.HANDLERS,
    **bots.HANDLERS,
}


def initial(game_id: GameId) -> CourtState:
    return CourtState(game_id=game_id)


def replay(game_id: GameId, events: Iterable[Event]) -> CourtState:
    state = initial(game_id)
    for event in events:
        state = evolve(state, event)
    return state


def evolve(state: CourtState, event: Event) -> CourtState:
    return HANDLERS[type(event)](state, event)
