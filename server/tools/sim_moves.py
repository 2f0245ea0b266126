"""How a simulated player picks a move among those `rules.legal_commands` lists, and the seats
changing hands around a table (section 10): no rule is played that a table would not play.

A move is picked in two draws: a kind of move of one player (weighted as a table plays: a
Brother seldom breaks his oath, a ransom is offered now and then, a vote to end the game is
seldom cast and mostly taken back unless the table has tired of its game), then one move of
that kind, with a table's leanings (a King is married when he can be, the Hand sends a Lord to
the Wall who takes the black, the seats mostly accept the host's correction). Drawing the kind
first keeps a step with forty possible marriages from drowning its pass, and the leanings let
long runs reach the rules that hang on them: Lord Commander ballots (R-7.3), Queens made by a
King's marriage (R-3.8) and corrections made (R-9.1).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from court.commands import (
    SPECTATOR,
    Actor,
    AddSeatLink,
    AnswerCorrection,
    ClaimSeat,
    Command,
    DropSeatLink,
    HandHost,
    HandSeat,
    ProposeMarriage,
    SendToWall,
    VoteForHost,
    VoteToEnd,
)
from court.decide.outlaws import takes_the_black
from court.ids import KING, Seat
from court.model.links import LinkEnd
from court.model.tokens import actor_of, tokens_in_use
from court.state import CourtState
from server.tools.sim_table import SimPresence

# Weight of a kind of move against 1 for any other kind, per player who may make it.
KIND_WEIGHTS = {
    "Desert": 0.1,  # the Watch fills and elects its Lord Commander
    "OfferRansom": 0.3,
    "WithdrawRansom": 0.3,
    "RefuseTitle": 0.4,  # most win a title to take it
    # The council seat's sale runs beside the purchase turns: a bidder answers it soon, or
    # its deadline closes it with nobody bidding.
    "PlaceBid": 3.0,
    "PassBid": 1.5,
    # A vote to end the game is open all game long: cast now and then and mostly taken back,
    # so that a table that does not tire of its game plays it out.
    "VoteToEnd": 0.01,
    "VoteToEnd(back)": 0.3,
    "WithdrawCorrection": 0.1,  # the host mostly lets the table answer
    # The seats answer the host's correction promptly, often before the step under way moves
    # on: a candidacy a corrected death withdrew comes back only then.
    "AnswerCorrection": 3.0,
}
# A table tired of its game votes to end it (the weight of a vote to end, from its round).
TIRED = {"VoteToEnd": 3.0}
# How often a move of a kind goes to a table's leaning when one is possible.
LEANING = 0.6
# How often a seat that voted for a new host takes the vote back.
WITHDRAWING = 0.3

Move = tuple[Actor, Command]


def kind(command: Command) -> str:
    """A move's kind, as the weights name it: its type, a vote to end taken back apart."""
    if isinstance(command, VoteToEnd) and not command.end:
        return "VoteToEnd(back)"
    return type(command).__name__


def _leaning(state: CourtState, command: Command) -> bool:
    """Whether a table leans to this move: marrying the King (R-3.8), sending to the Wall a
    Lord who takes the black (R-6.4, R-8.3), accepting the host's correction (R-9.1)."""
    if isinstance(command, ProposeMarriage):
        return state.titles.get(KING) in (command.noble, command.to)
    if isinstance(command, SendToWall):
        return takes_the_black(state, command.noble)
    if isinstance(command, AnswerCorrection):
        return command.accept
    return False


def pick(
    state: CourtState, rng: random.Random, moves: Sequence[Move], *, tired: bool = False
) -> Move:
    """A kind of move of one player, weighted (a `tired` table votes to end its game), then
    one move of that kind."""
    kinds: dict[tuple[Actor, str], list[Command]] = {}
    for actor, command in moves:
        kinds.setdefault((actor, kind(command)), []).append(command)
    groups = list(kinds)
    table = {**KIND_WEIGHTS, **TIRED} if tired else KIND_WEIGHTS
    weights = [table.get(name, 1.0) for _, name in groups]
    actor, name = rng.choices(groups, weights=weights)[0]
    commands = kinds[(actor, name)]
    leaning = [c for c in commands if _leaning(state, c)]
    if leaning and rng.random() < LEANING:
        return actor, rng.choice(leaning)
    return actor, rng.choice(commands)


