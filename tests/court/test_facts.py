"""Recorded facts about Gold Dragons (R-2.1, section 9)."""

from __future__ import annotations

import pytest

from court.commands import SPECTATOR, AdjustGold
from court.errors import CourtError, NotAllowed
from court.events import GoldAdjusted
from tests.court.given import HOST, given, lobby, seat, started, then_state, when


def test_the_host_records_gold_won_outside_the_court() -> None:
    state = given(*started(3))
    events = when(state, AdjustGold(house="lannister", amount=5, cause="  card:  Tax  "))
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
