"""The court view's `host_role`: whether the seats may take the host role over, what it takes,
and why not when they may not. Whether the host is connected is no part of the court: the
`presence` push says since when he has had no connection (docs/protocol.md)."""

from __future__ import annotations

from typing import Any

from court.commands import Actor
from court.decide.seats import electors_of, span
from court.state import CourtState, GameStatus


def host_role_view(state: CourtState, viewer: Actor) -> dict[str, Any]:
    """`open`: the viewer's seat may vote once the host has had no connection for
    `takeover_after` seconds of the started game; otherwise `why` names the reason, and
    `message` says it either way. `votes` are every seat's vote with its time: only those cast
    since the host's current absence began count. The viewer counts only by that reason
    (`why_closed`): the viewers of one reason are shown one section."""
    why = why_closed(state, viewer)
    after = state.ruleset.profile.host_role.takeover_after
    electors = len(electors_of(state))
    needed = electors // 2 + 1
    return {
        "host_seat": state.host_seat(),
        "takeover_after": after,
        "electors": electors,
        "votes_needed": needed,
        "votes": [
            {"seat": voter, "for_seat": vote.seat, "at": vote.at}
            for voter, vote in sorted(state.host_votes.items())
        ],
        "open": why is None,
        "why": why,
        "message": _MESSAGES[why].format(after=span(after), needed=needed, electors=electors),
    }


def why_closed(state: CourtState, viewer: Actor) -> str | None:
    if state.status is GameStatus.ENDED:
        return "ended"
    if state.status is not GameStatus.PLAYING:
        return "lobby"
    if viewer.host:
        return "host"
    if viewer.seat is None:
        return "no_seat"
    seat = state.seats.get(viewer.seat)
    if seat is not None and seat.unclaimed:
        return "unclaimed"
    return None


_MESSAGES = {
    None: "If the host has had no connection for {after} of the game, the other seats may vote "
    "a new host in: {needed} of the {electors} other seats' votes for one seat make it the host. "
    "While the host is connected, only he hands the role on.",
    "lobby": "Before the game starts nobody votes for a host: the host who created it hands the "
    "role on himself.",
    "ended": "The game is over: the host role no longer changes hands.",
    "host": "You are the host: hand the role to another seat yourself. If you have had no "
    "connection for {after} of the game, the other seats may vote a new host in.",
    "no_seat": "Only the seated players vote for a new host, once the host has had no "
    "connection for {after} of the game.",
    "unclaimed": "This seat was handed to you: say your name first, then your seat counts in "
    "the votes for a new host.",
}
