"""Sentences of the decree steps of phase 1 and of the end of the game (R-4.2, R-5, R-6,
R-4.7)."""

from __future__ import annotations

from court.sentences import ending, names
from court.sentences.base import Data, Sentences
from court.state import CourtState


def _step_opened(d: Data, state: CourtState) -> str:
    order = names.players(state, d["order"])
    return f"Decree step {names.step(d['step'])} opened; turn order: {order}."


def _step_skipped(d: Data, state: CourtState) -> str:
    return f"Decree step {names.step(d['step'])} skipped: {d['reason']}."


def _step_closed(d: Data, state: CourtState) -> str:
    return f"Decree step {names.step(d['step'])} closed."


def _passed(d: Data, state: CourtState) -> str:
    return f"{names.players(state, d['seats'])} passed in {names.step(d['step'])}."


def _timed_out(d: Data, state: CourtState) -> str:
    unanswered = (
        f" {names.player(state, d['unanswered'])} left the marriage proposal unanswered; it is "
        "declined."
        if d["unanswered"] is not None
        else ""
    )
    if not d["seats"]:  # only the answering player's own clock ran out
        return f"The clock ran out in {names.step(d['step'])} (R-4.3):{unanswered}"
    return (
        f"The clock ran out in {names.step(d['step'])} (R-4.3): timed out: "
        f"{names.players(state, d['seats'])}.{unanswered}"
    )


def _turn_lapsed(d: Data, state: CourtState) -> str:
    return (
        f"{names.player(state, d['seat'])}'s turn in {names.step(d['step'])} lapsed: {d['reason']}."
    )


def _turn_ended(d: Data, state: CourtState) -> str:
    return f"{names.player(state, d['seat'])} acted in {names.step(d['step'])}; the turn passes on."


def _marriage_proposed(d: Data, state: CourtState) -> str:
    return (
        f"{names.player(state, d['seat'])} proposed a marriage of "
        f"{names.noble(state, d['noble'])} to {names.noble(state, d['to_noble'])} of "
        f"{names.player(state, d['to_seat'])}."
    )


def _marriage_declined(d: Data, state: CourtState) -> str:
    return (
        f"The marriage of {names.noble(state, d['noble'])} to "
        f"{names.noble(state, d['to_noble'])} was declined."
    )


def _marriage_made(d: Data, state: CourtState) -> str:
    allied = f"; {names.players(state, d['seats'])} are allied" if d["alliance"] else ""
    return f"{names.noble(state, d['lord'])} married {names.noble(state, d['lady'])}{allied}."


def _divorced(d: Data, state: CourtState) -> str:
    return (
        f"The Master of Laws divorced {names.noble(state, d['lord'])} and "
        f"{names.noble(state, d['lady'])}."
    )


def _marriage_ended(d: Data, state: CourtState) -> str:
    return (
        f"The marriage of {names.noble(state, d['lord'])} and {names.noble(state, d['lady'])} "
        f"ended: {d['reason']}."
    )


def _rhllor_embraced(d: Data, state: CourtState) -> str:
    return f"{names.noble(state, d['noble'])} embraced R'hllor ({names.player(state, d['seat'])})."


def _septs_pillaged(d: Data, state: CourtState) -> str:
    shares = ", ".join(f"{names.house(state, s['house'])} {s['gold']} GD" for s in d["shares"])
    return f"Every Sept was pillaged ({len(d['septs'])} in all); shares: {shares or 'none'}."


def _title_conceded(d: Data, state: CourtState) -> str:
    return (
        f"{names.noble(state, d['noble'])} conceded the {names.title(state, d['title'])} title "
        f"to {names.noble(state, d['to'])}."
    )


SENTENCES: Sentences = {
    "DecreeStepOpened": _step_opened,
    "DecreeStepSkipped": _step_skipped,
    "DecreeStepClosed": _step_closed,
    "DecreePassed": _passed,
    "DecreeTimedOut": _timed_out,
    "DecreeTurnLapsed": _turn_lapsed,
    "DecreeTurnEnded": _turn_ended,
    "MarriageProposed": _marriage_proposed,
    "MarriageDeclined": _marriage_declined,
    "MarriageMade": _marriage_made,
    "Divorced": _divorced,
    "MarriageEnded": _marriage_ended,
    "RhllorEmbraced": _rhllor_embraced,
    "SeptsPillaged": _septs_pillaged,
    "TitleConceded": _title_conceded,
    "GameEnded": ending.game_ended,
}
