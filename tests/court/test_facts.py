"""Recorded facts about Gold Dragons (R-2.1, section 9)."""

from __future__ import annotations

import dataclasses

import pytest

from court.commands import SPECTATOR, Actor, AdjustGold, AdvancePhase
from court.decide import decide
from court.errors import CourtError, NotAllowed
from court.events import FactRecorded, GoldAdjusted
from tests.court.given import HOST, given, lobby, seat, started, then_state, when, when_fact

MASTER = Actor(master=True)


def test_the_host_records_gold_won_outside_the_court() -> None:
    state = given(*started(3))
    events = when_fact(state, AdjustGold(house="lannister", amount=5, cause="  card:  Tax  "))
    assert events == (GoldAdjusted(house="lannister", amount=5, cause="card: Tax"),)
    assert then_state(state, events).treasury["lannister"] == 15


def test_a_treasury_can_never_go_below_zero() -> None:
    """R-2.1: a payment the House cannot afford is refused."""
    state = given(*started(3))
    assert when(state, AdjustGold(house="stark", amount=-10, cause="ransom"))
    with pytest.raises(CourtError) as err:
        when(state, AdjustGold(house="stark", amount=-11, cause="ransom"))
    assert err.value.code == "treasury_too_low"
    assert "R-2.1" in err.value.message


@pytest.mark.parametrize("actor", [SPECTATOR, seat(0), seat(2)])
def test_only_the_host_records_facts(actor) -> None:
    with pytest.raises(NotAllowed):
        when(given(*started(3)), AdjustGold(house="stark", amount=1, cause="x"), actor)


@pytest.mark.parametrize(
    ("command", "code"),
    [
        (AdjustGold(house="martell", amount=1, cause="x"), "unknown_house"),
        (AdjustGold(house="stark", amount=0, cause="x"), "zero_amount"),
        (AdjustGold(house="stark", amount=1, cause="   "), "bad_cause"),
        (AdjustGold(house="stark", amount=1, cause="x" * 121), "bad_cause"),
    ],
)
def test_an_impossible_gold_fact_is_refused(command, code) -> None:
    with pytest.raises(CourtError) as err:
        when(given(*started(3)), command, HOST)
    assert err.value.code == code


def test_no_gold_moves_before_the_game_starts() -> None:
    with pytest.raises(CourtError) as err:
        when(given(*lobby(3)), AdjustGold(house="stark", amount=1, cause="x"))
    assert err.value.code == "game_lobby"


def test_a_game_master_named_at_creation_records_a_fact_in_his_name() -> None:
    """Section 9: the host, or a game master named at creation, records facts."""
    created, *rest = started(3)
    named = dataclasses.replace(
        created, game_master_name="Aemon", game_master_token_sha256="m" * 64
    )
    state = given(named, *rest)

    events = decide(state, AdjustGold(house="stark", amount=2, cause="card"), MASTER)

    assert events == (
        FactRecorded(fact="gold", by="game_master", name="Aemon"),
        GoldAdjusted(house="stark", amount=2, cause="card"),
    )


def test_the_host_is_named_as_the_recorder_of_his_facts() -> None:
    state = given(*started(3))
    events = decide(state, AdjustGold(house="stark", amount=2, cause="card"), HOST)
    assert events[0] == FactRecorded(fact="gold", by="host", name="Hostess")


def test_a_game_master_does_not_run_the_table() -> None:
    """R-4.1: only the host advances phases; the game master records facts only."""
    with pytest.raises(NotAllowed) as err:
        when(given(*started(3)), AdvancePhase(), MASTER)
    assert err.value.code == "host_only"
