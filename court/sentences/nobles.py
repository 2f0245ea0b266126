"""Sentences of a Noble's life at court: death, capture, the Outlaw mark, the Night's Watch,
attributes, newcomers, dice, gold and alliances (R-1.2 to R-1.4, R-5.4, R-6.5, R-8, section 9)."""

from __future__ import annotations

from court.sentences import names
from court.sentences.base import Data, Sentences
from court.state import CourtState


def _noble_died(d: Data, state: CourtState) -> str:
    return f"{names.noble(state, d['noble'])} died ({d['cause']})."


def _noble_captured(d: Data, state: CourtState) -> str:
    by = f", by {names.noble(state, d['by'])}" if d["by"] else ""
    return (
        f"{names.noble(state, d['noble'])} was taken captive by "
        f"{names.house(state, d['captor'])}{by} ({d['cause']})."
    )


def _noble_freed(d: Data, state: CourtState) -> str:
    return f"{names.noble(state, d['noble'])} is free again ({d['cause']})."


def _outlaw_declared(d: Data, state: CourtState) -> str:
    return f"{names.noble(state, d['noble'])} was declared an Outlaw ({d['cause']})."


def _outlaw_pardoned(d: Data, state: CourtState) -> str:
    return f"The {d['by']} pardoned {names.noble(state, d['noble'])}: no longer an Outlaw."


def _took_the_black(d: Data, state: CourtState) -> str:
    return f"{names.noble(state, d['noble'])} took the black ({d['cause']})."


def _deserted(d: Data, state: CourtState) -> str:
    return (
        f"{names.noble(state, d['noble'])} broke his oath and left the Night's Watch, "
        "an Outlaw now."
    )


def _attribute_gained(d: Data, state: CourtState) -> str:
    who = names.noble(state, d["noble"])
    if d["attribute"] == "prince_of_westeros":
        return f"{who} is the Heir, prince of Westeros ({d['cause']})."
    return f"{who} is now {d['attribute'].replace('_', ' ')} ({d['cause']})."


def _noble_added(d: Data, state: CourtState) -> str:
    return (
        f"{d['noble']['name']} came into play for {names.house(state, d['house'])} ({d['cause']})."
    )


def _die_rolled(d: Data, state: CourtState) -> str:
    return (
        f"Gods-cursed {names.noble(state, d['noble'])}: die roll {d['number']} showed {d['value']}."
    )


def _gold_paid(d: Data, state: CourtState) -> str:
    to = names.house(state, d["to_house"]) if d["to_house"] else "the bank"
    return (
        f"{names.house(state, d['house'])} paid {names.gold(d['amount'])} to {to} ({d['cause']})."
    )


def _alliance_ended(d: Data, state: CourtState) -> str:
    allies = " and ".join(names.player(state, s) for s in d["seats"])
    return f"The alliance of {allies} ended: {d['reason']}."


SENTENCES: Sentences = {
    "NobleDied": _noble_died,
    "NobleCaptured": _noble_captured,
    "NobleFreed": _noble_freed,
    "OutlawDeclared": _outlaw_declared,
    "OutlawPardoned": _outlaw_pardoned,
    "TookTheBlack": _took_the_black,
    "Deserted": _deserted,
    "AttributeGained": _attribute_gained,
    "NobleAdded": _noble_added,
    "DieRolled": _die_rolled,
    "GoldPaid": _gold_paid,
    "AllianceEnded": _alliance_ended,
}
