"""Whether a fact command is among those `court.options.recordable` lists: the one reading of the
listing that the engine tests and the property machine share."""

from __future__ import annotations

from typing import Any

from court.commands import (
    Command,
    GrantMotherOfDragons,
    HeirBorn,
    JoinSmallCouncil,
    RecordCapture,
    RecordDeath,
    RecordEscape,
    RecordRelease,
    RecordVillageControl,
)

# The facts whose every field is a choice: accepted exactly when listed.
CHOSEN: dict[type, tuple[str, tuple[str, ...]]] = {
    RecordVillageControl: ("village_control", ("village", "house")),
    RecordCapture: ("capture", ("noble", "house", "by")),
    RecordRelease: ("release", ("noble",)),
    RecordEscape: ("escape", ("noble",)),
    RecordDeath: ("death", ("noble", "kind")),
    JoinSmallCouncil: ("join_the_small_council", ("noble", "title")),
    GrantMotherOfDragons: ("mother_of_dragons", ("noble",)),
    HeirBorn: ("heir_born", ("noble",)),
}


def listed(facts: list[dict[str, Any]], command: Command) -> bool:
    """Whether every field of `command` takes one of the listed choices (a field depending on
    another, among the choices for that one's value)."""
    kind, names = CHOSEN[type(command)]
    fact = next((f for f in facts if f["fact"] == kind), None)
    if fact is None:
        return False
    for name in names:
        value = getattr(command, name)
        depends = fact["depends"].get(name)
        if depends is not None:
            choices = depends["choices"].get(getattr(command, depends["on"]), [])
        else:
            choices = fact["choices"][name]
        if value not in choices:
            return False
    return True
