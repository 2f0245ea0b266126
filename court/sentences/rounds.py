"""Sentences of the round and of facts recorded by the host (R-4.1, R-4.5, section 9)."""

from __future__ import annotations

from court.sentences import names
from court.sentences.base import Data, Sentences
from court.state import CourtState


def _round_started(d: Data, state: CourtState) -> str:
    return f"Round {d['round']} began; {names.player(state, d['first_player'])} is First Player."


def _phase_started(d: Data, state: CourtState) -> str:
    return f"Round {d['round']}: the {d['phase'].replace('_', ' ')} phase began."


def _income_paid(d: Data, state: CourtState) -> str:
    paid = ", ".join(f"{names.house(state, i['house'])} {i['gold']} GD" for i in d["amounts"])
    return f"Round {d['round']} income: {paid}."


def _gold_adjusted(d: Data, state: CourtState) -> str:
    verb = "gained" if d["amount"] > 0 else "lost"
    return (
        f"{names.house(state, d['house'])} {verb} {abs(d['amount'])} Gold Dragons ({d['cause']})."
    )


def _village_control_changed(d: Data, state: CourtState) -> str:
    holder = names.house(state, d["house"]) if d["house"] else "nobody"
    return f"{names.village(state, d['village'])} is now held by {holder} ({d['cause']})."


def _fact_recorded(d: Data, state: CourtState) -> str:
    role = "the game master" if d["by"] == "game_master" else "the host"
    return f"{d['name']}, {role}, recorded a fact: {d['fact'].replace('_', ' ')}."


SENTENCES: Sentences = {
    "RoundStarted": _round_started,
    "PhaseStarted": _phase_started,
    "IncomePaid": _income_paid,
    "GoldAdjusted": _gold_adjusted,
    "VillageControlChanged": _village_control_changed,
    "FactRecorded": _fact_recorded,
}
