"""What every evolve module shares: the fast copy of the court state."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from court.events import Event
from court.ids import HouseId
from court.model.frozen import replacer
from court.state import CourtState, Ledger

replace = replacer(CourtState)


def issued(state: CourtState, amount: int) -> Ledger:
    """The ledger with `amount` Gold Dragons come into the treasuries by a rule or a fact."""
    ledger = state.ledger
    return Ledger(issued=ledger.issued + amount, spent=ledger.spent, held=ledger.held)


def spent(state: CourtState, amount: int) -> Ledger:
    """The ledger with `amount` Gold Dragons paid to the bank for what was delivered."""
    ledger = state.ledger
    return Ledger(issued=ledger.issued, spent=ledger.spent + amount, held=ledger.held)


def hold(state: CourtState, house: HouseId, amount: int) -> Ledger:
    """The ledger with `amount` more of `house`'s Dragons held by the bank for a purchase not
    delivered yet (R-4.6)."""
    ledger = state.ledger
    held = {**ledger.held, house: ledger.held.get(house, 0) + amount}
    return Ledger(issued=ledger.issued, spent=ledger.spent, held=held)


def release(state: CourtState, house: HouseId, delivered: bool) -> Ledger:
    """The ledger once what `house` bought is delivered (its held price spent) or not (the
    price leaves the ledger: the event that says so gives it back to the treasury)."""
    ledger = state.ledger
    price = ledger.held.get(house, 0)
    held = {h: gold for h, gold in ledger.held.items() if h != house}
    return Ledger(issued=ledger.issued, spent=ledger.spent + (price if delivered else 0), held=held)


Handlers = dict[type[Event], Callable[[CourtState, Any], CourtState]]
