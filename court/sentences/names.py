"""Readable names for the ids of a record: Houses, titles, elections, Nobles, villages,
players, Gold Dragons, decree steps and phases, written as the pages show them (the court view
gives the pages the phases' names: `game.phases`)."""

from __future__ import annotations

from collections.abc import Iterable

from court.ids import HouseId, NobleId, Seat, TitleId
from court.model import steps
from court.options import electorate
from court.state import CourtState, Phase

STEPS = {step.id: step.label for step in steps.DECREES}
# The eight phases of a round by their number and name.
PHASES: dict[str, str] = {
    Phase.DECREES: "1. Decrees and elections",
    Phase.CARDS: "2. Cards",
    Phase.INCOME: "3. Income",
    Phase.PURCHASES: "4. Purchases",
    Phase.MOVEMENT: "5. Movement",
    Phase.BATTLES: "6. Battles",
    Phase.WALL: "7. The Wall",
    Phase.END_OF_ROUND: "8. End of round",
}


def house(state: CourtState, house_id: str) -> str:
    card = state.rules.house(HouseId(house_id)) if state.rules else None
    return card.name if card else house_id


def title(state: CourtState, title_id: str) -> str:
    found = state.rules.title(TitleId(title_id)) if state.rules else None
    return found.name if found else title_id


def election(state: CourtState, election_id: str) -> str:
    """An election by the name of its title ("Warden of the North")."""
    specs = electorate.sequence(state) if state.rules else ()
    return next((s.name for s in specs if s.id == election_id), election_id)


def noble(state: CourtState, noble_id: str) -> str:
    found = state.nobles.get(NobleId(noble_id))
    return found.name if found else noble_id


def village(state: CourtState, village_id: str) -> str:
    rules = state.rules
    found = next((v for v in rules.villages if v.id == village_id), None) if rules else None
    return found.name if found else village_id


def game(state: CourtState) -> str:
    """The game's name as its host gave it; "Game <id>" for a game without one."""
    return state.name if state.name else f"Game {state.game_id}"


def player(state: CourtState, seat: int) -> str:
    """ "Eddard (House Stark)"; a seat nobody holds is "Seat n", counted from 1."""
    info = state.seats.get(Seat(seat))
    return f"{info.player_name} ({house(state, info.house)})" if info else f"Seat {seat + 1}"


def players(state: CourtState, seats: Iterable[int]) -> str:
    return ", ".join(player(state, s) for s in seats) or "nobody"


def gold(amount: int) -> str:
    return f"{amount} Gold Dragon{'s' if amount != 1 else ''}"


def step(step_id: str) -> str:
    return STEPS.get(step_id, step_id.replace("_", " "))
