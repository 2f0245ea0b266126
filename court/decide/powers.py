"""Turns of the decree steps and the powers they act through (R-4.2, R-6.7).

A turn that acts through a title belongs to the Noble who held it when the step opened:
he must still hold it, alive, in play and no Outlaw, when the power is used.
"""

from __future__ import annotations

from court.commands import Actor
from court.decide.guards import require_seat, require_status
from court.errors import CourtError
from court.ids import Seat, TitleId
from court.state import CourtState, GameStatus, NobleStatus, Power, TurnStep

Turn = tuple[Seat, Power | None]


def seat_holding(state: CourtState, title: TitleId) -> Seat | None:
    """The seat whose Noble holds the title and may use its power: in play, no Outlaw."""
    found = title_turn(state, title)
    return found[0] if found is not None else None


def title_turn(state: CourtState, title: TitleId) -> Turn | None:
    holder = state.holder(title)
    if holder is None or holder.status is not NobleStatus.IN_PLAY or holder.outlaw:
        return None
    seat = state.seat_of_house(holder.house)
    return None if seat is None else (seat, Power(title=title, noble=holder.id))


def power_lost(state: CourtState, power: Power) -> str | None:
    """Why the Noble can no longer use his title's power (R-6.7), or None while he can."""
    noble = state.nobles.get(power.noble)
    definition = state.ruleset.title(power.title)
    name = definition.name if definition is not None else power.title
    if noble is None or not noble.alive:
        what = "died"
    elif noble.status is NobleStatus.BROTHER:
        what = "took the black"
    elif state.titles.get(power.title) != power.noble:
        what = f"no longer holds the {name} title"
    elif noble.status is NobleStatus.CAPTIVE:
        what = "was captured"
    elif noble.outlaw:
        what = "was declared an Outlaw"
    else:
        return None
    who = noble.name if noble is not None else power.noble
    return f"{who} {what} since the step opened: the {name}'s power lapses (R-6.7)"


def turn(state: CourtState, actor: Actor, step: str, doing: str) -> tuple[TurnStep, Seat]:
    """The open step and the actor's seat, whose turn it must be, with its power intact."""
    require_status(state, GameStatus.PLAYING)
    seat = require_seat(actor, doing)
    decree = state.decree
    if state.pending is not None:
        raise CourtError("waiting_for_title", "The game waits for a title decision first (R-3.2).")
    if decree is None or decree.id != step:
        raise CourtError("wrong_step", f"You cannot {doing} now: that step is not open (R-4.2).")
    if state.proposal is not None:
        raise CourtError("waiting_for_answer", "A marriage proposal waits for its answer.")
    if decree.current != seat:
        raise CourtError("not_your_turn", "It is not your turn in this step (R-4.2).")
    lost = power_lost(state, decree.power) if decree.power is not None else None
    if lost is not None:
        raise CourtError("power_lapsed", f"{lost}.")
    return decree, seat
