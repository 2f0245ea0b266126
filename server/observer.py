"""The observer a viewer gets from the server: the engine's (court/views/observer.py), with
each move named as the catalogue names it."""

from __future__ import annotations

from typing import Any

from court.commands import Actor
from court.state import CourtState
from court.views import Observer
from server.messages.catalogue import move_view
from server.replay import Head


def observe(viewer: Actor, now: CourtState) -> Observer:
    """What `viewer` may see of a game standing as `now`."""
    return Observer.of(viewer, now, move_view)


def court_of(viewer: Actor, head: Head, now: CourtState | None = None) -> dict[str, Any]:
    """The court at `head` as `viewer` may see it, with the moves the viewer may send; `now`
    is the game as it stands (when `head` is an older version), which says what the viewer's
    token may see of his seat's secrets."""
    return observe(viewer, head.state if now is None else now).court(head.state, head.version)
