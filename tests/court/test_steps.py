"""Every step of a round has one id, declared once in court/model/steps.py with its number in R-4.2:
the court view names the step by it in each kind of step (a decree step, an election, the sale
of the council seat and the purchases of phase 4, R-4.1, R-4.6), every step the engine opens or
skips is in the table, and the history's sentences use the same labels as the view."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from court.commands import Actor
from court.decide import settle
from court.events import ElectionOpened, ElectionSkipped, Event, GameStarted, RoundStarted
from court.events.decrees import DecreeStepOpened, DecreeStepSkipped
from court.events.purchases import AuctionOpened, AuctionSkipped, PurchaseTurnsOpened
from court.evolve import evolve, replay
from court.ids import Seat, TitleId
from court.model import steps
from court.sentences.decrees import SENTENCES
from court.state import CourtState, StepKind, StepRef
from court.views import court_view
from tests.court.given import GAME, created, given, joined, pass_decrees, started, table_step
from tests.court.moments import north_for_stark
from tests.court.purchase_moments import sale, shopping


def view_of(state: CourtState, viewer: Actor | None = None) -> dict[str, Any]:
    return court_view(state, 1, viewer or Actor(seat=Seat(0)))


def decree_opened(step: str) -> CourtState:
    state = given(*started(4))
    return evolve(state, DecreeStepOpened(step=step, order=(Seat(0), Seat(1)), deadline=None))


# -- the court view names the step -------------------------------------------------------


@pytest.mark.parametrize(
    ("step", "number", "name"),
    [
        ("marriages", "1.1.1", "Marriages"),
        ("false_idols", "1.1.2", "False idols"),
        ("royal_pardon", "1.1.3", "Royal pardon"),
        ("send_to_wall", "1.1.4", "Send to the Wall"),
        ("title_concession", "1.1.5", "Title concession"),
        ("oathbreakers", "1.2.1", "Oathbreakers"),
    ],
)
def test_the_view_names_a_decree_step_by_its_one_id_and_its_number_in_r_4_2(
    step: str, number: str, name: str
) -> None:
    """R-4.2: the decree steps 1.1.1 to 1.2.1; the decree view names the step by the same id."""
    view = view_of(decree_opened(step))
    assert view["game"]["step"] == {"kind": "decree", "id": step, "number": number, "name": name}
    assert view["decree"]["step"] == step


def test_the_view_names_an_election_by_the_election_s_id_and_step_1_3() -> None:
    """R-4.2, R-7.4: a Warden election is step 1.3; the election view has the same id."""
    view = view_of(north_for_stark())
    assert view["game"]["step"] == {
        "kind": "election",
        "id": "warden-north",
        "number": "1.3",
        "name": "Warden of the North election",
    }
    assert view["election"]["id"] == "warden-north"


@pytest.mark.parametrize(
    ("election", "title", "number"),
    [
        ("lord-commander", "lord-commander", "1.2.2"),
        ("warden-west", "warden-west", "1.3"),
        ("hand", "hand", "1.4"),
        ("king", "king", "1.5"),
    ],
)
def test_each_election_is_numbered_as_r_4_2_orders_it(
    election: str, title: str, number: str
) -> None:
    """R-4.2: 1.2.2 Lord Commander (NWE), 1.3 the Wardens, 1.4 the Hand, 1.5 the King."""
    before = (created(4, variants__nights_watch=True), *(joined(i) for i in range(4)))
    state = evolve(
        replay(GAME, before),
        ElectionOpened(
            election=election, title=TitleId(title), order=(Seat(0), Seat(1)), deadline=None
        ),
    )
    step = view_of(state)["game"]["step"]
    assert (step["kind"], step["id"], step["number"]) == ("election", election, number)


def test_the_view_names_the_sale_of_the_council_seat_by_its_id() -> None:
    """R-4.6: the sale opens first in phase 4; the rules give it no step number."""
    view = view_of(sale())
    assert view["auction"] is not None
    assert view["game"]["step"] == {
        "kind": "auction",
        "id": "auction",
        "number": None,
        "name": "Sale of the fourth council seat",
    }


def test_the_view_names_the_purchase_turns_by_their_id() -> None:
    """R-4.1: each player's purchases in turn order, after the sale."""
    view = view_of(shopping(("stark", ("winterfell",))))
    assert view["purchases"] is not None
    assert view["game"]["step"] == {
        "kind": "purchases",
        "id": "purchases",
        "number": None,
        "name": "Purchases",
    }


