"""The bot at a simulated table (docs/rules-map.md, "A seat played by the bot"): a vote to replace a
player gone is now and then for the bot, the table mostly agreeing on one choice; the bot makes
its seat's moves when the court waits on it, as the server's bot does; a player who comes back
takes his seat over."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable

from court.commands import Actor, BotMove, Command, PlaceBallot, TakeSeatBack
from court.ids import Seat
from court.options.bot import awaited_bots, bot_move
from court.state import CourtState
from server.tools.sim_table import SimPresence

# How often a first vote to replace a player is for the bot, and how often a later voter
# follows the choice cast most (a majority must agree on one, R-9.2).
FOR_BOT = 0.4
AGREE = 0.8
# How often the bot moves when the court waits on it (otherwise something else happens first:
# a fact, a deadline, its player coming back).
MOVES = 0.9


def bot_vote(state: CourtState, rng: random.Random, seat: Seat) -> bool:
    """Whether a vote to replace `seat` is for the bot: mostly the choice cast most so far."""
    cast = state.table.replace.get(seat, {})
    if not cast or rng.random() >= AGREE:
        return rng.random() < FOR_BOT
    bots = sum(state.table.chose_bot(seat, v) for v in cast)
    return 2 * bots > len(cast) or (2 * bots == len(cast) and rng.random() < 0.5)


def returning(state: CourtState, presence: SimPresence) -> tuple[Actor, Command] | None:
    """A seat the bot plays whose player is here again: his page takes the seat back."""
    back = sorted(s for s in state.table.bots if s not in presence.gone)
    return (Actor(seat=back[0]), TakeSeatBack()) if back else None


def bot_turn(
    state: CourtState, rng: random.Random, version: int, salt: Callable[[], str]
) -> tuple[Actor, Command] | None:
    """The bot's move for the seat the court waits on, chosen on `version`, a ballot's salts
    drawn as the server draws them; None when the court waits on no seat the bot plays."""
    seats = awaited_bots(state)
    if not seats or rng.random() >= MOVES:
        return None
    move = bot_move(state, seats[0])
    if move is None:
        return None
    if isinstance(move, PlaceBallot):
        move = PlaceBallot(markers=tuple(dataclasses.replace(m, salt=salt()) for m in move.markers))
    return Actor(seat=seats[0], bot=True), BotMove(move=move, chosen_at=version)
