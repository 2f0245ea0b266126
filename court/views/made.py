"""The court view made of its sections (court/views/sections.py), for one viewer or several at
once, and the sections made for one court kept for the next where the parts they read did not
change: a push makes again only those (server/live/views.py)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from itertools import compress
from operator import attrgetter, is_not
from typing import Any

from court.commands import Actor
from court.state import CourtState
from court.views.sections import (
    ALIKE,
    ANYONE,
    OWN,
    PARTS,
    SECTIONS,
    VERSION,
    Section,
    Viewing,
)

_GONE = object()  # no section kept


# Each part of the court (and VERSION), with the sections and the pieces of sections that read
# it; a section made of pieces reads what they read, but for the idle pieces (below).
_PARTS = attrgetter(*PARTS)


def _reads(section: Section) -> tuple[str, ...]:
    if not section.pieces:
        return section.reads
    return tuple({part for p in section.pieces if p.idle is None for part in p.reads})


_READERS: dict[str, tuple[frozenset[str], tuple[tuple[str, int], ...]]] = {
    part: (
        frozenset(s.name for s in SECTIONS if part in _reads(s)),
        tuple(
            (s.name, i)
            for s in SECTIONS
            for i, p in enumerate(s.pieces)
            if part in p.reads and p.idle is None
        ),
    )
    for part in (*PARTS, VERSION)
}
# The pieces that may be idle (court/views/sections.py `Piece`): made again when anything
# changed, unless they are idle in the court before and the new one.
_IDLE = tuple(
    (s.name, i, p.idle) for s in SECTIONS for i, p in enumerate(s.pieces) if p.idle is not None
)


_PIECED = tuple(s.name for s in SECTIONS if s.pieces)

# One bit for each part (in the order of PARTS), then one for VERSION.
_BITS = tuple(1 << i for i in range(len(PARTS)))
_VERSION_BIT = 1 << len(PARTS)
_EVERY = (1 << (len(PARTS) + 1)) - 1


@dataclass(frozen=True, slots=True)
class _Plan:
    """What a court that changed one set of parts makes again: the sections reading them, of
    those the ones seen alike and the viewers' own, and the pieces reading them."""

    again: frozenset[str]
    alike: tuple[Section, ...]
    own: tuple[Section, ...]
    stale: tuple[tuple[str, int], ...]


def _plan_of(again: set[str], stale: Sequence[tuple[str, int]]) -> _Plan:
    return _Plan(
        frozenset(again),
        tuple(s for s in ALIKE if s.name in again),
        tuple(s for s in OWN if s.name in again),
        tuple(dict.fromkeys(stale)),
    )


def _planned(mask: int) -> _Plan:
    """The plan of the parts set in `mask` (idle pieces aside): made once a mask, since a
    game's events change few sets of parts."""
    plan = _PLANS.get(mask)
    if plan is None:
        changed = [part for i, part in enumerate((*PARTS, VERSION)) if mask >> i & 1]
        again: set[str] = set()
        stale: list[tuple[str, int]] = []
        for part in changed:
            sections, pieces = _READERS[part]
            again |= sections
            stale += pieces
        plan = _PLANS[mask] = _plan_of(again, stale)
    return plan


_PLANS: dict[int, _Plan] = {}


