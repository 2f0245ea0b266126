"""Every move the court view lists is a Socket.IO message the server takes as it is listed:
its payload passes the message's schema and builds back the very command (R-4.2, section 10:
what can I do now)."""

from __future__ import annotations

import contextlib
import random

import pytest

from court.commands import Actor, PlaceBallot, PlaceBid, RecordVillageControl, StartGame
from court.decide import table_votes
from court.errors import CourtError
from court.ids import Seat
from court.options.legal import legal_commands
from court.state import GameStatus
from server.messages.catalogue import CATALOGUE, move_view
from tests.court.given import actors, drawn, given, lobby
from tests.court.moments import act


def check(move, payload_view: dict) -> None:
    message, payload = payload_view["message"], payload_view["payload"]
    if message in ("place_ballot", "place_bid"):  # the service adds the salts
        body = CATALOGUE[message].load(payload)
        if isinstance(move, PlaceBallot):
            assert [(m["kind"], m["candidate"]) for m in body["markers"]] == [
                (m.kind, m.candidate) for m in move.markers
            ]
        else:
            assert isinstance(move, PlaceBid) and body["amount"] == move.amount
        return
    body = CATALOGUE[message].load(payload)
    assert CATALOGUE[message].to_command(body) == move, (message, payload)


@pytest.mark.parametrize(("players", "seed"), [(3, 11), (4, 12), (5, 13), (6, 14)])
def test_every_listed_move_is_a_message_the_server_takes_as_listed(players, seed) -> None:
    rng = random.Random(seed)
    state = given(*lobby(players))
    host = Actor(seat=Seat(0), host=True)
    start = next(m for m in legal_commands(state, host) if isinstance(m, StartGame))
    check(start, move_view(start))
    state = act(state, start, host)
    checked = set()
    for _ in range(300):
        if state.status is not GameStatus.PLAYING:
            break
        if rng.random() < 0.2:  # the host records who holds a village (section 9)
            village = rng.choice(state.ruleset.villages).id
            house = rng.choice([info.house for info in state.seats.values()])
            fact = RecordVillageControl(village=village, house=house, cause="battle")
            with contextlib.suppress(CourtError):  # the same holder again changes nothing
                state = act(state, fact, host)
        moves = [(a, m) for a in actors(state) for m in legal_commands(state, a)]
        for _actor, move in moves:
            check(move, move_view(move))
            checked.add(type(move).__name__)
        # The table's votes are checked as listed but not played: a vote to end the game is
        # always listed and would end the walk before the steps it is here for.
        actor, move = rng.choice(
            [(a, m) for a, m in moves if not isinstance(m, table_votes.LISTED)]
        )
        state = act(state, drawn(move), actor)
    assert {"Pass", "StandForElection", "PlaceBallot", "AdvancePhase", "VoteToEnd"} <= checked
