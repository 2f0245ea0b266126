"""What happens around a simulated table besides its moves: players close their pages and come
back, the other seats vote to replace one gone for the profile's time (R-9.2), and the host
renames the game. Votes to end the game and answers to a correction are moves the court lists
(server/tools/sim_moves.py picks them); the host's corrections are sim_corrections.py's."""

from __future__ import annotations

import random

from court.commands import Actor, RenameGame
from court.ids import Seat
from court.state import CourtState
from server.tools.sim_table import SimPresence

# How often the player who leaves is the host (the others then vote a new host, section 10).
HOST_LEAVES = 0.25
# How often a change of presence is a player coming back rather than one leaving.
COMING_BACK = 0.3
# How often a vote to replace goes to a player gone long enough, by a seat that has not yet
# voted to replace him; the rest are refused (too soon, twice, the host's seat) and must leave
# the log as it was.
DUE = 0.85
# The names a host gives his game; now and then the one it has, or one no game may have.
NAMES = ("The Long Night", "A Feast for Crows", "Winter Is Coming", "The Iron Throne", "")


def absence(state: CourtState, rng: random.Random, presence: SimPresence, now: float) -> None:
    """A player closes his page (the host more often than his share), or one who did comes
    back."""
    gone = sorted(s for s in presence.gone if s in state.seats)
    if gone and rng.random() < COMING_BACK:
        presence.back(rng.choice(gone))
        return
    host = state.host_seat()
    if host is not None and rng.random() < HOST_LEAVES:
        presence.leave(host, now)
    else:
        presence.leave(Seat(rng.choice(sorted(state.seats))), now)


def _since(state: CourtState, presence: SimPresence, seat: Seat) -> float | None:
    """Since when `seat`'s player has been gone as the court counts it: from the game's start
    or the seat's last hand-over at the earliest (R-9.2); None while he is here."""
    since = presence.away_since(seat)
    if since is None:
        return None
    return max(since, state.started_at, state.table.replaced_at.get(seat, 0.0))


def gone_long(state: CourtState, presence: SimPresence, seat: Seat, now: float) -> bool:
    """Whether the other seats may vote to replace `seat`'s player: gone for the profile's
    time, and not the host (who is voted out of his role first)."""
    since = _since(state, presence, seat)
    if since is None or state.seats[seat].host:
        return False
    return now - since >= state.ruleset.profile.table_votes.replace_after


def replace_vote(
    state: CourtState, rng: random.Random, presence: SimPresence, now: float
) -> tuple[Actor, Seat] | None:
    """A present seat's vote to replace a player who is gone: mostly one gone long enough, by
    a seat whose vote for it does not count yet, among the seats that count (R-9.2); None when
    nobody is gone or votes."""
    gone = [s for s in sorted(presence.gone) if s in state.seats]
    if not gone:
        return None
    due = [s for s in gone if gone_long(state, presence, s, now)]
    leaning = rng.random() < DUE
    target = rng.choice(due if due and leaning else gone)
    voters = [s for s in state.counting() if s != target and s not in presence.gone]
    if not voters:
        return None
    since = _since(state, presence, target) or 0.0
    cast = state.table.replace.get(target, {})
    fresh = [v for v in voters if cast.get(v, -1.0) < since]
    return Actor(seat=rng.choice(fresh if fresh and leaning else voters)), target


def rename(state: CourtState, rng: random.Random) -> tuple[Actor, RenameGame]:
    """The host's new name for the game."""
    return Actor(seat=state.host_seat(), host=True), RenameGame(name=rng.choice(NAMES))
