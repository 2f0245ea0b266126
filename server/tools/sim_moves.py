"""How a simulated player picks a move among those `rules.legal_commands` lists, and the seats
changing hands around a table (section 10): no rule is played that a table would not play.

A move is picked in two draws: a kind of move of one player (weighted as a table plays: a
Brother seldom breaks his oath, a ransom is offered now and then), then one move of that kind,
with a table's leanings (a King is married when he can be, the Hand sends a Lord to the Wall
who takes the black). Drawing the kind first keeps a step with forty possible marriages from
drowning its pass, and the leanings let long runs reach the rules that hang on them: Lord
Commander ballots (R-7.3) and Queens made by a King's marriage (R-3.8).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from court.commands import (
    SPECTATOR,
    Actor,
    AddSeatLink,
    Command,
    DropSeatLink,
    HandHost,
    HandSeat,
    ProposeMarriage,
    SendToWall,
    VoteForHost,
)
from court.decide.outlaws import takes_the_black
from court.ids import KING, Seat
from court.links import LinkEnd
from court.state import CourtState
from court.tokens import actor_of, tokens_in_use
from server.tools.sim_table import SimPresence

# Weight of a kind of move against 1 for any other kind, per player who may make it.
KIND_WEIGHTS = {
    "Desert": 0.03,  # the Watch fills and elects its Lord Commander
    "OfferRansom": 0.3,
    "WithdrawRansom": 0.3,
    "RefuseTitle": 0.4,  # most win a title to take it
}
# How often a move of a kind goes to a table's leaning when one is possible.
LEANING = 0.6

Move = tuple[Actor, Command]


def _leaning(state: CourtState, command: Command) -> bool:
    """Whether a table leans to this move: marrying the King (R-3.8), sending to the Wall a
    Lord who takes the black (R-6.4, R-8.3)."""
    if isinstance(command, ProposeMarriage):
        return state.titles.get(KING) in (command.noble, command.to)
    if isinstance(command, SendToWall):
        return takes_the_black(state, command.noble)
    return False


def pick(state: CourtState, rng: random.Random, moves: Sequence[Move]) -> Move:
    """A kind of move of one player, weighted, then one move of that kind."""
    kinds: dict[tuple[Actor, str], list[Command]] = {}
    for actor, command in moves:
        kinds.setdefault((actor, type(command).__name__), []).append(command)
    groups = list(kinds)
    weights = [KIND_WEIGHTS.get(kind, 1.0) for _, kind in groups]
    actor, kind = rng.choices(groups, weights=weights)[0]
    commands = kinds[(actor, kind)]
    leaning = [c for c in commands if _leaning(state, c)]
    if leaning and rng.random() < LEANING:
        return actor, rng.choice(leaning)
    return actor, rng.choice(commands)


def seat_change(
    state: CourtState, rng: random.Random, digest: str, presence: SimPresence, now: float
) -> Move | None:
    """A seat handed to a new device, the host role handed to another seat, the host leaving
    the table or coming back, a seat's vote for a new host (or its withdrawal) once he has
    been away for the profile's time, or a person's key gathering a token or letting a link
    go: what moves seats and the host role between players and devices during a game; None
    when nothing is handed or voted."""
    host = state.host_seat()
    others = sorted(s for s in state.seats if s != host)
    if host is None or not others:
        return None
    kind = rng.choice(("hand_seat", "hand_host", "link", "link", "vote", "vote", "vote", "vote"))
    if kind == "link":
        return key_change(state, rng, digest)
    hosting = Actor(seat=host, host=True)
    if kind == "hand_seat":
        return hosting, HandSeat(seat=rng.choice(sorted(state.seats)), token_sha256=digest)
    if kind == "hand_host":
        return hosting, HandHost(seat=rng.choice(others))
    voter = _voter(state, rng, others)
    if voter in state.host_votes and rng.random() < 0.3:
        return Actor(seat=voter), VoteForHost(seat=None)
    since = presence.away_since(host)
    if since is None:
        presence.leave(host, now)
        return None
    if now - max(since, state.started_at) < state.ruleset.profile.host_role.takeover_after:
        if rng.random() < 0.2:
            presence.back()
        return None
    return _host_vote(state, rng, voter, host, since)


def key_change(state: CourtState, rng: random.Random, digest: str) -> Move:
    """A person's key (server/mykey.py) gathers a token the game opens, a link among them, and
    hands out a link with the digest `digest`; or the key service lets a standing link go."""
    numbers = sorted(k.number for k in state.links.by_token.values())
    if numbers and rng.random() < 0.4:
        reason = rng.choice(list(LinkEnd))
        return SPECTATOR, DropSeatLink(link=rng.choice(numbers), reason=reason)
    token = rng.choice(sorted(tokens_in_use(state)))
    actor = actor_of(state, token)
    assert actor is not None, "a token in use stands for someone"
    return actor, AddSeatLink(link_sha256=digest)


def _voter(state: CourtState, rng: random.Random, others: Sequence[Seat]) -> Seat:
    silent = [s for s in others if s not in state.host_votes]
    return Seat(rng.choice(silent if silent and rng.random() < LEANING else others))


def _host_vote(
    state: CourtState, rng: random.Random, voter: Seat, host: Seat, since: float
) -> Move | None:
    """A vote for a seat the voter has not already voted for since the host left; a table
    agrees on its new host more often than not: the seat most voted for already."""
    counted = {v: h.seat for v, h in state.host_votes.items() if h.at is not None and h.at >= since}
    choices = sorted(s for s in state.seats if s != host and counted.get(voter) != s)
    if not choices:
        return None
    voted = [s for s in counted.values() if s in choices]
    if voted and rng.random() < LEANING:
        return Actor(seat=voter), VoteForHost(seat=max(sorted(set(voted)), key=voted.count))
    return Actor(seat=voter), VoteForHost(seat=rng.choice(choices))
