"""Logs of the table deciding together, for the golden fold: a player replaced after his
absence, corrections proposed, answered, withdrawn, refused and made (a death, Gold Dragons),
and the game ended by vote; seats handed on afresh and claimed by their new players, and a game
ended at its last round (R-9.2, R-4.8)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from court.commands import (
    AdjustGold,
    AnswerCorrection,
    ClaimSeat,
    HandSeat,
    Pass,
    ProposeCorrection,
    RecordDeath,
    StartGame,
    VoteToEnd,
    VoteToReplace,
    WithdrawCorrection,
)
from court.events import Event
from court.evolve import replay
from court.ids import HouseId, NobleId, Seat
from tests.court.given import GAME, Table, created, joined, seat


def proposal(table: Table, version: int, **value: Any) -> ProposeCorrection:
    """The host's correction of the record at `version` as the service fills it in from the
    log: that record, the one before it, and the Noble it names as he stood before it."""
    recorded = table.events[version - 1]
    noble = getattr(recorded, "noble", None)
    before = replay(GAME, table.events[: version - 1]).nobles.get(noble) if noble else None
    return ProposeCorrection(
        version=version,
        cause=value.pop("cause", "misread the battle"),
        recorded=recorded,
        before=table.events[version - 2],
        noble_before=before,
        **value,
    )


def table_decides() -> list[Event]:
    host = seat(0, host=True)
    table = Table(
        created(4, table_votes__replace_after=600),
        joined(0, host=True),
        *(joined(i) for i in range(1, 4)),
    )
    table.act(StartGame(), host, now=1000.0)
    away = VoteToReplace(seat=Seat(3), away_since=1100.0, token_sha256="r" * 64)
    table.act(away, seat(1), now=1800.0)
    table.act(away, seat(2), now=1810.0)
    table.act(replace(away, at_version=len(table.events) + 1), host, now=1820.0)
    table.act(AdjustGold(house=HouseId("stark"), amount=5, cause="won a battle"), host)
    gold = len(table.events)
    table.act(proposal(table, gold, amount=3), host)
    table.act(WithdrawCorrection(), host)
    table.act(proposal(table, gold, amount=2), host)
    table.act(AnswerCorrection(accept=False), seat(1))
    table.act(AnswerCorrection(accept=False), seat(2))
    noble = NobleId("jaime-lannister")
    table.act(RecordDeath(noble=noble, kind="battle", cause="fell at the Fords"), host)
    table.act(proposal(table, len(table.events)), host)
    table.act(AnswerCorrection(accept=True), seat(1))
    table.act(AnswerCorrection(accept=True), seat(2))
    table.act(VoteToEnd(), seat(1))
    table.act(VoteToEnd(end=False), seat(1))
    table.act(VoteToEnd(), seat(1))
    table.act(VoteToEnd(), seat(2))
    table.act(VoteToEnd(), seat(3))
    assert table.state.status.value == "ended"
    return table.events


def seats_afresh() -> list[Event]:
    """A game of 4 with clocks and a last round of 1 (R-4.8): seat 1 votes to end the game and
    is handed to Eve while his decree clock runs, which drops his vote and gives her full
    banks; she claims the seat; seat 3 is replaced by the table and its new player claims it
    as Mallory (R-9.2); a quiet table plays to round 1's victory check, where the most VP
    win."""
    from tests.court.given import table_step

    host = seat(0, host=True)
    table = Table(
        created(
            4,
            variants__clocks=True,
            clocks__decree=300,
            victory__last_round=1,
            table_votes__replace_after=600,
        ),
        joined(0, host=True),
        *(joined(i) for i in range(1, 4)),
    )
    table.act(StartGame(), host, now=1000.0)
    table.act(VoteToEnd(), seat(1), now=1001.0)
    table.act(Pass(), host, now=1010.0)
    handed = HandSeat(seat=Seat(1), token_sha256="e" * 64, player_name="Eve")
    table.act(replace(handed, at_version=len(table.events) + 1), host, now=1100.0)
    table.act(ClaimSeat(player_name="Eve"), seat(1), now=1200.0)
    away = VoteToReplace(seat=Seat(3), away_since=1001.0, token_sha256="r" * 64)
    table.act(away, seat(1), now=1700.0)
    table.act(replace(away, at_version=len(table.events) + 1), host, now=1710.0)
    table.act(ClaimSeat(player_name="Mallory"), seat(3), now=1720.0)
    while table.state.status.value == "playing":
        state = table.state
        if state.decree is not None and state.decree.current is not None:
            table.act(Pass(), seat(state.decree.current), now=1800.0)
        elif state.election is not None and state.election.current is not None:
            table.act(Pass(), seat(state.election.current), now=1800.0)
        else:
            table.add(*table_step(state, 1800.0))
    return table.events
