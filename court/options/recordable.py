"""What can the host record now? `recordable(state)` lists each fact of section 9 the court
would accept at this moment, with the choices of each of its fields, for the host's panel.

It is read from the same conditions as `decide` (court/decide/court_events.py, facts.py,
rounds.py), as `rules.legal_commands` is for moves; a test checks that a fact built from the
listed choices is accepted and that a refused one is not listed. A field whose choices depend
on another field's value is told as `depends`: {field: {"on": other, "choices": {value: [...]}}}.
Free fields (an amount, a cause, a new Noble's name) are the form's to check.
"""

from __future__ import annotations

from typing import Any

from court.commands import DeathKind
from court.decide import titles
from court.ids import MOTHER_OF_DRAGONS, HouseId, NobleId
from court.model.ruleset import Attribute, Category, Gender
from court.options.electorate import is_council
from court.state import CourtState, GameStatus, Noble, NobleStatus

Fact = dict[str, Any]
# Deaths any living Noble may die; Justice and Uprising ask more.
ANY_DEATH = (DeathKind.BATTLE, DeathKind.ASSASSINATION, DeathKind.WALL, DeathKind.OTHER)


def recordable(state: CourtState) -> list[Fact]:
    """Each fact the host may record now, by its kind (court/decide/facts.py FACT_KINDS)."""
    if state.status is not GameStatus.PLAYING:
        return []
    found = (
        _villages(state),
        _fact("gold", house=_houses(state)),
        _capture(state),
        _fact("release", noble=_captives(state)),
        _fact("escape", noble=_captives(state)),
        _death(state),
        _fact("new_noble", house=_houses(state), gender=[g.value for g in Gender]),
        _join(state),
        _mother(state),
        _heir(state),
        _wall(state),
    )
    return [fact for fact in found if fact is not None]


def _fact(fact: str, depends: dict[str, Any] | None = None, /, **choices: list[Any]) -> Fact | None:
    """The fact, or None when a field of it has no choice at all."""
    if any(not values for values in choices.values()):
        return None
    return {"fact": fact, "choices": choices, "depends": depends or {}}


def _houses(state: CourtState) -> list[HouseId]:
    return list(state.treasury)


def _ids(nobles: list[Noble]) -> list[NobleId]:
    return [n.id for n in nobles]


def _in_play(state: CourtState) -> list[Noble]:
    """R-1.4: alive, free and no Brother of the Night's Watch."""
    return [n for n in state.nobles.values() if n.status is NobleStatus.IN_PLAY]


def _captives(state: CourtState) -> list[NobleId]:
    return [n.id for n in state.nobles.values() if n.status is NobleStatus.CAPTIVE]


def _villages(state: CourtState) -> Fact | None:
    """Section 9: any village, to a House in play or to nobody, but not to its holder."""
    houses: list[HouseId | None] = [None, *_houses(state)]
    held = {v.id: state.villages.get(v.id) for v in state.ruleset.villages}
    changes = {village: [h for h in houses if h != holder] for village, holder in held.items()}
    return _fact(
        "village_control",
        {"house": {"on": "village", "choices": changes}},
        village=list(held),
        house=houses,
    )


def _capture(state: CourtState) -> Fact | None:
    """R-8.1: a Noble in play, by another House, taken by one of its Nobles in play or not
    (section 9: a captive, dead or a Brother captures nobody)."""
    nobles = _in_play(state)
    houses = _houses(state)
    captors = {n.id: [h for h in houses if h != n.house] for n in nobles}
    takers = {h: [None, *(n.id for n in nobles if n.house == h)] for h in houses}
    depends = {
        "house": {"on": "noble", "choices": captors},
        "by": {"on": "house", "choices": takers},
    }
    return _fact("capture", depends, noble=[n for n, h in captors.items() if h], house=houses)


def _death(state: CourtState) -> Fact | None:
    """R-1.4: a living Noble dies; Justice only an Outlaw not immune (R-6.5), an Uprising only
    the Gods-cursed (R-6.2); also a Noble whose player still has a title choice to make, who
    loses it (section 9)."""
    kinds: dict[NobleId, list[str]] = {}
    for noble in state.nobles.values():
        if not noble.alive:
            continue
        allowed = [k.value for k in ANY_DEATH]
        if noble.outlaw and Attribute.IMMUNE_TO_JUSTICE not in noble.attributes:
            allowed.append(DeathKind.JUSTICE.value)
        if Attribute.GODS_CURSED in noble.attributes:
            allowed.append(DeathKind.UPRISING.value)
        kinds[noble.id] = allowed
    every = [k.value for k in DeathKind]
    return _fact(
        "death", {"kind": {"on": "noble", "choices": kinds}}, noble=list(kinds), kind=every
    )


def _join(state: CourtState) -> Fact | None:
    """R-3.5: a Warden in play, no Outlaw, not on the council (neither the Hand nor a Master),
    takes a free Master title; a choice another player still has to make does not hold it
    back (section 9)."""
    masters = [t.id for t in state.ruleset.titles if t.master]
    wardens = [
        n.id
        for n in _in_play(state)
        if not n.outlaw
        and titles.held_in(state, n.id, Category.MILITARY)
        and not is_council(state, n.id)
    ]
    free = [t for t in masters if state.holder(t) is None]
    return _fact("join_the_small_council", noble=wardens, title=free)


def _mother(state: CourtState) -> Fact | None:
    """R-3.1: the one Mother of Dragons title, while free, to a Lady in play who could hold
    it (R-3.10)."""
    if state.ruleset.title(MOTHER_OF_DRAGONS) is None or state.holder(MOTHER_OF_DRAGONS):
        return None
    ladies = [
        n
        for n in _in_play(state)
        if n.gender is Gender.LADY and titles.could_stand(state, MOTHER_OF_DRAGONS, n.id)
    ]
    return _fact("mother_of_dragons", noble=_ids(ladies))


def _heir(state: CourtState) -> Fact | None:
    """R-3.9: one Heir at a time, a Lord in play."""
    heir = Attribute.PRINCE_OF_WESTEROS
    if any(n.alive and heir in n.attributes for n in state.nobles.values()):
        return None
    return _fact("heir_born", noble=_ids([n for n in _in_play(state) if n.gender is Gender.LORD]))


def _wall(state: CourtState) -> Fact | None:
    """R-8.5: with the Night's Watch, while a living Lord Commander disposes of the supplies."""
    if not state.ruleset.profile.variants.nights_watch:
        return None
    commander = next((state.holder(t.id) for t in state.ruleset.titles if t.nights_watch), None)
    if commander is None or not commander.alive:
        return None
    return _fact("wall_supplies", house=_houses(state))
