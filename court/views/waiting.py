"""Whom the court waits on now, and for what: the seats whose move it is, in the order the
page's table tells them (static/panels/table.js), with a key that changes whenever the turn does."""

from __future__ import annotations

from dataclasses import dataclass

from court.ids import Seat
from court.model import steps
from court.state import CourtState, PendingKind, Stage


@dataclass(frozen=True, slots=True, kw_only=True)
class Awaited:
    """`seats` must act `what` for in the step named `step`; `key` tells one turn from the
    next (the same seats awaited again in a later turn have another key); `place` names the
    step alone (round, phase, step), the same for every turn in it."""

    seats: tuple[Seat, ...]
    what: str
    step: str
    key: str
    place: str


def awaited(state: CourtState) -> Awaited | None:
    """The seats the court waits on, or None (a game in the lobby or over, or a phase played
    at the table that the host closes)."""
    found = _turn(state)
    if found is None:
        return None
    seats, what, progress = found
    step = steps.current(state)
    name = step.name if step is not None else "The court"
    place = f"{state.round}:{state.phase}:{step.id if step else ''}"
    key = f"{place}:{what}:{','.join(map(str, seats))}:{progress}"
    return Awaited(seats=seats, what=what, step=name, key=key, place=place)


def _turn(state: CourtState) -> tuple[tuple[Seat, ...], str, str] | None:
    """(seats, what for, how far the step has come) of the turn under way."""
    pending, decree, election = state.pending, state.decree, state.election
    auction, purchases = state.auction, state.purchase_turns
    if pending is not None:
        what = (
            "accept or refuse a title"
            if pending.kind is PendingKind.ACCEPTANCE
            else "pass on or return a title"
        )
        return (pending.seat,), what, f"{pending.title}:{pending.election}"
    if decree is not None and state.proposal is not None:
        proposal = state.proposal
        return (proposal.to_seat,), "answer a marriage proposal", proposal.to_noble
    if decree is not None and decree.current is not None:
        return (decree.current,), "decree turn", str(decree.turn)
    if election is not None and election.current is not None:
        what = "ballot" if election.stage is Stage.BALLOT else "candidacy"
        return (election.current,), what, f"{election.id}:{len(election.acted)}"
    if auction is not None and auction.winner is None and auction.waiting:
        return auction.waiting, "bid or pass", ""
    if auction is not None and auction.winner is not None:
        return (auction.winner,), "seat a Warden on the council", ""
    if purchases is not None and purchases.current is not None:
        return (purchases.current,), "purchases", str(purchases.turn)
    return None
