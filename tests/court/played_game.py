"""A game of 3 played to its end, each event whose shape changed recorded at least once: for
the tests of old shapes, snapshots and upcasters."""

from __future__ import annotations

from court.commands import (
    AcceptTitle,
    EmbraceRhllor,
    Pass,
    RecordVillageControl,
    StandForElection,
)
from court.events import (
    Event,
    GameEnded,
    SeptBuilt,
    TitleGranted,
)
from court.ids import HouseId, NobleId, TitleId, VillageId
from tests.court.given import Table, seat, started, table_step
from tests.court.moments import NORTH, ballot


def played_to_the_end() -> list[Event]:
    """A game of 3 with each changed event once at least: round 1's income (R-4.5); round 2's
    embrace of R'hllor by Eddard, Protector, pillaging the Sept of Winterfell (R-6.2); the
    Warden of the North elected, Robb 4 votes to Jaime's 1 (R-7.1); and Stark's 3 VP ending
    the game in phase 8 (R-4.7)."""
    table = Table(*started(3))
    table.add(TitleGranted(title=TitleId("protector"), noble=NobleId("eddard-stark"), cause="t"))
    for village, house in [(v, "stark") for v in NORTH[:3]] + [(NORTH[3], "lannister")]:
        table.act(RecordVillageControl(village=village, house=house, cause="battle"))
    table.add(SeptBuilt(village=VillageId("winterfell"), house=HouseId("stark")))
    start = table.state.round
    while table.state.round == start:
        table.add(*table_step(table.state))
    while table.state.decree is not None and table.state.decree.id != "false_idols":
        table.act(Pass(), seat(table.state.decree.current))
    table.act(EmbraceRhllor(), seat(0))
    while table.state.decree is not None:
        table.act(Pass(), seat(table.state.decree.current))
    table.act(StandForElection(noble=NobleId("jaime-lannister")), seat(1))
    table.act(Pass(), seat(2))
    table.act(StandForElection(noble=NobleId("robb-stark")), seat(0))
    table.act(ballot(("for", "jaime-lannister"), salt="l"), seat(1))
    table.act(ballot(("for", "robb-stark"), ("decoy", "jaime-lannister"), salt="s"), seat(0))
    table.act(AcceptTitle(), seat(0))
    for title, noble in (
        ("fief-winterfell", "robb-stark"),
        ("fief-the-eyrie", "bran-stark"),
        ("king", "eddard-stark"),
    ):
        table.add(TitleGranted(title=TitleId(title), noble=NobleId(noble), cause="t"))
    while not any(isinstance(e, GameEnded) for e in table.events):
        table.add(*table_step(table.state))
    return table.events
