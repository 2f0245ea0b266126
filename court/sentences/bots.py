"""Sentences of a seat played by the bot: seated by the table's vote, each move it makes, and
standing down for its player or a new link."""

from __future__ import annotations

from court.sentences import names
from court.sentences.base import Data, Sentences
from court.state import CourtState


def _bot_seated(d: Data, state: CourtState) -> str:
    house = names.house(state, d["house"])
    return (
        f"The bot plays {house} while {d['player_name']} is away: it makes the seat's moves "
        "and casts no vote; he takes his seat back by opening his link."
    )


def _bot_played(d: Data, state: CourtState) -> str:
    return f"{names.house(state, d['house'])}'s move here was played by the bot."


def _bot_stood_down(d: Data, state: CourtState) -> str:
    house = names.house(state, d["house"])
    if d["returned"]:
        return f"{d['player_name']} is back and plays {house} again; the bot stood down."
    return f"The bot stood down from {house}: the table handed the seat to a new link."


SENTENCES: Sentences = {
    "BotSeated": _bot_seated,
    "BotPlayed": _bot_played,
    "BotStoodDown": _bot_stood_down,
}
