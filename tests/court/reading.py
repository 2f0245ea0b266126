"""A court that records which of its fields are read, and the courts of simulated games to read:
what checks that a section of the view, or an invariant, reads no part it does not declare."""

from __future__ import annotations

import types
from collections.abc import Iterator, Sequence
from typing import Any

from config.rulesdata import load_ruleset
from court.state import CourtState
from server.store.sql import SqlEventStore
from server.tools.simulate import VARIANTS, Simulation

FIELDS = frozenset(CourtState.__dataclass_fields__)
ROUNDS = 12


class Reading:
    """A court that records every field read of it, through its methods and properties too."""

    __slots__ = ("_court", "_read")

    def __init__(self, court: CourtState, read: set[str]) -> None:
        object.__setattr__(self, "_court", court)
        object.__setattr__(self, "_read", read)

    def __getattr__(self, name: str) -> Any:
        court = object.__getattribute__(self, "_court")
        found = getattr(type(court), name, None)
        if isinstance(found, property):
            return found.fget(self)  # type: ignore[misc]  # a property of CourtState
        if isinstance(found, types.FunctionType):
            return types.MethodType(found, self)
        if name in FIELDS:
            object.__getattribute__(self, "_read").add(name)
        return getattr(court, name)


def simulated_courts(
    games: Sequence[tuple[int, int, bool]], rounds: int = ROUNDS
) -> Iterator[tuple[CourtState, int]]:
    """Every court pushed in the simulated `games` (players, seed, every variant on), with its
    version."""
    pushed: list[tuple[CourtState, int]] = []

    class Collect:
        def publish(self, _game: str, records: Any, state: CourtState) -> None:
            if state.rules is not None:
                pushed.append((state, records[-1].version))

    for players, seed, every in games:
        store = SqlEventStore("sqlite://")
        store.create_schema()
        variants = dict.fromkeys(VARIANTS, True) if every else None
        game = Simulation(
            store, load_ruleset(), players=players, rounds=rounds, seed=seed, variants=variants
        )
        game.service.publishers.append(Collect())
        game.run()
        store.close()
    return iter(pushed)
