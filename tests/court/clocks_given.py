"""A lobby of the clocks variant (R-4.3 [D]) with the banks a test gives, started at T0, for
the engine tests of the clocks."""

from __future__ import annotations

from typing import Any

from court.commands import (
    StartGame,
)
from tests.court.given import HOST, Table, created, joined

T0 = 1_000_000.0


def clocked(players: int = 3, **banks: int) -> Table:
    """A lobby of the clocks variant with these banks (seconds), started at T0."""
    changes: dict[str, Any] = {"variants__clocks": True}
    changes.update({f"clocks__{kind}": seconds for kind, seconds in banks.items()})
    table = Table(created(players, **changes), *(joined(i) for i in range(players)))
    table.act(StartGame(), HOST, T0)
    return table
