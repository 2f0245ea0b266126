"""The bot's policy: which move it makes for a seat whose player is gone, when the court waits
on that seat. A caretaker, not a player: it keeps the game moving and commits the House to
nothing its player could not undo (docs/rules-map.md, "A seat played by the bot").

It reads only what the seat's own page shows: the moves `rules.legal_commands` lists for the
seat and the public court (who stands for an election, whose Noble is whose). Never a marker's
kind, a bid's amount or any other seat's secret, so its choice is the same whatever those hold;
and no die or clock, so the same court gives the same move on any machine."""

from __future__ import annotations

from court.commands import Actor, Command
from court.decide.bots import BOT_MOVES, own_candidates
from court.ids import Seat
from court.options.legal import legal_commands
from court.state import CourtState
from court.views.waiting import awaited


def awaited_bots(state: CourtState) -> tuple[Seat, ...]:
    """The seats the bot plays that the court waits on now."""
    turn = awaited(state)
    if turn is None or not state.table.bots:
        return ()
    return tuple(s for s in turn.seats if s in state.table.bots)


def bot_move(state: CourtState, seat: Seat) -> Command | None:
    """The bot's move for `seat`, or None when the seat has none to make. In order: accept a
    title won (R-3.3), refuse a marriage proposed to it (R-5.1), put forward the first of its
    Lords it may (R-7.1), place its FOR marker alone on its own candidate when one stands or
    else none, pass on the council seat's sale (R-4.6) and end its purchases (R-4.1), seat the
    first Warden it may when it won that sale, give a title over the slots back to the board
    (R-3.2); anything else the step asks: pass. It never proposes, buys, bids, offers, answers
    a ransom or votes on what the table decides."""
    moves = legal_commands(state, Actor(seat=seat, bot=seat in state.table.bots))
    own = own_candidates(state, seat)
    for wanted in BOT_MOVES:
        found = next((m for m in moves if wanted(m, own)), None)
        if found is not None:
            return found
    return None
