"""The court a viewer gets from the server: the engine's view (court/views/observer.py), whose
moves are commands, with each move named as the catalogue names it for the wire."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from court.commands import Actor, Command
from court.state import CourtState
from court.views import Observer
from server.messages.catalogue import move_view
from server.service.court_service import CourtService
from server.service.replay import Head

MOVES = "moves"


def observe(viewer: Actor, now: CourtState) -> Observer:
    """What `viewer` may see of a game standing as `now`."""
    return Observer.of(viewer, now)


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
    court[MOVES] = named(court[MOVES])
    return court if checkpoint is None else {**court, "checkpoint": checkpoint}


def named(moves: Sequence[Command]) -> list[dict[str, Any]]:
    """The moves as the messages that send them: each its name and its payload."""
    return [move_view(command) for command in moves]


class MoveNames:
    """The moves of the views a process pushes, named once for each list of commands the
    engine's view keeps: while it keeps the very list, the very named list is shown, so that
    a push finds the moves unchanged by identity (server/live/views.py `diff`). Each command
    is named once too, while the engine lists the very command again (the ballots of the same
    candidates, court/options/legal.py, are made once for every voter)."""

    LIMIT = 4096  # lists, and commands, remembered; past it, named afresh

    def __init__(self) -> None:
        self._named: dict[int, tuple[Sequence[Command], list[dict[str, Any]]]] = {}
        self._moves: dict[int, tuple[Command, dict[str, Any]]] = {}

    def of(self, own: dict[str, Any]) -> dict[str, Any]:
        """A viewer's own sections with their moves named (as they are, when they were)."""
        moves = own.get(MOVES)
        if not moves or isinstance(moves[0], dict):  # none, or named already (kept from before)
            return own
        return {**own, MOVES: _kept(self._named, moves, self._listed)}

    def _listed(self, moves: Sequence[Command]) -> list[dict[str, Any]]:
        return [_kept(self._moves, command, move_view) for command in moves]


def _kept(kept: dict[int, tuple[Any, Any]], thing: Any, make: Callable[[Any], Any]) -> Any:
    """`make(thing)`, made once while `kept` holds the very `thing` (by identity); past
    MoveNames.LIMIT entries, `kept` starts afresh."""
    found = kept.get(id(thing))
    if found is None or found[0] is not thing:
        if len(kept) >= MoveNames.LIMIT:
            kept.clear()
        found = kept[id(thing)] = (thing, make(thing))
    return found[1]


def signed(service: CourtService, head: Head) -> dict[str, Any]:
    """The server's signed checkpoint of the head a view or a push shows."""
    return service.keys.signing.checkpoint(head.state.game_id, head.version, head.hash)
