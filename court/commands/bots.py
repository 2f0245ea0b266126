"""A command of a seat played by the bot: its player, back, taking the seat over. The bot's own
move holds any command, so it lies beside the union of them all (court/commands/command.py)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True, kw_only=True)
class TakeSeatBack:
    """The player of a seat the bot plays opens his own link again: the bot stands down and
    he plays on."""
