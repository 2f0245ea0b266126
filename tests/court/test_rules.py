"""`legal_commands` says what each seat may do now: `decide` accepts every move it lists and
refuses moves it does not list (R-4.2, R-7.1, R-5.1, R-6, R-4.6, R-8.2)."""

from __future__ import annotations

import contextlib
import random

import pytest

from court.commands import (
    Actor,
    AdvancePhase,
    BuildSept,
    Pardon,
    Pass,
    ProposeMarriage,
    RecordVillageControl,
    SendToWall,
    StandForElection,
    StartGame,
)
from court.decide import decide, table_votes
from court.errors import CourtError
from court.ids import NobleId, Seat, VillageId
from court.options.legal import legal_commands
from court.state import CourtState, GameStatus
from tests.court.given import HOUSES, actors, drawn, given, lobby
from tests.court.moments import act


def stray_moves(state: CourtState, rng: random.Random) -> list:
    """Moves drawn at random from the whole space, legal or not."""
    nobles = list(state.nobles)
    villages = [v.id for v in state.ruleset.villages]
    return [
        Pass(),
        AdvancePhase(),
        StandForElection(noble=NobleId(rng.choice(nobles))),
        ProposeMarriage(noble=NobleId(rng.choice(nobles)), to=NobleId(rng.choice(nobles))),
        SendToWall(noble=NobleId(rng.choice(nobles))),
        Pardon(noble=NobleId(rng.choice(nobles))),
        BuildSept(village=VillageId(rng.choice(villages))),
    ]


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2), (5, 3), (6, 4), (4, 5)])
def test_decide_accepts_every_listed_move_and_refuses_the_rest(players: int, seed: int) -> None:
    rng = random.Random(seed)
    host = Actor(seat=Seat(0), host=True)
    state = given(*lobby(players))
    assert StartGame() in legal_commands(state, host)
    state = act(state, StartGame(), host)
    listed_total = refused_total = 0
    for _ in range(250):
        if state.status is not GameStatus.PLAYING:
            break
        if rng.random() < 0.15:  # the host records who holds a village (section 9)
            village = rng.choice(state.ruleset.villages).id
            house = rng.choice([*HOUSES[:players], None])
            fact = RecordVillageControl(village=village, house=house, cause="battle")
            with contextlib.suppress(CourtError):  # the same holder again changes nothing
                state = act(state, fact, host)
        moves = []
        for actor in actors(state):
            listed = legal_commands(state, actor)
            for move in listed:
                decide(state, drawn(move), actor)  # raises if the rules refuse a listed move
            listed_total += len(listed)
            # A vote to end the game is always open and would end most games here at once.
            moves += [(actor, m) for m in listed if not isinstance(m, table_votes.LISTED)]
            for move in stray_moves(state, rng):
                if move not in listed:
                    with pytest.raises(CourtError):
                        decide(state, move, actor)
                    refused_total += 1
        assert moves, "a running game always offers someone a move"
        actor, move = rng.choice(moves)
        state = act(state, drawn(move), actor)
    assert listed_total > 200 and refused_total > 200


def test_the_game_master_is_offered_no_seat_in_the_lobby() -> None:
    """Section 9: the game master takes no seat; a spectator may take one."""
    state = given(*lobby(3, seated=1))
    assert legal_commands(state, Actor(master=True)) == []
    assert legal_commands(state, Actor())
