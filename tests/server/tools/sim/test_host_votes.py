"""The simulator's votes for a new host (server/tools/sim_moves.py): a listed move the court must
take, so never one the rules refuse, such as the host role for a seat the bot plays (R-9.2)."""

from __future__ import annotations

import random

from court.commands import VoteToReplace
from court.decide.bots import require_mover
from court.ids import Seat
from server.tools.sim_moves import _host_vote
from tests.court.given import seat
from tests.court.table_votes_given import AWAY, HOST_SEAT, LATER, NEW, table

GONE = Seat(3)


def test_a_simulated_vote_for_a_new_host_never_names_a_seat_the_bot_plays() -> None:
    # Given four seats, the bot playing seat 3 (seats 1 and 2 voted it in)
    court = table(4)
    for voter in (1, 2):
        vote = VoteToReplace(seat=GONE, bot=True, away_since=AWAY, token_sha256=NEW, at_version=50)
        court.act(vote, seat(voter), LATER + voter)
    assert GONE in court.state.table.bots
    host = court.state.host_seat()
    assert host == HOST_SEAT.seat
    # When seat 1 votes for a new host, under many seeds
    named = set()
    for seed in range(200):
        move = _host_vote(court.state, random.Random(seed), Seat(1), host, AWAY)
        assert move is not None
        actor, command = move
        named.add(command.seat)
        # Then the rule of who may be named takes every vote it makes
        require_mover(court.state, command, actor)
    # And the bot's seat is never among the seats named
    assert GONE not in named and named
