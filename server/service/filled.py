"""What the service fills into a command and no client payload can set: since when the host has
had no connection (the presence book's word) for a vote for a new host, and the version a
seat's hand-over is recorded at."""

from __future__ import annotations

from dataclasses import replace

from court.commands import BotMove, Command, HandSeat, VoteForHost
from server.keys import InstanceSecret
from server.service.filled_table import Past, filled_table
from server.service.ports import HostPresence
from server.service.replay import Head


def filled(
    command: Command,
    game_id: str,
    head: Head,
    presence: HostPresence | None,
    past: Past | None = None,
    secret: InstanceSecret | None = None,
) -> Command:
    """`command` as the engine decides it on `head`. Without a book of connections (a tool
    run without a server) the host counts as present: no takeover is decided blind; the same
    holds for a seat the table would replace (server/service/filled_table.py); `secret` makes the
    link a replacement hands the seat to."""
    if isinstance(command, VoteForHost):
        state = head.state
        away = (
            None
            if presence is None
            else presence.host_away_since(game_id, state.host_seat(), state.started_at)
        )
        return replace(command, host_away_since=away)
    if isinstance(command, BotMove):  # decided on this head alone (server/live/bots.py)
        return replace(command, head=head.version)
    if isinstance(command, HandSeat):
        # The command's first record follows the head's; the engine counts what comes before
        # the hand-over's own (a clock it stops, court/decide/seats.py).
        return replace(command, at_version=head.version + 1)
    return filled_table(command, game_id, head, presence, past, secret)
