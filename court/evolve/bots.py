"""Folding a seat played by the bot: seated, its moves marked, standing down."""

from __future__ import annotations

import dataclasses

from court.events.bots import BotPlayed, BotSeated, BotStoodDown
from court.evolve.base import Handlers, replace
from court.evolve.seats import without_votes_of
from court.state import CourtState


def _bot_seated(state: CourtState, e: BotSeated) -> CourtState:
    """The bot plays the seat; the votes and answers its player cast are his and go (R-9.2):
    the bot casts none."""
    votes = {v: h for v, h in state.host_votes.items() if v != e.seat}
    table = without_votes_of(state.table, e.seat)
    table = dataclasses.replace(table, bots=table.bots | {e.seat})
    return replace(state, host_votes=votes, table=table)


def _bot_played(state: CourtState, e: BotPlayed) -> CourtState:
    return state  # the move's own records that follow change the court


def _bot_stood_down(state: CourtState, e: BotStoodDown) -> CourtState:
    table = dataclasses.replace(state.table, bots=state.table.bots - {e.seat})
    return replace(state, table=table)


HANDLERS: Handlers = {
    BotSeated: _bot_seated,
    BotPlayed: _bot_played,
    BotStoodDown: _bot_stood_down,
}
