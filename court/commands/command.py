"""The one `Command` union of every subdomain's commands, and the bot's move, which holds any
command of that union and is one itself."""

from __future__ import annotations

from dataclasses import dataclass, replace

from court.commands.bots import TakeSeatBack
from court.commands.decrees import DecreeCommand
from court.commands.devices import DeviceCommand
from court.commands.elections import ElectionCommand
from court.commands.nobles import NobleCommand
from court.commands.purchases import PurchaseCommand
from court.commands.rounds import RoundCommand
from court.commands.seats import SeatCommand
from court.commands.secrets import Drawn, Secret
from court.commands.setup import SetupCommand
from court.commands.table import TableCommand
from court.commands.titles import TitleCommand


@dataclass(frozen=True, slots=True, kw_only=True)
class BotMove:
    """The server's bot makes `move` for the seat it plays, as chosen on the game at version
    `chosen_at`: refused once the game has moved past it, so that a move is made once, on the
    court it was chosen for, however many processes chose it."""

    move: Command
    chosen_at: int
    # The server's, never a client's: the version of the head the move is decided on.
    head: int = 0


BotCommand = TakeSeatBack | BotMove

Command = (
    SetupCommand
    | RoundCommand
    | ElectionCommand
    | TitleCommand
    | DecreeCommand
    | NobleCommand
    | PurchaseCommand
    | SeatCommand
    | TableCommand
    | DeviceCommand
    | BotCommand
)


def needs(command: Command) -> tuple[Secret, ...]:
    """The secrets the server draws for `command` (a bot's move's are its move's)."""
    if isinstance(command, BotMove):
        return needs(command.move)
    declared = getattr(command, "needs", None)
    return () if declared is None else tuple(declared())


def supplied(command: Command, drawn: Drawn) -> Command:
    """`command` with the secrets drawn for it."""
    if isinstance(command, BotMove):
        return replace(command, move=supplied(command.move, drawn))
    supply = getattr(command, "supplied", None)
    found: Command = command if supply is None or not drawn.values else supply(drawn)
    return found
