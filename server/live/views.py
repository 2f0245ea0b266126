"""The court view each push carries: rendered once per audience of a game (the spectators, the
host without a seat, the game master, each seat) and sent as an RFC 6902 JSON Patch from the
view that audience's pages hold, or whole when this process holds no view of that version.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import Any

from court.commands import SPECTATOR, Actor
from court.ids import Seat
from court.state import CourtState
from court.tokens import still_acting
from court.views.court import court_views
from server.messages.catalogue import move_view

PUBLIC, HOST, MASTER = "public", "host", "master"
SEAT = "seat:"
# Paths whose value is sent whole when it changes, never as finer operations: the viewer's
# own markers are padded each to one width (court/views/padding.py), and an operation on one
# of their fields would be as long as the secret it changes.
WHOLE = frozenset({"/election/my_markers"})

Ops = list[dict[str, Any]]
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


class Views:
    """The last court view this process sent each audience of each game it follows, and the
    change from it to the next. A game's entries are written under that game's service lock."""

    def __init__(self) -> None:
        self._shown: dict[str, dict[str, tuple[int, dict[str, Any]]]] = {}
        # per game: its largest shared sections and the parts of the court they were made of
        self._kept: dict[str, dict[str, tuple[tuple[Any, ...], Any]]] = {}
        self._guard = threading.Lock()

    def remember(self, game_id: str, audience: str, version: int, view: dict[str, Any]) -> None:
        """The view a connection of `audience` was just welcomed with (without its checkpoint)."""
        with self._guard:
            shown = self._shown.setdefault(game_id, {})
            if audience not in shown or shown[audience][0] <= version:
                shown[audience] = (version, view)

    def forget(self, game_id: str) -> None:
        with self._guard:
            self._shown.pop(game_id, None)
            self._kept.pop(game_id, None)

    def changes(
        self, game_id: str, state: CourtState, version: int, held: int | None, to: Iterable[str]
    ) -> dict[str, dict[str, Any]]:
        """For each audience in `to`: `{audience, from, patch}` from the view of version
        `held` it was last sent, or `{audience, court}` (the whole view) when this process did
        not send it that one. The views are rendered together (court_views), so the sections
        every viewer sees alike are rendered and compared once."""
        wanted = [(a, v) for a in to if (v := viewer_of(state, a)) is not None]
        with self._guard:
            kept = self._kept.setdefault(game_id, {})
        views = court_views(
            state, version, [(v, handed_at(state, v)) for _, v in wanted], move_view, kept
        )
        with self._guard:
            shown = self._shown.setdefault(game_id, {})
            before = {a: shown.get(a) for a, _ in wanted}
            for (audience, _), view in zip(wanted, views, strict=True):
                shown[audience] = (version, view)
        memo: dict[tuple[str, int, int], Ops] = {}
        out: dict[str, dict[str, Any]] = {}
        for (audience, _), view in zip(wanted, views, strict=True):
            old = before[audience]
            if old is None or held is None or old[0] != held:
                out[audience] = {"audience": audience, "court": view}
            else:
                out[audience] = {
                    "audience": audience,
                    "from": held,
                    "patch": diff(old[1], view, memo),
                }
        return out


def diff(old: Any, new: Any, memo: dict[tuple[str, int, int], Ops], path: str = "") -> Ops:
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
    if len(gone) + len(come) > len(new):  # most of it changed: the list whole is shorter
        return [{"op": "replace", "path": path, "value": new}]
    ops: Ops = [{"op": "remove", "path": f"{path}/{head}"} for _ in gone]
    ops += [{"op": "add", "path": f"{path}/{head + i}", "value": v} for i, v in enumerate(come)]
    return ops


def _escape(key: str) -> str:
    if "~" not in key and "/" not in key:  # every key the views have
        return key
    return key.replace("~", "~0").replace("/", "~1")
