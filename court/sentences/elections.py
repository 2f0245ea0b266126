"""Sentences of the elections of phase 1 (R-7): candidacy, ballots and the reveal ("Round 3,
Warden of the North: Robb Stark elected with 5 votes")."""

from __future__ import annotations

from court.sentences import names
from court.sentences.base import Data, Sentences
from court.state import CourtState

NOBODY_ELECTED = {
    "tie": "a tie at the top",
    "no_votes": "no candidate had a vote",
    "below_minimum": "nobody reached the minimum",
    "no_candidate": "there was no candidate",
}


def _election_skipped(d: Data, state: CourtState) -> str:
    return f"{names.title(state, d['title'])}: no election, because {d['reason']}."


def _election_opened(d: Data, state: CourtState) -> str:
    return f"{names.title(state, d['title'])}: candidacy is open."


def _candidate_stood(d: Data, state: CourtState) -> str:
    return f"{names.player(state, d['seat'])} put forward {names.noble(state, d['noble'])}."


def _candidacy_passed(d: Data, state: CourtState) -> str:
    return f"{names.player(state, d['seat'])} put forward nobody."


def _candidate_withdrawn(d: Data, state: CourtState) -> str:
    return f"{d['reason']}."


def _ballot_opened(d: Data, state: CourtState) -> str:
    return f"Ballots are open; {len(d['candidates'])} candidate(s) stand."


def _ballot_placed(d: Data, state: CourtState) -> str:
    n = len(d["markers"])
    what = f"{n} marker{'s' if n != 1 else ''} face down" if n else "no marker"
    return f"{names.player(state, d['seat'])} placed {what}."


def _step_timed_out(d: Data, state: CourtState) -> str:
    who = names.players(state, d["passed"])
    return f"The clock ran out (R-4.3); timed out, counted as passing: {who}."


def _ballots_revealed(d: Data, state: CourtState) -> str:
    """The round is named when the record holds it (logs of schema 1 did not always)."""
    held_in = f"Round {d['round']}, " if d["round"] is not None else ""
    title = names.title(state, d["title"])
    if d["winner"] is None:
        why = NOBODY_ELECTED.get(d["reason"], d["reason"])
        return f"{held_in}{title}: nobody elected ({why})."
    votes = next(c["votes"] for c in d["votes"] if c["noble"] == d["winner"])
    tie = ", put forward first of those tied at the top" if d["reason"] == "tie_broken" else ""
    return (
        f"{held_in}{title}: {names.noble(state, d['winner'])} elected with "
        f"{votes} vote{'s' if votes != 1 else ''}{tie}."
    )


SENTENCES: Sentences = {
    "ElectionSkipped": _election_skipped,
    "ElectionOpened": _election_opened,
    "CandidateStood": _candidate_stood,
    "CandidateWithdrawn": _candidate_withdrawn,
    "CandidacyPassed": _candidacy_passed,
    "BallotOpened": _ballot_opened,
    "BallotPlaced": _ballot_placed,
    "StepTimedOut": _step_timed_out,
    "BallotsRevealed": _ballots_revealed,
}
