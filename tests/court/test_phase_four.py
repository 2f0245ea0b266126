"""Phase 4 is run by the server (R-4.1): after the council seat sale (R-4.6) each player in turn
order makes his purchases and says he is done; the King may grant one Fief title a round
(R-3.6); the phase ends when everyone is done or at its deadline (R-4.3)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from court.commands import (
    AdvancePhase,
    BuildSept,
    CloseOverdueStep,
    EndPurchases,
    GrantFiefTitle,
    StartGame,
)
from court.decide import decide
from court.errors import CourtError
from court.events import PhaseStarted
from court.events.purchases import FiefGrantedByKing, PurchasesDone, PurchasesTimedOut
from court.ids import NobleId, TitleId
from court.options.legal import legal_commands
from court.state import NobleStatus, Phase
from tests.court.given import (
    HOST,
    created,
    given,
    joined,
    pass_decrees,
    seat,
    then_state,
    when,
)
from tests.court.moments import act, control, next_round
from tests.court.purchase_moments import WINTERFELL, shopping, to_purchases

ROBB, JAIME, EDDARD = NobleId("robb-stark"), NobleId("jaime-lannister"), NobleId("eddard-stark")


def test_the_host_cannot_close_phase_four_the_server_runs_it() -> None:
    """R-4.1: phase 4 ends when every player is done, not when the host closes it."""
    state = shopping(("stark", ("winterfell",)), ("lannister", ("casterly-rock",)))
    assert state.phase is Phase.PURCHASES
    with pytest.raises(CourtError) as err:
        when(state, AdvancePhase(), HOST)
    assert err.value.code == "server_phase"
    assert not any(isinstance(m, AdvancePhase) for m in legal_commands(state, HOST))


def test_purchases_go_in_turn_order_and_the_phase_ends_when_everyone_is_done() -> None:
    """R-4.1 [D]: each player in turn order makes his purchases, then says he is done; a player
    with nothing he could buy is done at once (recorded with why)."""
    state = shopping(("stark", ("winterfell",)), ("lannister", ("casterly-rock",)))
    assert state.purchase_turns is not None and state.purchase_turns.current == 0
    with pytest.raises(CourtError) as err:
        when(state, BuildSept(village="casterly-rock"), seat(1))
    assert err.value.code == "not_your_turn"
    events = when(state, EndPurchases(), seat(0))
    assert events[0] == PurchasesDone(seat=0)
    state = then_state(state, events)
    assert state.purchase_turns is not None and state.purchase_turns.current == 1
    events = when(state, EndPurchases(), seat(1))
    assert PurchasesDone(seat=2, reason="nothing to buy") in events  # Tyrell holds nothing
    assert events[-1] == PhaseStarted(round=1, phase="movement")


def test_purchases_wait_for_the_council_seat_sale() -> None:
    """R-4.6: the sale comes first; what is listed is what is accepted."""
    from tests.court.purchase_moments import sale

    state = sale()
    assert state.auction is not None and state.purchase_turns is None
    with pytest.raises(CourtError) as err:
        when(state, BuildSept(village="winterfell"), seat(0))
    assert err.value.code == "sale_first"
    messages = {type(m).__name__ for m in legal_commands(state, seat(0))}
    # The vote to end the game is open to every seat all game long.
    assert messages <= {"PassBid", "PlaceBid", "VoteToEnd"}


def test_the_purchases_close_at_their_deadline() -> None:
    """R-4.3: at the deadline everyone still to buy is done, recorded as the clock's doing."""
    state = shopping(("stark", ("winterfell",)), ("lannister", ("casterly-rock",)))
    turns = state.purchase_turns
    assert turns is not None
    state = replace(state, purchase_turns=replace(turns, deadline=50.0))
    with pytest.raises(CourtError):
        decide(state, CloseOverdueStep(), seat(2), 49.0)
    events = decide(state, CloseOverdueStep(), seat(2), 50.0)
    assert events[0] == PurchasesTimedOut(seats=(0, 1, 2))
    assert events[-1] == PhaseStarted(round=1, phase="movement")


# -- the King's grant ----------------------------------------------------------------


def test_the_king_grants_a_free_fief_title_to_a_noble_of_another_house() -> None:
    """R-3.6: in phase 4 the King grants a free Fief title, at most one a round, to a Noble
    whose House controls every village of the Fiefdom (R-3.10)."""
    state = shopping(("lannister", WINTERFELL), king="robb-stark")
    grant = GrantFiefTitle(title=TitleId("fief-winterfell"), noble=JAIME)
    assert grant in legal_commands(state, seat(0))
    events = when(state, grant, seat(0))
    assert events[0] == FiefGrantedByKing(seat=0, title="fief-winterfell", noble=JAIME, round=1)
    state = then_state(state, events)
    assert state.titles["fief-winterfell"] == JAIME
    assert not any(isinstance(m, GrantFiefTitle) for m in legal_commands(state, seat(0)))


@pytest.mark.parametrize(
    ("noble", "king_changes", "actor", "code"),
    [
        (ROBB, {}, 0, "cannot_hold"),  # Stark holds none of the Fiefdom
        (JAIME, {}, 1, "not_your_turn"),
        (JAIME, {"outlaw": True}, 0, "king_cannot_grant"),
        (JAIME, {"status": NobleStatus.CAPTIVE, "captor": "tyrell"}, 0, "king_cannot_grant"),
    ],
)
def test_a_grant_the_rules_forbid_is_refused(noble, king_changes, actor, code) -> None:
    """R-3.6, R-3.10: a King in play and no Outlaw; a Noble who could stand for the title."""
    state = shopping(("lannister", WINTERFELL), king="robb-stark")
    state = replace(
        state, nobles={**state.nobles, ROBB: replace(state.nobles[ROBB], **king_changes)}
    )
    with pytest.raises(CourtError) as err:
        when(state, GrantFiefTitle(title=TitleId("fief-winterfell"), noble=noble), seat(actor))
    assert err.value.code == code


def test_the_king_grants_at_most_one_fief_title_a_round() -> None:
    """R-3.6: at most one a round."""
    fiefs = (*WINTERFELL, "pyke", "lordsport")
    state = shopping(
        ("lannister", fiefs), ("stark", ("casterly-rock",)), king="robb-stark"
    )  # Stark could still build a Sept, so his turn goes on
    state = act(state, GrantFiefTitle(title="fief-winterfell", noble=JAIME), seat(0))
    assert state.purchase_turns is not None and state.purchase_turns.current == 0
    with pytest.raises(CourtError) as err:
        when(state, GrantFiefTitle(title="fief-pyke", noble=NobleId("tywin-lannister")), seat(0))
    assert err.value.code == "king_cannot_grant"


def test_several_septs_a_village_when_the_profile_allows_them() -> None:
    """R-4.6 [D] septs_per_village above 1: each Sept pays income and is pillaged."""
    state = given(created(3, purchases__septs_per_village=2), joined(0), joined(1), joined(2))
    state = then_state(state, when(state, StartGame(), HOST))
    state = then_state(state, pass_decrees(state))
    state = to_purchases(control(state, ["winterfell"], "stark"))
    state = act(state, BuildSept(village="winterfell"), seat(0))
    state = act(state, BuildSept(village="winterfell"), seat(0))
    assert state.septs == {"winterfell": 2}
    gold = state.treasury["stark"]
    state = next_round(state)
    while state.phase is not Phase.CARDS:
        state = act(state, AdvancePhase())
    assert to_purchases(state).treasury["stark"] == gold + 3  # the village and two Septs
