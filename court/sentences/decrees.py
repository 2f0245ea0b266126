"""One readable sentence for each record of the decree steps (R-4.2, R-5, R-6, R-8.4), of the
Outlaws and the Night's Watch, of the dice and of the end of the game, for the history."""

from __future__ import annotations

from typing import Any

from court.ids import HouseId, NobleId, Seat, TitleId
from court.state import CourtState

STEPS = {
    "marriages": "1.1.1 Marriages",
    "false_idols": "1.1.2 False idols",
    "royal_pardon": "1.1.3 Royal pardon",
    "send_to_wall": "1.1.4 Send to the Wall",
    "title_concession": "1.1.5 Title concession",
    "oathbreakers": "1.2.1 Oathbreakers",
}

DECREE_EVENTS = frozenset(
    {
        "DecreeStepOpened",
        "DecreeStepSkipped",
        "DecreeStepClosed",
        "DecreePassed",
        "DecreeTimedOut",
        "DecreeTurnLapsed",
        "DecreeTurnEnded",
        "MarriageEnded",
        "MarriageProposed",
        "MarriageDeclined",
        "MarriageMade",
        "Divorced",
        "RhllorEmbraced",
        "SeptsPillaged",
        "TitleConceded",
        "GameEnded",
        "OutlawDeclared",
        "OutlawPardoned",
        "TookTheBlack",
        "Deserted",
        "DieRolled",
    }
)


def _step(step: str) -> str:
    return STEPS.get(step, step.replace("_", " "))


def _noble(state: CourtState, noble: str) -> str:
    found = state.nobles.get(NobleId(noble))
    return found.name if found else noble


def _house(state: CourtState, house: str) -> str:
    card = state.rules.house(HouseId(house)) if state.rules else None
    return card.name if card else house


def _title(state: CourtState, title: str) -> str:
    found = state.rules.title(TitleId(title)) if state.rules else None
    return found.name if found else title


def _player(state: CourtState, seat: int) -> str:
    info = state.seats.get(Seat(seat))
    return f"{info.player_name} ({_house(state, info.house)})" if info else f"Seat {seat + 1}"


def _players(state: CourtState, seats: Any) -> str:
    return ", ".join(_player(state, s) for s in seats) or "nobody"


def decree_sentence(kind: str, d: dict[str, Any], state: CourtState) -> str:
    """The sentence of one of DECREE_EVENTS, told with the state right after it."""
    match kind:
        case "DecreeStepOpened":
            return (
                f"Decree step {_step(d['step'])} opened; turn order: {_players(state, d['order'])}."
            )
        case "DecreeStepSkipped":
            return f"Decree step {_step(d['step'])} skipped: {d['reason']}."
        case "DecreeStepClosed":
            return f"Decree step {_step(d['step'])} closed."
        case "DecreePassed":
            return f"{_players(state, d['seats'])} passed in {_step(d['step'])}."
        case "DecreeTimedOut":
            unanswered = (
                f" {_player(state, d['unanswered'])} left the marriage proposal unanswered; it is "
                "declined."
                if d.get("unanswered") is not None
                else ""
            )
            return (
                f"The clock ran out in {_step(d['step'])} (R-4.3): timed out: "
                f"{_players(state, d['seats'])}.{unanswered}"
            )
        case "DecreeTurnLapsed":
            return (
                f"{_player(state, d['seat'])}'s turn in {_step(d['step'])} lapsed: {d['reason']}."
            )
        case "MarriageEnded":
            return (
                f"The marriage of {_noble(state, d['lord'])} and {_noble(state, d['lady'])} "
                f"ended: {d['reason']}."
            )
        case "DecreeTurnEnded":
            return f"{_player(state, d['seat'])} acted in {_step(d['step'])}; the turn passes on."
        case "MarriageProposed":
            return (
                f"{_player(state, d['seat'])} proposed a marriage of {_noble(state, d['noble'])} "
                f"to {_noble(state, d['to_noble'])} of {_player(state, d['to_seat'])}."
            )
        case "MarriageDeclined":
            return (
                f"The marriage of {_noble(state, d['noble'])} to {_noble(state, d['to_noble'])} "
                "was declined."
            )
        case "MarriageMade":
            allied = f"; {_players(state, d['seats'])} are allied" if d["alliance"] else ""
            return f"{_noble(state, d['lord'])} married {_noble(state, d['lady'])}{allied}."
        case "Divorced":
            return (
                f"The Master of Laws divorced {_noble(state, d['lord'])} and "
                f"{_noble(state, d['lady'])}."
            )
        case "RhllorEmbraced":
            return f"{_noble(state, d['noble'])} embraced R'hllor ({_player(state, d['seat'])})."
        case "SeptsPillaged":
            shares = ", ".join(f"{_house(state, h)} {n} GD" for h, n in d["shares"]) or "none"
            return f"Every Sept was pillaged ({len(d['septs'])} in all); shares: {shares}."
        case "TitleConceded":
            return (
                f"{_noble(state, d['noble'])} conceded the {_title(state, d['title'])} title to "
                f"{_noble(state, d['to'])}."
            )
        case "GameEnded":
            return f"The game ended; the winners: {_players(state, d['winners'])} ({d['reason']})."
        case "OutlawDeclared":
            return f"{_noble(state, d['noble'])} was declared an Outlaw ({d['cause']})."
        case "OutlawPardoned":
            return f"The {d['by']} pardoned {_noble(state, d['noble'])}: no longer an Outlaw."
        case "TookTheBlack":
            return f"{_noble(state, d['noble'])} took the black ({d['cause']})."
        case "Deserted":
            return (
                f"{_noble(state, d['noble'])} broke his oath and left the Night's Watch, "
                "an Outlaw now."
            )
        case _:
            return (
                f"Gods-cursed {_noble(state, d['noble'])}: die roll {d['number']} "
                f"showed {d['value']}."
            )