class Made:
    """The sections made for one court at one version, each by the key of the viewers shown
    it, kept for the next court where the parts they read are the very same objects: the
    court is frozen and shares every part an event did not change, so `moved` finds which
    sections (and pieces of them) to make again with one comparison per part."""

    def __init__(self) -> None:
        self.state: CourtState | None = None
        self.version = -1
        self.again: frozenset[str] = frozenset()  # the sections the last court changed
        self.again_alike: tuple[Section, ...] = ()  # of those, the ones seen alike
        self.again_own: tuple[Section, ...] = ()  # and the viewers' own
        self._parts: tuple[Any, ...] = ()  # the parts of the court gone on to last
        self._values: dict[str, dict[Hashable, Any]] = {}  # section -> key -> section
        # Courts are counted as they come: each piece of a section keeps the count of the court
        # that last changed what it reads, and the section per key its pieces, its items joined
        # and the count of the court they were made at (a piece is made again once changed).
        self._count = 0
        self._changed: dict[str, list[int]] = {s.name: [0] * len(s.pieces) for s in SECTIONS}
        self._changed_now: dict[str, list[int]] = {s.name: [] for s in SECTIONS}
        self._joined: dict[str, dict[Hashable, tuple[tuple[Any, ...], list[Any], int]]] = {}
        self._alike: dict[str, Any] | None = None
        self._alike_at = 0  # the count of the court `_alike` holds

    def moved(self, state: CourtState, version: int) -> frozenset[str]:
        """Go on to `state` at `version`; the names of the sections it changed (all of them
        for the first court), whose sections and pieces made before are dropped."""
        if self.state is state and version == self.version:
            return frozenset()
        parts = _PARTS(state)
        before = self.state
        if before is None:
            mask = _EVERY
        else:
            # The parts that are new objects, found in one pass at C speed, as a bit mask.
            mask = sum(compress(_BITS, map(is_not, self._parts, parts)))
            if version != self.version:
                mask |= _VERSION_BIT
        plan = _planned(mask)
        if mask:
            woken = [
                (name, index)
                for name, index, idle in _IDLE
                if before is None or not (idle(before) and idle(state))
            ]
            if woken:
                plan = _plan_of({*plan.again, *(n for n, _ in woken)}, [*plan.stale, *woken])
        self._count += 1
        count = self._count
        now: dict[str, list[int]] = {name: [] for name in _PIECED}
        changed = self._changed
        for name, index in plan.stale:
            changed[name][index] = count
            now[name].append(index)
        values = self._values
        for name in plan.again:
            values.pop(name, None)
        self._changed_now.update(now)
        self.state, self.version, self._parts = state, version, parts
        self.again = plan.again
        self.again_alike = plan.alike
        self.again_own = plan.own
        return plan.again

    def section(self, section: Section, seen: Viewing = ANYONE) -> Any:
        """The section for `seen` at the court gone on to last, made once per key."""
        state = self.state
        assert state is not None, "no court to make a section of"
        shown = section.shown
        key = None if shown is None else shown(state, self.version, seen)
        values = self._values.get(section.name)
        if values is None:
            values = self._values[section.name] = {}
        value = values.get(key, _GONE)
        if value is not _GONE:
            return value
        if section.pieces:
            value = values[key] = self._join(section, key, seen)
        else:
            value = values[key] = section.make(state, self.version, seen)
        return value

    def _join(self, section: Section, key: Hashable, seen: Viewing) -> list[Any]:
        """The items of the section's pieces, each piece made again only when what it reads
        changed since the viewers of `key` were shown it; the very list shown them then when
        every piece is the same."""
        joined = self._joined.get(section.name)
        if joined is None:
            joined = self._joined[section.name] = {}
        before = joined.get(key)
        state, pieces = self.state, section.pieces
        if before is None:
            made = [piece.make(state, seen) for piece in pieces]  # type: ignore[arg-type]
        else:
            was = before[0]
            # Most often the viewers were shown the court before: only what it changed.
            stale = (
                self._changed_now[section.name]
                if before[2] == self._count - 1
                else [i for i, at in enumerate(self._changed[section.name]) if at > before[2]]
            )
            fresh: list[Any] | None = None  # a copy of the pieces, once one of them is new
            for i in stale:
                piece = pieces[i].make(state, seen)  # type: ignore[arg-type]
                if piece is not was[i]:
                    if fresh is None:
                        fresh = list(was)
                    fresh[i] = piece
            if fresh is None:
                joined[key] = (was, before[1], self._count)
                return before[1]
            made = fresh
        items = [item for piece in made for item in piece]
        joined[key] = (tuple(made), items, self._count)
        return items

    def alike(self) -> dict[str, Any]:
        """Every section every viewer is shown alike, by name: a new dict for each court that
        changed one, holding the very sections of the court before that it did not change."""
        if self._alike is None:
            self._alike = {s.name: self.section(s) for s in ALIKE}
        elif self._alike_at != self._count and self.again_alike:
            self._alike = {**self._alike, **{s.name: self.section(s) for s in self.again_alike}}
        self._alike_at = self._count
        return self._alike

    def own(
        self, seen: Viewing, shared: dict[str, Any], before: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """The viewer's own sections, by name; of those standing in a section seen alike,
        only while that one (in `shared`) is an object. `before`: his own sections at the
        court before, from which those the court did not change are taken as they are."""
        sections = OWN if before is None else self.again_own
        own = {} if before is None else dict(before)
        for s in sections:
            if s.within is not None and not isinstance(shared[s.within], dict):
                own.pop(s.name, None)
            else:
                own[s.name] = self.section(s, seen)
        return own


def assembled(shared: dict[str, Any], own: dict[str, Any]) -> dict[str, Any]:
    """The view of the sections seen alike and the viewer's own, in the order of SECTIONS."""
    view: dict[str, Any] = {}
    for s in SECTIONS:
        value = shared[s.name] if s.alike else own.get(s.name, _GONE)
        if s.within is None:
            view[s.name] = value
        elif value is not _GONE and value != view[s.within][s.name]:
            view[s.within] = {**view[s.within], s.name: value}
    return view


def court_views(
    state: CourtState, version: int, seen: Sequence[Viewing], made: Made | None = None
) -> list[dict[str, Any]]:
    """The court at `version` as each viewer may see it; the sections several viewers are
    shown alike made once, and with `made` kept from the court before where unchanged."""
    made = made if made is not None else Made()
    made.moved(state, version)
    shared = made.alike()
    return [assembled(shared, made.own(w, shared)) for w in seen]


def court_view(
    state: CourtState,
    version: int,
    viewer: Actor,
    handed_at: int | None = None,
) -> dict[str, Any]:
    """The whole court as the viewer may see it at `version`, its `moves` the commands he may
    send. `handed_at`: the version at which the host last handed the viewer's seat to a new
    token; nothing the seat held sealed before it is the viewer's."""
    return court_views(state, version, [Viewing(viewer, handed_at)])[0]
