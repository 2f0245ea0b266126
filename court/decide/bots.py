"""Who may move a seat the bot plays: the bot alone, its moves marked as its own, until its
player comes back and takes the seat over (docs/rules-map.md, "A seat played by the bot")."""

from __future__ import annotations

from collections.abc import Callable
from typing import assert_never

from court.commands import (
    AcceptTitle,
    Actor,
    AddDeviceKey,
    AddSeatLink,
    AnswerCorrection,
    AnswerMarriage,
    BotCommand,
    BotMove,
    ChooseCouncilSeat,
    Command,
    DropDeviceKey,
    DropSeatLink,
    EndPurchases,
    HandHost,
    Pass,
    PassBid,
    PlaceBallot,
    ResolveTitleOverflow,
    StandForElection,
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


def own_candidates(state: CourtState, seat: Seat) -> frozenset[str]:
    """The seat's own Lords standing in the election under way."""
    election = state.election
    if election is None:
        return frozenset()
    return frozenset(n for s, n in election.candidates if s == seat and n in election.standing)


def _for_own(move: Command, own: frozenset[str]) -> bool:
    if not isinstance(move, PlaceBallot) or len(move.markers) != 1:
        return False
    marker = move.markers[0]
    return marker.kind == "for" and marker.candidate in own


# The moves the bot makes, a caretaker's, in the order its policy prefers them
# (court/options/bot.py): accept a title, refuse a marriage, stand a Lord, back its own
# candidate alone, pass, seat a Warden it bought the council seat for, give a title over the
# slots back. It commits the House to nothing its player could not undo: no proposal, purchase,
# bid, offer or ransom, and no vote of the table's.
Wanted = Callable[[Command, frozenset[str]], bool]
BOT_MOVES: tuple[Wanted, ...] = (
    lambda m, _: isinstance(m, AcceptTitle),
    lambda m, _: isinstance(m, AnswerMarriage) and not m.accept,
    lambda m, _: isinstance(m, StandForElection),
    _for_own,
    lambda m, _: isinstance(m, PassBid | EndPurchases | Pass),
    lambda m, _: isinstance(m, ChooseCouncilSeat),
    lambda m, _: isinstance(m, ResolveTitleOverflow) and m.to is None,
)
BOT_ONLY_CARETAKES = (
    "The bot only keeps the seat going: it accepts titles, refuses proposals, stands and backs "
    "its own Lords, passes and gives back a title over the slots. Its player makes any other move "
    "once he takes his seat back."
)

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
        own = own_candidates(state, actor.seat)
        if not any(wanted(command, own) for wanted in BOT_MOVES):
            raise NotAllowed("bot_caretaker", BOT_ONLY_CARETAKES)
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
