"""Sentences of titles changing hands (R-3)."""

from __future__ import annotations

from court.sentences import names
from court.sentences.base import Data, Sentences
from court.state import CourtState


def _title_refused(d: Data, state: CourtState) -> str:
    return f"{names.noble(state, d['noble'])} refused the {names.title(state, d['title'])} title."


def _title_granted(d: Data, state: CourtState) -> str:
    return f"{names.noble(state, d['noble'])} became {names.title(state, d['title'])}."


def _title_returned(d: Data, state: CourtState) -> str:
    refund = d.get("refund", 0)
    back = f"; the {names.gold(refund)} paid for it refunded (R-3.6)" if refund else ""
    return (
        f"{names.noble(state, d['noble'])} returned the {names.title(state, d['title'])} title "
        f"to the board: {d['reason']}{back}."
    )


def _title_passed(d: Data, state: CourtState) -> str:
    return (
        f"{names.noble(state, d['noble'])} passed the {names.title(state, d['title'])} title "
        f"to {names.noble(state, d['to'])}."
    )


def _title_slots_exceeded(d: Data, state: CourtState) -> str:
    return (
        f"{names.noble(state, d['noble'])} has no free {d['category']} slot for the "
        f"{names.title(state, d['title'])} title; {names.player(state, d['seat'])} must pass "
        "or return one (R-3.2)."
    )


def _title_choice_timed_out(d: Data, state: CourtState) -> str:
    what = (
        "the title is taken"
        if d["kind"] == "acceptance"
        else "the title one too many returns to the board"
    )
    return (
        f"The clock ran out for {names.player(state, d['seat'])}'s choice about the "
        f"{names.title(state, d['title'])} title (R-4.3): {what}."
    )


def _title_choice_lapsed(d: Data, state: CourtState) -> str:
    return (
        f"{names.player(state, d['seat'])} can no longer take or refuse the "
        f"{names.title(state, d['title'])} title for {names.noble(state, d['noble'])}: "
        f"{d['reason']}; it stays on the board (section 9)."
    )


SENTENCES: Sentences = {
    "TitleRefused": _title_refused,
    "TitleChoiceLapsed": _title_choice_lapsed,
    "TitleGranted": _title_granted,
    "TitleReturned": _title_returned,
    "TitlePassed": _title_passed,
    "TitleSlotsExceeded": _title_slots_exceeded,
    "TitleChoiceTimedOut": _title_choice_timed_out,
}
