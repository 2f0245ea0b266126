"""A log of the table deciding together, for the golden fold: a player replaced after his
absence, corrections proposed, answered, withdrawn, refused and made (a death, Gold Dragons),
and the game ended by vote."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from court.commands import (
    AdjustGold,
    AnswerCorrection,
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
