"""Recorded facts: what happened outside the court, entered by the host (section 9)."""

from __future__ import annotations

from court.commands import (
    Actor,
    AddNoble,
    AdjustGold,
    GrantMotherOfDragons,
    HeirBorn,
    JoinSmallCouncil,
    RecordCapture,
    RecordDeath,
    RecordEscape,
    RecordRelease,
    RecordVillageControl,
    RecordVillages,
    RecordWallSupplies,
)
from court.decide.guards import require_recorder, require_status
from court.errors import CourtError
from court.events import Event, FactRecorded, GoldAdjusted
from court.model.text import clean_cause
from court.sentences import names
from court.state import CourtState, GameStatus

# The commands that record a fact (section 9), with the kind each names in the history.
FACT_KINDS: dict[type, str] = {
    AdjustGold: "gold",
    RecordVillageControl: "village_control",
    RecordVillages: "village_control",
    RecordCapture: "capture",
    RecordRelease: "release",
    RecordEscape: "escape",
    RecordDeath: "death",
    AddNoble: "new_noble",
    JoinSmallCouncil: "join_the_small_council",
    GrantMotherOfDragons: "mother_of_dragons",
    HeirBorn: "heir_born",
    RecordWallSupplies: "wall_supplies",
}


def attributed(
    state: CourtState, command: object, actor: Actor, events: tuple[Event, ...]
) -> tuple[Event, ...]:
    """A fact's events, preceded by who recorded it (section 9); other commands' unchanged."""
    kind = FACT_KINDS.get(type(command))
    if kind is None:
        return events
    if actor.host:
        who = FactRecorded(fact=kind, by="host", name=state.host_name)
    else:
        who = FactRecorded(fact=kind, by="game_master", name=state.game_master_name or "")
    return (who, *events)


def adjust_gold(state: CourtState, cmd: AdjustGold, actor: Actor) -> tuple[Event, ...]:
    require_recorder(actor, "record Gold Dragons won or lost outside the court")
    require_status(state, GameStatus.PLAYING)
    if cmd.house not in state.treasury:
        raise CourtError("unknown_house", f"No House {cmd.house!r} plays in this game.")
    cause = clean_cause(cmd.cause)
    if cmd.amount == 0:
        raise CourtError("zero_amount", "An adjustment of 0 Gold Dragons changes nothing.")
    balance = state.treasury[cmd.house] + cmd.amount
    if balance < 0:
        raise CourtError(
            "treasury_too_low",
            f"A treasury can never go below zero (R-2.1): {names.house(state, cmd.house)} "
            f"holds {state.treasury[cmd.house]} GD, so it can lose "
            f"{state.treasury[cmd.house]} at most.",
        )
    return (GoldAdjusted(house=cmd.house, amount=cmd.amount, cause=cause),)
