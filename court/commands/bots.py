"""Commands of a seat played by the bot: the bot's move, chosen on one version of the game, and
its player, back, taking the seat over."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from court.commands import Command


@dataclass(frozen=True, slots=True, kw_only=True)
class TakeSeatBack:
    """The player of a seat the bot plays opens his own link again: the bot stands down and
    he plays on."""


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
