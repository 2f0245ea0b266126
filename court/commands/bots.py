"""Commands of a seat played by the bot: its player, back, takes the seat over."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True, kw_only=True)
class TakeSeatBack:
    """The player of a seat the bot plays opens his own link again: the bot stands down and
    he plays on."""


BotCommand = TakeSeatBack
