"""The court view each push carries: rendered once per audience of a game (the spectators, the
host without a seat, the game master, each seat) and sent as an RFC 6902 JSON Patch from the
view that audience's pages hold, or whole when this process holds no view of that version.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import Any

import jsonpatch

from court.commands import SPECTATOR, Actor
from court.ids import Seat
from court.rules import still_acting
from court.state import CourtState
from court.views.court import court_views
from server.messages.catalogue import move_view

PUBLIC, HOST, MASTER = "public", "host", "master"
SEAT = "seat:"
# Paths whose value is sent whole when it changes, never as finer operations: the viewer's
# own markers are padded each to one width (court/views/padding.py), and an operation on one
# of their fields would be as long as the secret it changes.
WHOLE = frozenset({"/election/my_markers"})

Ops = list[dict[str, Any]]


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
            f"Seat {seat + 1} was handed to a new link by the host: this device no longer "
            "holds it and now watches as a spectator."
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

    def changes(
        self, game_id: str, state: CourtState, version: int, held: int | None, to: Iterable[str]
    ) -> dict[str, dict[str, Any]]:
        """For each audience in `to`: `{audience, from, patch}` from the view of version
        `held` it was last sent, or `{audience, court}` (the whole view) when this process did
        not send it that one. The views are rendered together (court_views), so the sections
        every viewer sees alike are rendered and compared once."""
        wanted = [(a, v) for a in to if (v := viewer_of(state, a)) is not None]
        views = court_views(
            state, version, [(v, handed_at(state, v)) for _, v in wanted], move_view
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
    length item by item; a list whose length changed is left to `jsonpatch`. A pair of values
    met before at the same place (the sections several views share) is compared once."""
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
            at = f"{path}/{_escape(k)}"
            if k in old:
                ops += diff(old[k], value, memo, at)
            else:
                ops.append({"op": "add", "path": at, "value": value})
    elif isinstance(old, list) and len(old) == len(new):
        ops = []
        for index, (before, after) in enumerate(zip(old, new, strict=True)):
            ops += diff(before, after, memo, f"{path}/{index}")
    elif isinstance(old, list):
        ops = [_under(path, op) for op in jsonpatch.make_patch(old, new).patch]
    else:
        ops = [{"op": "replace", "path": path, "value": new}]
    memo[key] = ops
    return ops


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def _under(path: str, op: dict[str, Any]) -> dict[str, Any]:
    """A patch operation of a value at `path`, made a patch of the whole view."""
    moved = {"path": path + op["path"]}
    if "from" in op:
        moved["from"] = path + op["from"]
    return {**op, **moved}
