"""A log of a seat played by the bot, for the golden fold: voted in, moving for its seat, its
player taking the seat back, voted in again, then standing down for a new link."""

from __future__ import annotations

from court.commands import (
    Actor,
    AdvancePhase,
    Command,
    Pass,
    StartGame,
    TakeSeatBack,
    VoteToReplace,
)
from court.events import Event
from court.ids import Seat
from court.options.bot import awaited_bots, bot_move
from court.views.waiting import awaited
from tests.court.given import Table, created, joined, seat

GONE = Seat(3)


def seat_played_by_bot() -> list[Event]:
    host = seat(0, host=True)
    table = Table(
        created(4, table_votes__replace_after=600),
        joined(0, host=True),
        *(joined(i) for i in range(1, 4)),
    )
    table.act(StartGame(), host, now=1000.0)
    bot = VoteToReplace(seat=GONE, bot=True, away_since=1100.0)
    table.act(bot, seat(1), now=1800.0)
    table.act(bot, seat(2), now=1810.0)
    _until_the_bot_moved(table, host)
    table.act(TakeSeatBack(), seat(3), now=1900.0)
    table.act(bot, seat(1), now=2000.0)
    table.act(bot, seat(2), now=2010.0)
    _until_the_bot_moved(table, host)
    link = VoteToReplace(seat=GONE, away_since=1100.0, token_sha256="b" * 64)
    table.act(link, seat(1), now=2100.0)
    table.act(link, host, now=2110.0)
    return table.events


def _until_the_bot_moved(table: Table, host: Actor) -> None:
    """The others pass and the host closes the table's phases until the bot has made a move."""
    move = until_the_bot_is_awaited(table, host)
    table.act(move, Actor(seat=GONE, bot=True), now=1850.0)


def until_the_bot_is_awaited(table: Table, host: Actor) -> Command:
    """The others pass and the host closes the table's phases until the court awaits the bot's
    seat: the move the bot makes there."""
    for _ in range(100):
        if GONE in awaited_bots(table.state):
            move = bot_move(table.state, GONE)
            assert move is not None
            return move
        turn = awaited(table.state)
        if turn is None:
            table.act(AdvancePhase(), host, now=1850.0)
        else:
            table.act(Pass(), seat(turn.seats[0], host=turn.seats[0] == 0), now=1850.0)
    raise AssertionError("the bot's seat was never awaited")
