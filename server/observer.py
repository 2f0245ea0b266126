"""What a viewer may see of the court, with each move named as the catalogue names it: the
engine's views (court/views/) given the server's message names."""

from __future__ import annotations

from typing import Any

from court import views
from court.commands import Actor
from court.state import CourtState
from server.messages.catalogue import move_view


def court_view(state: CourtState, version: int, viewer: Actor) -> dict[str, Any]:
    """The whole court as `viewer` may see it at `version`, with the moves it may send."""
    return views.court_view(state, version, viewer, move_view)