def test_the_view_names_no_step_in_a_phase_played_at_the_table() -> None:
    """R-4.1: the cards phase has no step the server runs."""
    view = view_of(given(*started(3)))
    assert view["game"]["phase"] == "cards" and view["game"]["step"] is None


# -- the table holds every step -------------------------------------------------------------


def step_of(event: Event) -> StepRef | None:
    """The step an event opens or skips, if any."""
    match event:
        case DecreeStepOpened() | DecreeStepSkipped():
            return StepRef(kind=StepKind.DECREE, id=event.step)
        case ElectionOpened() | ElectionSkipped():
            return StepRef(kind=StepKind.ELECTION, id=event.election)
        case AuctionOpened() | AuctionSkipped():
            return steps.AUCTION.ref
        case PurchaseTurnsOpened():
            return steps.PURCHASES.ref
    return None


def a_round_of_a_quiet_table() -> tuple[CourtState, list[StepRef], list[StepRef | None]]:
    """Round 1 of a 4-player game with every variant, from its start until round 2 begins: the
    steps the events open or skip, and the court's step after every event."""
    before = (
        created(4, variants__nights_watch=True, variants__title_concession=True),
        *(joined(i) for i in range(4)),
    )
    start = (
        GameStarted(seat_order=tuple(Seat(i) for i in range(4)), first_player=Seat(0)),
        RoundStarted(round=1, first_player=Seat(0)),
    )
    state = replay(GAME, before)
    events = list(settle(state, start, 0.0))
    for event in events:
        state = evolve(state, event)
    events += pass_decrees(state)
    state = replay(GAME, (*before, *events))
    while state.round == 1:
        for event in table_step(state):
            state = evolve(state, event)
            events.append(event)
    events = events[: events.index(RoundStarted(round=2, first_player=Seat(1)))]
    opened = [ref for ref in map(step_of, events) if ref is not None]
    seen, folded = [], replay(GAME, before)
    for event in events:
        folded = evolve(folded, event)
        seen.append(folded.step)
    return state, opened, seen


def test_every_step_the_engine_opens_or_skips_is_in_the_table_in_its_order() -> None:
    """R-4.2, R-4.1: every step of phase 1 is opened or skipped, in the table's order, then the
    sale of the council seat and the purchase turns of phase 4."""
    state, opened, _ = a_round_of_a_quiet_table()
    table = [step.ref for step in steps.table(state)]
    assert opened == table


def test_the_court_s_step_after_every_event_is_a_step_of_the_table() -> None:
    state, _, seen = a_round_of_a_quiet_table()
    table = {step.ref: step for step in steps.table(state)}
    assert {ref for ref in seen if ref is not None} == set(table)
    assert all(steps.current(replace(state, step=ref)) == table[ref] for ref in table)


def test_one_id_names_one_step() -> None:
    state = given(created(6, variants__nights_watch=True))
    ids = [step.id for step in steps.table(state)]
    assert len(ids) == len(set(ids)) == 16


# -- the history and the view agree ---------------------------------------------------------


@pytest.mark.parametrize("step", [s.id for s in steps.DECREES])
def test_the_history_names_a_decree_step_as_the_view_does(step: str) -> None:
    """R-4.2: "Decree step 1.1.1 Marriages opened" reads the number and name the view shows."""
    state = decree_opened(step)
    shown = view_of(state)["game"]["step"]
    sentence = SENTENCES["DecreeStepOpened"]({"step": step, "order": [0, 1]}, state)
    assert sentence.startswith(f"Decree step {shown['number']} {shown['name']} opened;")


def test_every_step_names_the_rule_that_governs_it() -> None:
    """Each step cites its rule: the decree steps R-5 to R-8.4, the elections R-7.3 to R-7.8,
    phase 4 R-4.6 and R-4.1."""
    state = given(created(3, variants__nights_watch=True))
    rules = {step.id: step.rule for step in steps.table(state)}
    assert rules == {
        "marriages": "R-5.1",
        "false_idols": "R-6.2",
        "royal_pardon": "R-6.3",
        "send_to_wall": "R-6.4",
        "title_concession": "R-6.6",
        "oathbreakers": "R-8.4",
        "lord-commander": "R-7.3",
        **{f"warden-{r}": "R-7.4" for r in ("north", "east", "crownlands", "south", "west")},
        "hand": "R-7.7",
        "king": "R-7.8",
        "auction": "R-4.6",
        "purchases": "R-4.1",
    }
