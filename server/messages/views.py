"""The observer a viewer gets from the server: the engine's (court/views/observer.py), with
each move named as the catalogue names it."""

from __future__ import annotations

from typing import Any

from court.commands import Actor
from court.state import CourtState
from court.views import Observer
from server.messages.catalogue import move_view
from server.service.court_service import CourtService
from server.service.replay import Head


def observe(viewer: Actor, now: CourtState) -> Observer:
    """What `viewer` may see of a game standing as `now`."""
    return Observer.of(viewer, now, move_view)


def court_of(
    viewer: Actor,
    head: Head,
    checkpoint: dict[str, Any] | None = None,
    now: CourtState | None = None,
) -> dict[str, Any]:
    """The court at `head` as `viewer` may see it, with the moves the viewer may send, and
    the server's signed checkpoint of `head` when given (server/keys/signing.py); `now` is the
    game as it stands (when `head` is an older version), which says what the viewer's token
    may see of his seat's secrets."""
    court = observe(viewer, head.state if now is None else now).court(head.state, head.version)
    return court if checkpoint is None else {**court, "checkpoint": checkpoint}


def signed(service: CourtService, head: Head) -> dict[str, Any]:
    """The server's signed checkpoint of the head a view or a push shows."""
    return service.keys.signing.checkpoint(head.state.game_id, head.version, head.hash)
