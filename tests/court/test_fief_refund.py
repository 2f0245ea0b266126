"""A Fief title bought with the Noble's Fief slots full (R-3.6, R-3.2): his player must then pass
or return one Fief title. When that choice is taken from him (his Noble captured before he
chose, section 9, or the deadline passed, R-4.3), the title bought returns to the board and its
price comes back in the same event, as the fourth council seat's does (R-4.6): nobody pays for
a title he did not choose to give up. Each command is decided with the court's invariants
checked after every event (every Gold Dragon accounted for, R-2.1)."""

from __future__ import annotations

import pytest

from court.commands import (
    Actor,
    BuyFiefTitle,
    CloseOverdueStep,
    Command,
    RecordCapture,
    RecordDeath,
    ResolveTitleOverflow,
)
from court.decide import decide_folded
from court.events import Event, TitleReturned
from court.soundness.invariants import require_sound
from court.state import CourtState, NobleStatus, PendingKind
from tests.court.given import HOST, given, seat, started
from tests.court.moments import control, grant
from tests.court.purchase_moments import WINTERFELL, to_purchases

ROBB, PRICE = "robb-stark", 8


def sound(
    state: CourtState, command: Command, actor: Actor = HOST, now: float = 0.0
) -> tuple[tuple[Event, ...], CourtState]:
    return decide_folded(state, command, actor, now, check=require_sound)


def robb_buys_a_third_fief() -> tuple[CourtState, int]:
    """Phase 4: Robb holds Pyke and Riverrun, Stark holds every village of Winterfell; Stark
    buys Winterfell for Robb, and the game waits for the choice (30 s to make it). The court,
    and Stark's treasury before the purchase."""
    state = given(*started(3, deadlines__title_choice=30))
    state = control(state, WINTERFELL, "stark")
    state = grant(grant(state, "fief-pyke", ROBB), "fief-riverrun", ROBB)
    state = to_purchases(state)
    gold = state.treasury["stark"]
    _, state = sound(state, BuyFiefTitle(title="fief-winterfell", noble=ROBB), seat(0))
    assert state.pending is not None and state.pending.kind is PendingKind.OVERFLOW
    assert state.pending.price == PRICE and state.treasury["stark"] == gold - PRICE
    return state, gold


def test_a_capture_before_the_choice_returns_the_title_bought_with_its_price() -> None:
    """Section 9, R-3.6: given Robb waiting for his player's choice after the purchase, when
    he is captured, then Winterfell returns to the board and Stark gets its 8 GD back in the
    same event; Robb keeps Pyke and Riverrun (a captive keeps his titles, R-8.1)."""
    state, gold = robb_buys_a_third_fief()

    events, state = sound(state, RecordCapture(noble=ROBB, house="lannister", cause="the Twins"))

    returned = [e for e in events if isinstance(e, TitleReturned)]
    assert [(e.title, e.refund) for e in returned] == [("fief-winterfell", PRICE)]
    assert state.treasury["stark"] == gold and state.pending is None
    assert set(state.titles_of(ROBB)) == {"fief-pyke", "fief-riverrun"}
    assert state.nobles[ROBB].status is NobleStatus.CAPTIVE


def test_the_deadline_of_the_choice_returns_the_title_bought_with_its_price() -> None:
    """R-4.3, R-3.6: given the choice open until 30 s, when it closes unmade, then the title
    that came returns to the board with its price."""
    state, gold = robb_buys_a_third_fief()

    events, state = sound(state, CloseOverdueStep(), seat(1), now=31.0)

    returned = [e for e in events if isinstance(e, TitleReturned)]
    assert [(e.title, e.refund) for e in returned] == [("fief-winterfell", PRICE)]
    assert state.treasury["stark"] == gold and "fief-winterfell" not in state.titles


@pytest.mark.parametrize(
    "choice",
    [
        ResolveTitleOverflow(title="fief-winterfell", to=None),
        ResolveTitleOverflow(title="fief-pyke", to=None),
    ],
    ids=["the-title-bought", "another"],
)
def test_a_title_his_player_returns_himself_keeps_its_price_paid(choice) -> None:
    """R-3.2: the player who chooses to return a Fief title, the one bought included, got what
    he paid for: the choice was his."""
    state, gold = robb_buys_a_third_fief()

    events, state = sound(state, choice, seat(0))

    assert [e.refund for e in events if isinstance(e, TitleReturned)] == [0]
    assert state.treasury["stark"] == gold - PRICE


def test_a_death_before_the_choice_returns_every_title_and_keeps_the_price_paid() -> None:
    """R-1.4: the title was his; a death returns every title, as it would have after the
    choice."""
    state, gold = robb_buys_a_third_fief()

    events, state = sound(state, RecordDeath(noble=ROBB, kind="battle", cause="the Twins"))

    assert all(e.refund == 0 for e in events if isinstance(e, TitleReturned))
    assert state.treasury["stark"] == gold - PRICE and state.titles_of(ROBB) == ()
