"""The court view made of its sections (court/views/sections.py), for one viewer or several at
once, and the sections made for one court kept for the next where the parts they read did not
change: a push makes again only those (server/live/views.py)."""

from __future__ import annotations

import operator
from collections.abc import Hashable, Sequence
from typing import Any

from court.commands import Actor
from court.state import CourtState
from court.views.sections import (
    ALIKE,
    ANYONE,
    OWN,
    PARTS,
    PIECES,
    SECTIONS,
    VERSION,
    MoveView,
    Piece,
    Section,
    Viewing,
)

_GONE = object()  # no section kept


class Made:
    """The sections made for one court at one version, each by the key of the viewers shown
    it, kept for the next court where the parts they read are the very same objects: the
    court is frozen and shares every part an event did not change, so `moved` finds which
    sections (and pieces of them) to make again with one comparison per part."""

    def __init__(self) -> None:
        self.state: CourtState | None = None
        self.version = -1
        self.again: frozenset[str] = frozenset()  # the sections the last court changed
        self._values: dict[str, dict[Hashable, Any]] = {}  # section -> key -> section
        self._pieces: dict[str, dict[Hashable, Any]] = {}  # section/piece -> key -> piece
        # section -> key -> its pieces when it was last joined, and the section joined
        self._joined: dict[str, dict[Hashable, tuple[tuple[Any, ...], list[Any]]]] = {}

    def moved(self, state: CourtState, version: int) -> frozenset[str]:
        """Go on to `state` at `version`; the names of the sections it changed (all of them
        for the first court), whose sections and pieces made before are dropped."""
        before = self.state
        if before is state and version == self.version:
            return frozenset()
        if before is None:
            changed = set(PARTS) | {VERSION}
        else:
            changed = {p for p in PARTS if getattr(before, p) is not getattr(state, p)}
            if version != self.version:
                changed.add(VERSION)
        again = frozenset(s.name for s in SECTIONS if not changed.isdisjoint(s.reads))
        for name in again:
            self._values.pop(name, None)
        for name, piece in PIECES:
            if not changed.isdisjoint(piece.reads):
                self._pieces.pop(name, None)
        self.state, self.version, self.again = state, version, again
        return again

    def section(self, section: Section, seen: Viewing = ANYONE) -> Any:
        """The section for `seen` at the court gone on to last, made once per key."""
        state = self.state
        assert state is not None, "no court to make a section of"
        shown = section.shown
        key = None if shown is None else shown(state, self.version, seen)
        values = self._values.setdefault(section.name, {})
        if key in values:
            return values[key]
        if section.pieces:
            value = values[key] = self._join(section, key, seen)
        else:
            value = values[key] = section.make(state, self.version, seen)
        return value

    def _join(self, section: Section, key: Hashable, seen: Viewing) -> list[Any]:
        """The items of the section's pieces, each piece made again only when changed; the
        very list of the court before when every piece is the same."""
        made = tuple(self._piece(section, piece, key, seen) for piece in section.pieces)
        joined = self._joined.setdefault(section.name, {})
        before = joined.get(key)
        if before is not None and all(map(operator.is_, before[0], made)):
            return before[1]
        items = [item for piece in made for item in piece]
        joined[key] = (made, items)
        return items

    def _piece(self, section: Section, piece: Piece, key: Hashable, seen: Viewing) -> Any:
        values = self._pieces.setdefault(f"{section.name}/{piece.name}", {})
        if key not in values:
            values[key] = piece.make(self.state, seen)  # type: ignore[arg-type]  # moved on
        return values[key]

    def alike(self) -> dict[str, Any]:
        """Every section every viewer is shown alike, by name."""
        return {s.name: self.section(s) for s in ALIKE}

    def own(
        self, seen: Viewing, shared: dict[str, Any], before: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """The viewer's own sections, by name; of those standing in a section seen alike,
        only while that one (in `shared`) is an object. `before`: his own sections at the
        court before, from which those the court did not change are taken as they are."""
        own = {}
        for s in OWN:
            if s.within is not None and not isinstance(shared[s.within], dict):
                continue
            kept = before.get(s.name, _GONE) if before is not None else _GONE
            own[s.name] = self.section(s, seen) if kept is _GONE or s.name in self.again else kept
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
    move: MoveView,
    handed_at: int | None = None,
) -> dict[str, Any]:
    """The whole court as the viewer may see it at `version`; `move` shows each move as the
    message that sends it. `handed_at`: the version at which the host last handed the viewer's
    seat to a new token; nothing the seat held sealed before it is the viewer's."""
    return court_views(state, version, [Viewing(viewer, handed_at, move)])[0]
