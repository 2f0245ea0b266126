"""What the service fills into a command and no client payload can set: since when the host has
had no connection (the presence book's word) for a vote for a new host, the version a seat's
hand-over is recorded at, and whether the head a signed move was signed on is the log's."""

from __future__ import annotations

from dataclasses import replace

from court.commands import BotMove, Command, HandSeat, SignedMove, VoteForHost
from court.log.chain import GENESIS
from server.keys import InstanceSecret
from server.service.filled_table import Past, filled_table
from server.service.ports import HostPresence
from server.service.replay import Head


def filled(
    move: Command | SignedMove,
    game_id: str,
    head: Head,
    presence: HostPresence | None,
    past: Past | None = None,
    secret: InstanceSecret | None = None,
) -> Command | SignedMove:
    """`move` as the engine decides it on `head`; a signed move's own record comes before its
    command's."""
    if not isinstance(move, SignedMove):
        return filled_command(move, game_id, head, presence, past, head.version + 1, secret)
    command = filled_command(move.command, game_id, head, presence, past, head.version + 2, secret)
    return replace(move, command=command, seen=_seen(move, head, past))


def _seen(move: SignedMove, head: Head, past: Past | None) -> bool:
    """Whether the log holds the head the move was signed on: the newest, or an older one."""
    version, hash_ = move.signature.version, move.signature.hash
    if version >= head.version or version == 0:
        return (version, hash_) in ((head.version, head.hash), (0, GENESIS))
    return past is not None and past.hash_at(version) == hash_


def filled_command(
    command: Command,
    game_id: str,
    head: Head,
    presence: HostPresence | None,
    past: Past | None,
    first: int,
    secret: InstanceSecret | None = None,
) -> Command:
    """`command` as the engine decides it on `head`, its first record at version `first`.
    Without a book of connections (a tool run without a server) the host counts as present:
    no takeover is decided blind; the same holds for a seat the table would replace
    (server/service/filled_table.py); `secret` makes the link a replacement hands the seat to."""
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
        # The command's first record (after the signed move's own, when signed); the engine
        # counts what comes before the hand-over's own (a clock it stops, court/decide/seats.py).
        return replace(command, at_version=first)
    return filled_table(command, game_id, head, presence, past, first, secret)
