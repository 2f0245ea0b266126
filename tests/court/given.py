"""Given/when/then helpers for pure engine tests: build a court from events, then decide."""

from __future__ import annotations

from functools import cache
from typing import Any

from config.rulesdata import load_ruleset
from court.commands import (
    Actor,
    AdvancePhase,
    Command,
    CreateGame,
    Drawn,
    Pass,
    needs,
    supplied,
)
from court.decide import decide, settle
from court.events import Event, FactRecorded, GameCreated, GameStarted, RoundStarted, SeatJoined
from court.evolve import evolve, replay
from court.ids import GameId, HouseId, Seat
from court.model import dice, invites
from court.state import CourtState

GAME = GameId("g1")
HOST = Actor(host=True)
SEED = "seed-for-tests"
INVITE = invites.secret(SEED)


@cache
def _ruleset() -> dict[str, Any]:
    return load_ruleset("default")


def ruleset() -> dict[str, Any]:
    import copy

    return copy.deepcopy(_ruleset())


def created(players: int = 3, listed: bool = True, **profile_changes: Any) -> GameCreated:
    """A created game; listed on the front page unless a test is about private games."""
    rules = ruleset()
    for path, value in profile_changes.items():
        section, key = path.split("__")
        rules["profile"][section][key] = value
    return GameCreated(
        game_id=GAME,
        ruleset=rules,
        players=players,
        host_name="Hostess",
        dice_seed_sha256=dice.commitment(SEED),
        host_token_sha256="h" * 64,
        dice_seed=SEED,
        listed=listed,
        invite_sha256=invites.digest(INVITE),
    )


HOUSES = ("stark", "lannister", "tyrell", "martell", "greyjoy", "baratheon")


def create_game(**fields: Any) -> CreateGame:
    """The host's command creating a 3-player game "g1" on the default rules, with `fields`
    (listed, name, ...) set."""
    made: dict[str, Any] = {
        "game_id": GAME,
        "ruleset": ruleset(),
        "players": 3,
        "host_name": "Hostess",
        "host_token_sha256": "h" * 64,
        "dice_seed": SEED,
    }
    return CreateGame(**{**made, **fields})


def joined(seat: int, house: str | None = None, host: bool = False) -> SeatJoined:
    return SeatJoined(
        seat=Seat(seat),
        house=HouseId(house or HOUSES[seat]),
        player_name=f"Player {seat + 1}",
        host=host,
        token_sha256=f"{seat}" * 64,
    )


def lobby(players: int = 3, seated: int | None = None, **profile_changes: Any) -> tuple[Event, ...]:
    count = players if seated is None else seated
    return (created(players, **profile_changes), *(joined(i) for i in range(count)))


def started(players: int = 3, first: int = 0, **profile_changes: Any) -> tuple[Event, ...]:
    """A started game, with phase 1 of round 1 run as far as the server runs it alone; the
    profile changed as `created` changes it (`marriage__opposite_gender=False`)."""
    order = tuple(Seat(i) for i in range(players))
    before = lobby(players, **profile_changes)
    start = (
        GameStarted(seat_order=order, first_player=Seat(first)),
        RoundStarted(round=1, first_player=Seat(first)),
    )
    events = (*before, *settle(replay(GAME, before), start, 0.0))
    return (*events, *pass_decrees(replay(GAME, events)))


def pass_decrees(state: CourtState, now: float = 0.0) -> tuple[Event, ...]:
    """Every player passes in each decree step of phase 1 (R-4.2), as a quiet table does."""

    events: list[Event] = []
    while state.decree is not None and state.decree.current is not None:
        step = decide(state, Pass(), Actor(seat=state.decree.current), now)
        for event in step:
            state = evolve(state, event)
        events.extend(step)
    return tuple(events)


def table_step(state: CourtState, now: float = 0.0) -> tuple[Event, ...]:
    """One move of a quiet table towards the next phase: in phase 4 each bidder passes and each
    player is done with his purchases (R-4.1, R-4.6); otherwise the host closes the phase."""
    from court.commands import EndPurchases, PassBid

    if state.auction is not None and state.auction.winner is None:
        return decide(state, PassBid(), Actor(seat=state.auction.waiting[0]), now)
    turns = state.purchase_turns
    if turns is not None and turns.current is not None:
        return decide(state, EndPurchases(), Actor(seat=turns.current), now)
    return decide(state, AdvancePhase(), HOST, now)


def open_decree(state: CourtState, step: str, now: float = 0.0) -> CourtState:
    """The court with decree step `step` opened by the server as it would in phase 1 (R-4.2):
    its turns, and the powers they act through (R-6.7), read from the court as it stands."""
    from dataclasses import replace

    from court.decide import decrees
    from court.events.decrees import DecreeStepOpened
    from court.state import Phase, StepKind, StepRef

    index = decrees.STEPS.index(step)
    before = StepRef(kind=StepKind.DECREE, id=decrees.STEPS[index - 1]) if index else None
    state = replace(state, phase=Phase.DECREES, step=before, decree=None, election=None)
    events = decrees.follow_up(state, now, None)
    assert events and isinstance(events[0], DecreeStepOpened), events
    return evolve(state, events[0])


def given(*events: Event) -> CourtState:
    return replay(GAME, events)


def when(state: CourtState, command: Command, actor: Actor = HOST) -> tuple[Event, ...]:
    return decide(state, command, actor)


def when_fact(state: CourtState, command: Command, actor: Actor = HOST) -> tuple[Event, ...]:
    """A recorded fact (section 9): the events after the one naming who recorded it."""
    first, *rest = decide(state, command, actor)
    assert isinstance(first, FactRecorded), first
    assert first.by == ("host" if actor.host else "game_master")
    return tuple(rest)


def then_state(state: CourtState, events: tuple[Event, ...]) -> CourtState:
    for event in events:
        state = evolve(state, event)
    return state


def seat(n: int, host: bool = False) -> Actor:
    return Actor(seat=Seat(n), host=host)


class Table:
    """A court built event by event that keeps every event, for tests that need the log."""

    def __init__(self, *events: Event) -> None:
        self.events: list[Event] = []
        self.state = replay(GAME, ())
        self.add(*events)

    def add(self, *events: Event) -> tuple[Event, ...]:
        for event in events:
            self.state = evolve(self.state, event)
            self.events.append(event)
        return events

    def act(self, command: Command, actor: Actor = HOST, now: float = 0.0) -> tuple[Event, ...]:
        return self.add(*decide(self.state, drawn(command), actor, now))

    def next_round(self) -> None:
        """A quiet table plays on to the next round and passes in its decree steps."""
        start = self.state.round
        while self.state.round == start:
            self.add(*table_step(self.state))
        self.add(*pass_decrees(self.state))


def actors(state: CourtState) -> list[Actor]:
    return [Actor(seat=Seat(s), host=s == 0) for s in sorted(state.seats)]


def drawn(command: Command) -> Command:
    """The command with the secrets it names drawn, as the service draws them (a listed
    ballot's or bid's salts, a join's token): made of their kind and place, one apart from
    another (court/commands/secrets.py)."""
    wanted = needs(command)
    return supplied(command, Drawn(tuple((k, f"drawn-{k}-{i}") for i, k in enumerate(wanted))))
