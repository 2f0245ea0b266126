"""The round (R-4.1 to R-4.4, R-6.1, R-7.5): the order of the phase-1 steps, the First
Player marker, the Gods-cursed rolls before phase 1, and titles held for life."""

from __future__ import annotations

from dataclasses import replace

from court.commands import AdvancePhase
from court.decide import decide, settle
from court.events import (
    DecreeStepOpened,
    DecreeStepSkipped,
    DieRolled,
    ElectionOpened,
    ElectionSkipped,
    GameStarted,
    NobleDied,
    RoundStarted,
)
from court.evolve import replay
from court.ids import NobleId, Seat
from court.model import dice
from court.model.ruleset import Attribute
from court.state import CourtState
from tests.court.given import (
    GAME,
    HOST,
    SEED,
    created,
    given,
    joined,
    pass_decrees,
    started,
    table_step,
    then_state,
)

# 1.1.1 to 1.1.5, 1.2.1, 1.2.2, 1.3 (regions 1 to 5), 1.4, 1.5.
STEP_ORDER = [
    "marriages",
    "false_idols",
    "royal_pardon",
    "send_to_wall",
    "title_concession",
    "oathbreakers",
    "lord-commander",
    "warden-north",
    "warden-east",
    "warden-crownlands",
    "warden-south",
    "warden-west",
    "hand",
    "king",
]


def step_of(event) -> str | None:
    match event:
        case DecreeStepOpened() | DecreeStepSkipped():
            return event.step
        case ElectionOpened() | ElectionSkipped():
            return event.title
    return None


def test_phase_one_runs_every_step_in_the_order_of_r_4_2() -> None:
    """R-4.2, R-6.1: decrees in order, then the elections; each skip is recorded with a reason."""
    before = (created(4, variants__nights_watch=True), *(joined(i) for i in range(4)))
    start = (GameStarted(seat_order=tuple(Seat(i) for i in range(4)), first_player=Seat(0)),)

    events = settle(
        replay(GAME, before), (*start, RoundStarted(round=1, first_player=Seat(0))), 0.0
    )

    steps = [s for s in map(step_of, events) if s is not None]
    # The marriages step opens (every player has an unmarried Noble) and waits for them.
    assert steps == STEP_ORDER[:1]
    state = then_state(replay(GAME, before), events)
    rest = pass_decrees(state)
    steps += [s for s in map(step_of, rest) if s is not None and s != "marriages"]
    assert steps == STEP_ORDER
    skips = [e for e in (*events, *rest) if isinstance(e, DecreeStepSkipped | ElectionSkipped)]
    assert skips and all(e.reason for e in skips)


def test_the_first_player_marker_passes_clockwise_each_round() -> None:
    """R-1.1, R-4.1: round 2 starts with the next seat as First Player."""
    state = given(*started(4, first=3))
    rounds = []
    for _ in range(12):
        events = decide(state, AdvancePhase(), HOST)
        rounds += [e for e in events if isinstance(e, RoundStarted)]
        state = then_state(state, events)
        if rounds:
            break
    assert rounds == [RoundStarted(round=2, first_player=Seat(0))]


def cursed(state: CourtState, noble: str) -> CourtState:
    nobles = dict(state.nobles)
    found = nobles[NobleId(noble)]
    nobles[NobleId(noble)] = replace(found, attributes=found.attributes | {Attribute.GODS_CURSED})
    return replace(state, nobles=nobles)


def new_round(state: CourtState) -> tuple:
    """The host closes the table's phases; everyone passes in a council seat sale and is done
    with his purchases (R-4.1, R-4.6)."""
    for _ in range(40):
        events = table_step(state)
        if any(isinstance(e, RoundStarted) for e in events):
            return events
        state = then_state(state, events)
    raise AssertionError("no new round")


def test_every_gods_cursed_noble_rolls_at_the_start_of_each_round() -> None:
    """R-4.4, R-6.2: before phase 1, each living Gods-cursed Noble rolls the committed dice;
    the roll is the game's next roll number, reproducible from the seed."""
    state = cursed(cursed(given(*started(3)), "eddard-stark"), "tywin-lannister")
    number = state.rolls

    events = new_round(state)

    rolls = [e for e in events if isinstance(e, DieRolled)]
    assert [r.noble for r in rolls] == ["eddard-stark", "tywin-lannister"]
    assert [r.number for r in rolls] == [number, number + 1]
    assert [r.value for r in rolls] == [dice.roll_d6(SEED, number), dice.roll_d6(SEED, number + 1)]
    kinds = [type(e) for e in events]
    assert kinds.index(RoundStarted) < kinds.index(DieRolled) < kinds.index(DecreeStepOpened)


def test_a_gods_cursed_noble_who_rolls_a_one_dies_at_the_start_of_the_round() -> None:
    """R-4.4, R-6.2: on a 1 he dies, and his titles return to the board."""
    state = cursed(given(*started(3)), "eddard-stark")
    number = next(n for n in range(200) if dice.roll_d6(SEED, n) == 1)
    state = replace(state, rolls=number, titles={**state.titles, "warden-north": "eddard-stark"})

    events = new_round(state)

    assert DieRolled(noble="eddard-stark", number=number, value=1) in events
    assert any(isinstance(e, NobleDied) and e.noble == "eddard-stark" for e in events)
    after = then_state(state, events)
    assert "warden-north" not in after.titles


def test_a_warden_holds_office_for_life_and_is_not_elected_again() -> None:
    """R-7.5, R-7.1: while the title is held, its election is skipped with the reason."""
    state = given(*started(3))
    villages = ("winterfell", "white-harbor", "the-dreadfort", "moat-cailin")
    state = replace(
        state,
        villages={**state.villages, **{v: "stark" for v in villages}},
        titles={**state.titles, "warden-north": "robb-stark"},
    )

    opening = new_round(state)
    events = (*opening, *pass_decrees(then_state(state, opening)))

    skipped = [e for e in events if isinstance(e, ElectionSkipped) and e.title == "warden-north"]
    assert len(skipped) == 1 and "not free" in skipped[0].reason
    assert not any(isinstance(e, ElectionOpened) and e.title == "warden-north" for e in events)
