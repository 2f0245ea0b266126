"""Courts brought to phase 4 for engine tests: purchases open, a sale of the fourth council
seat under way, villages and gold given."""

from __future__ import annotations

from dataclasses import replace

from court.commands import (
    AdvancePhase,
)
from court.decide import decide, settle
from court.events import Event, TitleGranted
from court.evolve import replay
from court.ids import NobleId, TitleId
from court.state import CourtState, Phase
from tests.court.given import (
    GAME,
    HOST,
    created,
    given,
    pass_decrees,
    started,
    then_state,
)
from tests.court.moments import act, control, grant

WINTERFELL = ("winterfell", "white-harbor", "the-dreadfort", "moat-cailin")


def to_purchases(state: CourtState, now: float = 0.0) -> CourtState:
    """From the cards phase: income is paid and phase 4 begins (R-4.1, R-4.5)."""
    assert state.phase is Phase.CARDS
    return act(state, AdvancePhase(), HOST, now)


def with_gold(state: CourtState, house: str, amount: int) -> CourtState:
    return replace(state, treasury={**state.treasury, house: amount})


def wardens(state: CourtState, *pairs: tuple[str, str]) -> CourtState:
    for title, lord in pairs:
        state = grant(state, title, lord)
    return state


def sale(now: float = 0.0, **deadlines: int) -> CourtState:
    """Phase 4 with Stark (Robb, Warden of the North) and Lannister (Jaime, Warden of the
    West) in the sale; Tyrell has no Warden. Each House holds 10 GD."""
    state = given(*sale_events(now, **deadlines))
    assert state.auction is not None
    return state


def sale_events(now: float = 0.0, **deadlines: int) -> tuple[Event, ...]:
    """The events that lead to `sale()`'s court."""
    events = started(3)
    if deadlines:
        before = (
            created(3, **{f"deadlines__{k}": v for k, v in deadlines.items()}),
            *events[1:4],
        )
        events = (*before, *settle(replay(GAME, before), events[4:6], 0.0))
        events = (*events, *pass_decrees(replay(GAME, events)))
    events += tuple(
        TitleGranted(title=TitleId(title), noble=NobleId(lord), cause="test")
        for title, lord in (("warden-north", "robb-stark"), ("warden-west", "jaime-lannister"))
    )
    return (*events, *decide(given(*events), AdvancePhase(), HOST, now))


def three_wardens_two_free_masters() -> CourtState:
    """Phase 4 of a 3-player game: Robb (Stark), Jaime (Lannister) and Mace (Tyrell) are
    Wardens off the council; Tywin and Garlan are Wardens holding Master of Ships and of
    Whisperers, so Coin and Laws are free. Each House holds 10 GD; the sale is open."""
    state = given(*started(3))
    for title, lord in (
        ("warden-north", "robb-stark"),
        ("warden-west", "jaime-lannister"),
        ("warden-south", "mace-tyrell"),
        ("warden-east", "tywin-lannister"),
        ("master-of-ships", "tywin-lannister"),
        ("warden-crownlands", "garlan-tyrell"),
        ("master-of-whisperers", "garlan-tyrell"),
    ):
        state = grant(state, title, lord)
    state = to_purchases(state)
    assert state.auction is not None and state.auction.order == (0, 1, 2)
    return state


def shopping(*holdings: tuple[str, tuple[str, ...]], king: str | None = None) -> CourtState:
    """Round 1 of a 3-player game (Stark 0, Lannister 1, Tyrell 2) at the start of the purchase
    turns; each House holds the villages given, and `king` wears the crown."""
    state = given(*started(3))
    for house, villages in holdings:
        state = control(state, villages, house)
    if king is not None:
        state = then_state(
            state, (TitleGranted(title=TitleId("king"), noble=NobleId(king), cause="test"),)
        )
    return to_purchases(state)
