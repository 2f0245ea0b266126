"""Logs of the table deciding together, for the golden fold: a player replaced after his
absence, corrections proposed, answered, withdrawn, refused and made (a death, Gold Dragons),
and the game ended by vote; a death corrected mid-ballot, which gives the candidacy back, and a
correction that lapses when income follows from the village it corrects (R-9.1); seats handed
on afresh and claimed by their new players, and a game ended at its last round (R-9.2, R-4.8)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from court.commands import (
    AcceptTitle,
    AdjustGold,
    AdvancePhase,
    AnswerCorrection,
    ClaimSeat,
    HandSeat,
    MarkerChoice,
    Pass,
    PlaceBallot,
    ProposeCorrection,
    RecordDeath,
    RecordVillageControl,
    StandForElection,
    StartGame,
    VoteToEnd,
    VoteToReplace,
    WithdrawCorrection,
)
from court.events import Event, NobleDied
from court.evolve import replay
from court.ids import HouseId, NobleId, Seat, TitleId, VillageId
from tests.court.given import GAME, HOST, Table, created, joined, pass_decrees, seat


def proposal(table: Table, version: int, **value: Any) -> ProposeCorrection:
    """The host's correction of the record at `version` as the service fills it in from the
    log (server/service/filled_table.py): that record, the one before it, the court before it, every
    record since and the head's version."""
    head = len(table.events)
    cause = value.pop("cause", "misread the battle")
    if not 1 <= version <= head:
        return ProposeCorrection(version=version, cause=cause, head=head, **value)
    first = version == 1
    return ProposeCorrection(
        version=version,
        cause=cause,
        recorded=table.events[version - 1],
        before=None if first else table.events[version - 2],
        court_before=None if first else replay(GAME, table.events[: version - 1]),
        later=tuple(table.events[version:]),
        head=head,
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


def corrections_undone() -> list[Event]:
    """Round 3: Stark's 4 votes on Bran when his death is recorded; its correction gives him
    his candidacy back and he is elected. Then a village is recorded, its correction proposed,
    and the income paid for it makes the correction lapse."""
    host = seat(0, host=True)
    table = Table(created(3), joined(0, host=True), joined(1), joined(2))
    table.act(StartGame(), host, now=1000.0)
    table.add(*pass_decrees(table.state))
    table.next_round()
    north = ("winterfell", "white-harbor", "the-dreadfort", "moat-cailin")
    for village, house in zip(north, ("stark", "stark", "stark", "lannister"), strict=True):
        table.act(
            RecordVillageControl(village=VillageId(village), house=HouseId(house), cause="war")
        )
    table.next_round()
    bran = NobleId("bran-stark")
    table.act(Pass(), seat(2))
    table.act(StandForElection(noble=bran), seat(0))
    table.act(StandForElection(noble=NobleId("kevan-lannister")), seat(1))
    table.act(PlaceBallot(markers=(MarkerChoice(kind="for", candidate=bran, salt="s"),)), seat(0))
    table.act(RecordDeath(noble=bran, kind="battle", cause="fell at the Fords"), HOST)
    died = max(i for i, e in enumerate(table.events, 1) if isinstance(e, NobleDied))
    table.act(proposal(table, died), host)
    table.act(AnswerCorrection(accept=True), seat(2))
    kevan = MarkerChoice(kind="for", candidate=NobleId("kevan-lannister"), salt="t")
    table.act(PlaceBallot(markers=(kevan,)), seat(1))
    table.act(AcceptTitle(), seat(0))
    assert table.state.titles.get(TitleId("warden-north")) == bran
    table.act(
        RecordVillageControl(village=VillageId("the-eyrie"), house=HouseId("tyrell"), cause="war")
    )
    table.act(proposal(table, len(table.events), house=HouseId("lannister")), host)
    while table.state.table.correction is not None:
        table.act(AdvancePhase(), HOST)
    return table.events