def seat_change(
    state: CourtState, rng: random.Random, presence: SimPresence, now: float
) -> Move | None:
    """A seat handed to a new device, its new player saying his name when he opens the link
    (R-9.2), the host role handed to another seat, a seat's vote for a new host (or its
    withdrawal), or a person's key gathering a token or letting a link go: what moves seats and
    the host role between players and devices during a game; None when nothing is handed or
    voted."""
    host = state.host_seat()
    others = sorted(s for s in state.seats if s != host)
    if host is None or not others:
        return None
    # A seat the bot plays is taken back first, by the page its link opens (sim_bots.returning).
    bots = state.table.bots
    waiting = [s for s in sorted(state.seats) if state.seats[s].unclaimed and s not in bots]
    if waiting and rng.random() < LEANING:
        seat = rng.choice(waiting)
        name = f"{state.seats[seat].player_name[:30]} anew"
        return Actor(seat=seat, host=state.seats[seat].host), ClaimSeat(player_name=name)
    kind = rng.choice(("hand_seat", "hand_host", "link", "link", "vote", "vote", "vote", "vote"))
    if kind == "link":
        return key_change(state, rng)
    hosting = Actor(seat=host, host=True)
    if kind == "hand_seat":
        return hosting, HandSeat(seat=rng.choice(sorted(state.seats)))
    # The host role goes to a player at the table, never to a seat the bot plays.
    heirs = [s for s in others if s not in bots]
    if kind == "hand_host" and heirs:
        return hosting, HandHost(seat=rng.choice(heirs))
    return host_vote(state, rng, presence, now)


def host_vote(
    state: CourtState, rng: random.Random, presence: SimPresence, now: float
) -> Move | None:
    """A present seat's vote for a new host once the host has been away for the profile's
    time (he leaves and comes back as any player does, server/tools/sim_votes.py), or a vote
    taken back; None when there is none to cast."""
    host = state.host_seat()
    counting = state.counting()
    others = [s for s in sorted(counting) if s != host and s not in presence.gone]
    if host is None or not others:
        return None
    silent = [s for s in others if s not in state.host_votes]
    voter = Seat(rng.choice(silent if silent and rng.random() < LEANING else others))
    if voter in state.host_votes and rng.random() < WITHDRAWING:
        return Actor(seat=voter), VoteForHost(seat=None)
    since = presence.away_since(host)
    if since is None:
        return None
    if now - max(since, state.started_at) < state.ruleset.profile.host_role.takeover_after:
        return None
    return _host_vote(state, rng, voter, host, since)


def key_change(state: CourtState, rng: random.Random) -> Move:
    """A person's key (server/service/seat_keys.py) gathers a token the game opens, a link among
    them, and hands out a link (its token drawn by the service); or the key service lets a
    standing link go."""
    numbers = sorted(k.number for k in state.links.by_token.values())
    if numbers and rng.random() < 0.4:
        reason = rng.choice(list(LinkEnd))
        return SPECTATOR, DropSeatLink(link=rng.choice(numbers), reason=reason)
    token = rng.choice(sorted(tokens_in_use(state)))
    actor = actor_of(state, token)
    assert actor is not None, "a token in use stands for someone"
    return actor, AddSeatLink()


def _host_vote(
    state: CourtState, rng: random.Random, voter: Seat, host: Seat, since: float
) -> Move | None:
    """A vote for a seat the voter has not already voted for since the host left, never one
    the bot plays; a table agrees on its new host more often than not: the seat most voted for
    already."""
    counted = {v: h.seat for v, h in state.host_votes.items() if h.at is not None and h.at >= since}
    # Never a seat the bot plays: the host role goes to a player at the table.
    bots = state.table.bots
    choices = sorted(
        s for s in state.seats if s != host and s not in bots and counted.get(voter) != s
    )
    if not choices:
        return None
    voted = [s for s in counted.values() if s in choices]
    if voted and rng.random() < LEANING:
        return Actor(seat=voter), VoteForHost(seat=max(sorted(set(voted)), key=voted.count))
    return Actor(seat=voter), VoteForHost(seat=rng.choice(choices))
