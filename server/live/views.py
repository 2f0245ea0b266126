"""The court view each push carries, as RFC 6902 JSON Patches: one on the sections every
audience of a game sees alike (the spectators, the host without a seat, the game master, each
seat), for the game's room, and one per audience on its own sections, where they changed. Only
the sections whose parts changed are made again (court/views/sections.py), each compared once.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from court.commands import SPECTATOR, Actor
from court.ids import Seat
from court.model.tokens import still_acting
from court.state import CourtState
from court.views.made import Made, assembled
from court.views.sections import ALIKE, OWN, WHOLE, Section, Viewing
from server.messages.views import MoveNames

PUBLIC, HOST, MASTER = "public", "host", "master"
SEAT = "seat:"

Ops = list[dict[str, Any]]
Memo = dict[tuple[str, int, int], Ops]
_ABSENT = object()  # a key the view before did not have


def audience_of(actor: Actor) -> str:
    """Whose view a connection of `actor` is pushed: his seat's, the host's (without a seat),
    the game master's, or the spectators'."""
    if actor.seat is not None:
        return f"{SEAT}{actor.seat}"
    if actor.host:
        return HOST
    return MASTER if actor.master else PUBLIC


def viewer_of(state: CourtState, audience: str) -> Actor | None:
    """The actor whose view `audience` is shown as the game stands; None for a seat that is
    no longer held."""
    if audience.startswith(SEAT):
        info = state.seats.get(Seat(int(audience.removeprefix(SEAT))))
        return None if info is None else Actor(seat=info.seat, host=info.host)
    return {HOST: Actor(host=True), MASTER: Actor(master=True)}.get(audience, SPECTATOR)


def audiences(state: CourtState) -> list[str]:
    """Every audience a game can have as it stands."""
    return [PUBLIC, HOST, MASTER, *(f"{SEAT}{seat}" for seat in sorted(state.seats))]


def regroup(
    state: CourtState, connections: Iterable[tuple[str, Actor, str]]
) -> list[tuple[str, str, str, Seat | None]]:
    """Of the connections (id, actor, audience it is pushed), each whose token stands for
    another audience as the game now stands: (id, audience, new audience, the seat it held
    and holds no more, or None)."""
    moved = []
    for sid, actor, was in connections:
        acting = still_acting(state, actor)
        now = PUBLIC if acting is None else audience_of(acting)
        if now != was:
            kept = actor.seat is None or (acting is not None and acting.seat == actor.seat)
            moved.append((sid, was, now, None if kept else actor.seat))
    return moved


def seat_ended(state: CourtState, seat: Seat) -> str:
    """What a connection whose seat ended is told."""
    if seat in state.seats:
        return (
            f"Seat {seat + 1} was handed to a new link by the host, or the key that brought it "
            "to this device was revoked or replaced: this device no longer holds it and now "
            "watches as a spectator."
        )
    return f"Seat {seat + 1} is no longer held: this device now watches as a spectator."


def handed_at(state: CourtState, viewer: Actor) -> int | None:
    info = state.seats.get(viewer.seat) if viewer.seat is not None else None
    return info.handed_at if info is not None else None


@dataclass
class Shown:
    """What this process last sent of one game's court view: the sections seen alike, to the
    game's room, and each audience's own sections, to its room, each with the version it
    shows; and the sections made for the court it showed last (court/views/sections.py)."""

    made: Made = field(default_factory=Made)
    shared: tuple[int, dict[str, Any]] | None = None
    own: dict[str, tuple[int, dict[str, Any]]] = field(default_factory=dict)
    # Who each audience's viewer is, while the seats are the same (the section `viewer` reads
    # them): None for a seat no longer held.
    viewers: dict[str, Viewing | None] = field(default_factory=dict)
    # The moves of the viewers' own sections, named for the wire (server/messages/views.py).
    names: MoveNames = field(default_factory=MoveNames)

    def moved(self, state: CourtState, version: int) -> None:
        """Go on to the court at `version` (court/views/made.py `Made.moved`)."""
        if "viewer" in self.made.moved(state, version):
            self.viewers.clear()

    def viewing(self, state: CourtState, audience: str) -> Viewing | None:
        if audience not in self.viewers:
            viewer = viewer_of(state, audience)
            seen = None if viewer is None else Viewing(viewer, handed_at(state, viewer))
            self.viewers[audience] = seen
        return self.viewers[audience]


@dataclass
class Change:
    """A push's change of the court view: `start`, the version of the view it changes (None:
    it sets every section seen alike, whatever the page held), and `shared`, the operations
    on the sections seen alike, for the game's room; `own`, per audience whose own sections
    changed, the operations on them, applied after `shared`."""

    start: int | None
    shared: Ops
    own: dict[str, Ops]


class Views:
    """The court view this process last sent each game it follows, and the change from it to
    the next. A game's entries are written under that game's service lock."""

    def __init__(self) -> None:
        self._games: dict[str, Shown] = {}
        self._guard = threading.Lock()

    def _of(self, game_id: str) -> Shown:
        shown = self._games.get(game_id)
        if shown is None:
            with self._guard:
                shown = self._games.setdefault(game_id, Shown())
        return shown

    def welcome(
        self, game_id: str, state: CourtState, version: int, actor: Actor
    ) -> dict[str, Any]:
        """The court at `version` as `actor` may see it, for a connection of his audience to
        be welcomed with: the next push to the game changes this view, and the page holds it."""
        shown = self._of(game_id)
        shown.moved(state, version)
        shared = shown.made.alike()
        own = shown.names.of(shown.made.own(Viewing(actor, handed_at(state, actor)), shared))
        if shown.shared is None or shown.shared[0] < version:
            shown.shared = (version, shared)
        audience = audience_of(actor)
        if audience not in shown.own or shown.own[audience][0] < version:
            shown.own[audience] = (version, own)
        return assembled(shared, own)

    def regrouped(self, game_id: str) -> None:
        """Connections of the game moved to another audience's room: every audience is sent
        its own sections whole at the next push, which tells a moved page it stands for
        another audience now."""
        self._of(game_id).own.clear()

    def forget(self, game_id: str) -> None:
        with self._guard:
            self._games.pop(game_id, None)

    def changes(
        self, game_id: str, state: CourtState, version: int, held: int | None, to: Iterable[str]
    ) -> Change:
        """The change from the view of version `held` this process sent the game (every
        section seen alike when it sent none of that version) to the view of `version`, for
        every audience in `to`: only the sections whose parts changed are made again, those
        seen alike and those shown several viewers alike once (court/views/sections.py), and
        each compared once."""
        shown = self._of(game_id)
        shown.moved(state, version)
        made = shown.made
        shared = made.alike()
        memo: Memo = {}
        before = shown.shared
        start = held if before is not None and before[0] == held else None
        if before is None or start is None:
            change = Change(None, [_set(s.path, shared[s.name]) for s in ALIKE], {})
        else:
            change = Change(start, _changed(made.again_alike, before[1], shared, memo), {})
        again = bool(made.again_own)
        for audience in to:
            was = shown.own.get(audience)
            kept = (
                was[1] if change.start is not None and was is not None and was[0] == held else None
            )
            if kept is not None and not again:
                shown.own[audience] = (version, kept)
                continue
            seen = shown.viewing(state, audience)
            if seen is None:
                continue
            own = shown.names.of(made.own(seen, shared, kept))
            if kept is None:
                ops = [_set(s.path, own[s.name]) for s in OWN if s.name in own]
            else:
                ops = _own_changed(made.again_own, before[1], shared, kept, own, memo)  # type: ignore[index]
            if ops:
                change.own[audience] = ops
            shown.own[audience] = (version, own)
        shown.shared = (version, shared)
        return change


def _set(path: str, value: Any) -> dict[str, Any]:
    """The operation that sets a section whatever the page held there (`add` replaces)."""
    return {"op": "add", "path": path, "value": value}


def _changed(
    sections: Iterable[Section], before: dict[str, Any], after: dict[str, Any], memo: Memo
) -> Ops:
    """The operations from the sections `before` to `after`: none for a section that is the
    very same object (its parts did not change)."""
    ops: Ops = []
    for section in sections:
        old, new = before.get(section.name, _ABSENT), after.get(section.name, _ABSENT)
        if old is not new:
            ops += diff(old, new, memo, section.path)
    return ops


def _own_changed(
    sections: Iterable[Section],
    shared_before: dict[str, Any],
    shared: dict[str, Any],
    before: dict[str, Any],
    after: dict[str, Any],
    memo: Memo,
) -> Ops:
    """The operations on a viewer's own sections, once the shared ones are applied: one that
    stands in a section seen alike which came or went whole is changed from what came with it
    (a spectator's), or not at all when it went."""
    ops: Ops = []
    for section in sections:
        new = after.get(section.name, _ABSENT)
        if new is _ABSENT:
            continue
        old = before.get(section.name, _ABSENT)
        parent = section.within
        if parent is not None and not (
            isinstance(shared_before[parent], dict) and isinstance(shared[parent], dict)
        ):
            old = shared[parent].get(section.name, _ABSENT)
        if old is _ABSENT:
            ops.append(_set(section.path, new))
        elif old is not new:
            ops += diff(old, new, memo, section.path)
    return ops


def diff(old: Any, new: Any, memo: Memo, path: str = "") -> Ops:
    """The JSON Patch from `old` to `new`. Objects are compared key by key, lists of one
    length item by item; of a list whose length changed, the items between the longest
    common head and tail are removed and added (an item appended, one taken out). A pair of
    values met before at the same place (the sections several views share) is compared once.
    (jsonpatch's own make_patch finds moves within lists too, at many times the cost.)"""
    if old is new:
        return []
    key = (path, id(old), id(new))
    found = memo.get(key)
    if found is not None:
        return found
    ops: Ops
    if old == new:
        ops = []
    elif path in WHOLE or type(old) is not type(new):
        ops = [{"op": "replace", "path": path, "value": new}]
    elif isinstance(old, dict):
        ops = [{"op": "remove", "path": f"{path}/{_escape(k)}"} for k in old if k not in new]
        for k, value in new.items():
            before = old.get(k, _ABSENT)
            if before is value:  # a section shared with the view before: nothing to compare
                continue
            at = f"{path}/{_escape(k)}"
            if before is _ABSENT:
                ops.append({"op": "add", "path": at, "value": value})
            elif before != value:
                ops += diff(before, value, memo, at)
    elif isinstance(old, list) and len(old) == len(new):
        ops = []
        for index, (before, after) in enumerate(zip(old, new, strict=True)):
            ops += diff(before, after, memo, f"{path}/{index}")
    elif isinstance(old, list):
        ops = _spliced(old, new, path)
    else:
        ops = [{"op": "replace", "path": path, "value": new}]
    memo[key] = ops
    return ops


def _spliced(old: list[Any], new: list[Any], path: str) -> Ops:
    """A list whose length changed: the items between the common head and tail replaced."""
    head = 0
    shortest = min(len(old), len(new))
    while head < shortest and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < shortest - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    gone, come = old[head : len(old) - tail], new[head : len(new) - tail]
    if len(gone) + len(come) > max(1, len(new) // 2):  # most of it changed: whole is shorter
        return [{"op": "replace", "path": path, "value": new}]
    ops: Ops = [{"op": "remove", "path": f"{path}/{head}"} for _ in gone]
    ops += [{"op": "add", "path": f"{path}/{head + i}", "value": v} for i, v in enumerate(come)]
    return ops


def _escape(key: str) -> str:
    if "~" not in key and "/" not in key:  # every key the views have
        return key
    return key.replace("~", "~0").replace("/", "~1")
