"""Courts brought to a moment of play for engine tests: villages given, rounds passed, titles
granted, ballots made and the North's election run."""

from __future__ import annotations

from dataclasses import replace

from court.commands import (
    MarkerChoice,
    Pass,
    PlaceBallot,
    RecordVillageControl,
    StandForElection,
)
from court.events import (
    TitleGranted,
)
from court.evolve import evolve
from court.ids import NobleId, TitleId
from court.state import CourtState, NobleStatus, Stage
from tests.court.given import (
    HOST,
    given,
    pass_decrees,
    seat,
    started,
    table_step,
    then_state,
)

NORTH = ("winterfell", "white-harbor", "the-dreadfort", "moat-cailin")


def act(state: CourtState, command, actor=HOST, now: float = 0.0) -> CourtState:
    return then_state(state, when_at(state, command, actor, now))


def when_at(state, command, actor, now):
    from court.decide import decide

    return decide(state, command, actor, now)


def control(state: CourtState, villages, house: str) -> CourtState:
    for village in villages:
        state = act(state, RecordVillageControl(village=village, house=house, cause="battle"))
    return state


def next_round(state: CourtState, now: float = 0.0) -> CourtState:
    """The host closes phases 2, 5, 6 (and 7): income is paid, and a new round begins.
    Everyone passes in a sale of the fourth council seat and is done with his purchases
    (R-4.1, R-4.6)."""
    start = state.round
    while state.round == start:
        state = then_state(state, table_step(state, now))
    return then_state(state, pass_decrees(state, now))


def grant(state: CourtState, title: str, noble: str) -> CourtState:
    return evolve(state, TitleGranted(title=TitleId(title), noble=NobleId(noble), cause="test"))


def noble(state: CourtState, noble_id: str, **changes) -> CourtState:
    nobles = {**state.nobles, noble_id: replace(state.nobles[noble_id], **changes)}
    return replace(state, nobles=nobles)


def north_for_stark() -> CourtState:
    """Round 2 of a 3-player game (Stark 0, Lannister 1, Tyrell 2); Stark holds the North."""
    return next_round(control(given(*started(3)), NORTH, "stark"))


def ballot(*markers: tuple[str, str], salt: str = "s") -> PlaceBallot:
    return PlaceBallot(
        markers=tuple(
            MarkerChoice(kind=kind, candidate=NobleId(c), salt=f"{salt}{i}")
            for i, (kind, c) in enumerate(markers)
        )
    )


def run_north_election(state: CourtState, *placements) -> CourtState:
    state = act(state, StandForElection(noble=NobleId("jaime-lannister")), seat(1))
    state = act(state, Pass(), seat(2))
    state = act(state, StandForElection(noble=NobleId("robb-stark")), seat(0))
    for s, command in placements:
        state = act(state, command, seat(s))
    return state


ROBB, JAIME = NobleId("robb-stark"), NobleId("jaime-lannister")


def two_voters() -> CourtState:
    """Round 2 of a 3-player game: Stark holds three villages of the North, Lannister one, so
    both vote for the Warden of the North; candidacy runs Lannister, Tyrell, Stark."""
    state = control(control(given(*started(3)), NORTH[:3], "stark"), NORTH[3:], "lannister")
    state = next_round(state)
    assert state.election is not None and state.election.id == "warden-north"
    return state


def ballot_open() -> CourtState:
    state = act(two_voters(), StandForElection(noble=JAIME), seat(1))
    state = act(state, Pass(), seat(2))
    state = act(state, StandForElection(noble=ROBB), seat(0))
    assert state.election is not None and state.election.stage is Stage.BALLOT
    assert state.election.order == (1, 0)
    return state


CAPTIVE = {"status": NobleStatus.CAPTIVE}


def captives() -> CourtState:
    """Round 1, cards phase, Stark 0, Lannister 1, Tyrell 2, 10 GD each. Lannister holds Robb
    Stark; Stark holds Tyrion Lannister and Loras Tyrell."""
    state = given(*started(3))
    state = noble(state, "robb-stark", **CAPTIVE, captor="lannister")
    state = noble(state, "tyrion-lannister", **CAPTIVE, captor="stark")
    return noble(state, "loras-tyrell", **CAPTIVE, captor="stark")
