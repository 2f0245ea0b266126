"""Who may move a seat the bot plays: the bot alone, its moves marked as its own, until its
player comes back and takes the seat over (docs/rules-map.md, "A seat played by the bot")."""

from __future__ import annotations

from typing import assert_never

from court.commands import (
    Actor,
    AddDeviceKey,
    AddSeatLink,
    AnswerCorrection,
    BotCommand,
    BotMove,
    Command,
    DropDeviceKey,
    DropSeatLink,
    HandHost,
    TakeSeatBack,
    VoteForHost,
    VoteToEnd,
    VoteToReplace,
    WithdrawCorrection,
)
from court.decide.guards import require_seat, require_status
from court.errors import CourtError, NotAllowed
from court.events import BotPlayed, BotSeated, BotStoodDown, Event
from court.ids import Seat
from court.state import CourtState, GameStatus

# What the table decides together belongs to players: the bot casts no such vote.
TABLE_MATTERS = (
    VoteToReplace,
    VoteToEnd,
    AnswerCorrection,
    WithdrawCorrection,
    VoteForHost,
    TakeSeatBack,
)
# What a seat's player may still do while the bot plays it: come back, have his key gather or
# drop the seat's link, or key the device he comes back on (its first move may be taking the
# seat back, signed).
WHILE_AWAY = (TakeSeatBack, AddSeatLink, DropSeatLink, AddDeviceKey, DropDeviceKey)
# A seat's keys are its player's devices': the bot, the server's, neither holds nor moves them.
DEVICES = (AddDeviceKey, DropDeviceKey)


BOT_UNSIGNED = "bot_signs_nothing"
BOT_SIGNS_NOTHING = (
    "The bot's moves are the server's: it signs nothing and keys no device of the seat it plays."
)


def decide_bot(state: CourtState, command: BotCommand, actor: Actor) -> tuple[Event, ...]:
    match command:
        case TakeSeatBack():
            return take_seat_back(state, actor)
        case BotMove():  # unwrapped before dispatch (`unwrapped`)
            raise CourtError("bad_bot_move", "A bot's move is made by the server alone.")
        case _:
            assert_never(command)


def unwrapped(command: Command, actor: Actor) -> Command:
    """The move a `BotMove` wraps, while the game stands at the version it was chosen on; any
    other command as it is. Only the bot makes a BotMove."""
    if not isinstance(command, BotMove):
        return command
    if not actor.bot:
        raise NotAllowed("bot_only", "Only the server's bot makes the bot's moves.")
    if command.head != command.chosen_at:
        raise CourtError("moved_on", "The game moved on before the bot's move was made.")
    return command.move


def take_seat_back(state: CourtState, actor: Actor) -> tuple[Event, ...]:
    """The seat's player opened his own link again: the bot stands down."""
    seat = require_seat(actor, "take a seat back")
    require_status(state, GameStatus.PLAYING)
    if actor.bot or seat not in state.table.bots:
        raise CourtError("no_bot", "The bot does not play this seat: it is yours to play.")
    info = state.seats[seat]
    return (BotStoodDown(seat=seat, house=info.house, player_name=info.player_name, returned=True),)


def require_mover(state: CourtState, command: Command, actor: Actor) -> None:
    """The bot moves only the seat it plays, and votes on nothing the table decides; the
    seat's player moves nothing while it plays, until he takes the seat back; the host role
    never goes to the bot."""
    if actor.bot:
        if actor.seat is None or actor.seat not in state.table.bots:
            raise NotAllowed("bot_stood_down", "The bot no longer plays this seat.")
        if isinstance(command, TABLE_MATTERS):
            raise NotAllowed(
                "bot_no_vote", "The bot casts no vote: the table's votes are its players'."
            )
        if isinstance(command, DEVICES):
            raise NotAllowed(BOT_UNSIGNED, BOT_SIGNS_NOTHING)
        return
    if isinstance(command, HandHost | VoteForHost) and command.seat in state.table.bots:
        raise CourtError(
            "bot_plays", "The bot plays that seat: the host role goes to a player at the table."
        )
    if actor.seat in state.table.bots and not isinstance(command, WHILE_AWAY):
        raise CourtError(
            "bot_plays",
            "The bot plays your seat while you were away: open your game page to take it "
            "back, then make your move.",
        )


def attributed(actor: Actor, state: CourtState, events: tuple[Event, ...]) -> tuple[Event, ...]:
    """A move the bot made, preceded by the record that says so (the history's "played by
    the bot"); any other move unchanged."""
    if not actor.bot or actor.seat is None:
        return events
    return (BotPlayed(seat=actor.seat, house=state.seats[actor.seat].house), *events)


def seated(state: CourtState, seat: Seat) -> BotSeated:
    info = state.seats[seat]
    return BotSeated(seat=seat, house=info.house, player_name=info.player_name)


def stood_down(state: CourtState, seat: Seat) -> tuple[Event, ...]:
    """The bot's standing down before the seat goes to a new link, when it plays the seat."""
    if seat not in state.table.bots:
        return ()
    info = state.seats[seat]
    return (
        BotStoodDown(seat=seat, house=info.house, player_name=info.player_name, returned=False),
    )
