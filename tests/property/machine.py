"""A stateful property test of the court: Hypothesis plays a game through the real service
and store, picking at every step any move `rules.legal_commands` offers a seat, the host or
the game master, any fact the host could record at that moment (mid decree step, mid ballot,
while a title choice waits), the clock running past a deadline, or a move nobody listed.

After every step: no exception but a `CourtError`; every invariant holds (the service also
refuses to store a court that breaks one); the server's follow-ups have settled the court;
someone can move (no game stalls, R-4.3); every listed move is accepted by `decide`; a move
`decide` accepts was listed; and the court rebuilt from the exported log equals the live one.
"""

from __future__ import annotations

import json
import os
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from config.rulesdata import load_ruleset
from court import codec
from court.chain import Record
from court.commands import (
    SPECTATOR,
    AcceptRansom,
    AcceptTitle,
    Actor,
    AddNoble,
    AdjustGold,
    AdvancePhase,
    AnswerMarriage,
    BuildSept,
    BuyFiefTitle,
    ChooseCouncilSeat,
    CloseOverdueStep,
    Command,
    ConcedeTitle,
    DeathKind,
    Desert,
    Divorce,
    EmbraceRhllor,
    EndPurchases,
    GrantFiefTitle,
    GrantMotherOfDragons,
    HandConversion,
    HeirBorn,
    JoinSmallCouncil,
    MarkerChoice,
    OfferRansom,
    Pardon,
    Pass,
    PassBid,
    PlaceBallot,
    PlaceBid,
    ProposeMarriage,
    RecordCapture,
    RecordDeath,
    RecordEscape,
    RecordRelease,
    RecordVillageControl,
    RecordWallSupplies,
    RefuseRansom,
    RefuseTitle,
    ResolveTitleOverflow,
    SendToWall,
    StandForElection,
    StartGame,
    WithdrawRansom,
)
from court.decide import decide, rounds
from court.errors import CourtError
from court.evolve import evolve, initial, replay
from court.ids import GameId, HouseId, NobleId, Seat, TitleId, VillageId
from court.invariants import unsettled, violations
from court.recordable import recordable
from court.rules import legal_commands
from court.state import CourtState, GameStatus
from server.ports import GameMaster
from server.service import CourtService
from server.store.sql import SqlEventStore
from server.tools.sim_facts import in_the_spotlight
from server.tools.simulate import VARIANTS
from tests.court.recordable_check import CHOSEN, listed
from tests.fakes import CountingSecrets, FixedClock

DEADLINE = 60
MASTER = Actor(master=True)
# What to do at a step, and how often: moves most, facts often, the clock now and then.
ACTIONS = ["move"] * 6 + ["fact"] * 3 + ["clock"] + ["unlisted"] * 2
# Commands nobody lists although they may be sent: facts (the host's account of the table,
# section 9) and ransom offers (free-form, any time, R-8.2).
NEVER_LISTED = (OfferRansom,)


def _key(command: Command) -> Any:
    """A move as listed and as sent compare equal: salts are the server's, a bid's amount is
    the player's to type (1 and the whole treasury are listed), markers come in any order,
    and a ballot without a marker is the pass that is listed (R-7.1 step 3)."""
    if isinstance(command, PlaceBallot) and not command.markers:
        return Pass()
    if isinstance(command, PlaceBallot):
        return ("ballot", tuple(sorted((m.kind, m.candidate) for m in command.markers)))
    if isinstance(command, PlaceBid):
        return ("bid",)
    return command


class CourtMachine(RuleBasedStateMachine):
    """One game per example, through `CourtService` on an in-memory SQLite store."""

    def __init__(self) -> None:
        super().__init__()
        self.store = SqlEventStore("sqlite://")
        self.store.create_schema()
        self.clock = FixedClock()
        self.service = CourtService(self.store, clock=self.clock, secret_source=CountingSecrets())
        self.game_id = ""
        self.rebuilt: CourtState | None = None
        self.version = 0
        self.steps = 0

    # -- the game ---------------------------------------------------------------------------

    @initialize(
        players=st.integers(3, 6),
        variants=st.fixed_dictionaries({v: st.booleans() for v in VARIANTS}),
        houses=st.permutations(["stark", "lannister", "tyrell", "martell", "greyjoy", "baratheon"]),
        spread=st.lists(st.integers(0, 6), min_size=40, max_size=40),
    )
    def create(
        self, players: int, variants: dict[str, bool], houses: list[str], spread: list[int]
    ) -> None:
        deadlines = dict.fromkeys(
            ("candidacy", "ballot", "decree", "title_choice", "purchase"), DEADLINE
        )
        game_id, _, _ = self.service.create_game(
            ruleset=load_ruleset(),
            players=players,
            host_name="Host",
            variants=variants,
            deadlines=deadlines,
            game_master=GameMaster("Maester", "master-token"),
            listed=True,
        )
        self.game_id = game_id
        for n, house in enumerate(houses[:players]):
            self.service.join(
                game_id,
                Actor(host=True) if n == 0 else SPECTATOR,
                house=house,
                player_name=f"Player {n}",
            )
        host = Actor(seat=Seat(0), host=True)
        self.service.handle(game_id, StartGame(), host)
        # The table has spread over the map before the court meets: Warden elections
        # and all that follows them come within a few rounds.
        for village, pick in zip(self.state.ruleset.villages, spread, strict=False):
            fact = RecordVillageControl(
                village=village.id, house=HouseId(houses[pick % players]), cause="the war so far"
            )
            self.service.handle(game_id, fact, host)
        self._absorb()

    @property
    def state(self) -> CourtState:
        return self.service.current(self.game_id).state

    def actors(self) -> list[Actor]:
        seats = [Actor(seat=Seat(s), host=s == 0) for s in sorted(self.state.seats)]
        return [*seats, MASTER]

    @precondition(lambda self: self.game_id and self.state.status is GameStatus.PLAYING)
    @rule(data=st.data())
    def step(self, data: st.DataObject) -> None:
        action = data.draw(st.sampled_from(ACTIONS), label="action")
        self.steps += 1
        if action == "move":
            self._move(data)
        elif action == "fact":
            self._fact(data)
        elif action == "clock":
            self._clock()
        else:
            self._unlisted(data)
        self._absorb()

    @precondition(lambda self: self.game_id and self.state.status is GameStatus.ENDED)
    @rule(data=st.data())
    def after_the_end(self, data: st.DataObject) -> None:
        """An ended game takes nothing more: every command and fact is refused (R-4.7)."""
        state = self.state
        actor = data.draw(st.sampled_from([*self.actors(), SPECTATOR]), label="actor")
        command = data.draw(st.one_of(commands(state), facts(state)), label="command")
        before = self.store.head(self.game_id)
        try:
            self.service.handle(self.game_id, command, actor)
        except CourtError as exc:
            assert exc.code != "engine_defect", exc.message
        else:
            raise AssertionError(f"{command} by {actor} was accepted after the end")
        assert self.store.head(self.game_id) == before
        assert not any(legal_commands(state, a) for a in self.actors())

    def _move(self, data: st.DataObject) -> None:
        """A listed move: first who and what kind of move (so that a step offering forty
        marriages does not drown its pass), then which."""
        state = self.state
        kinds: dict[tuple[Actor, str], list[Command]] = {}
        for actor in self.actors():
            for move in legal_commands(state, actor):
                kinds.setdefault((actor, type(move).__name__), []).append(move)
        assert kinds, "the game stalled: nobody has a legal move"
        actor, kind = data.draw(st.sampled_from(sorted(kinds, key=str)), label="kind")
        move = data.draw(st.sampled_from(kinds[(actor, kind)]), label="move")
        if isinstance(move, PlaceBallot):
            self.service.place_ballot(
                self.game_id, actor, [(m.kind, m.candidate) for m in move.markers]
            )
        elif isinstance(move, PlaceBid):
            self.service.place_bid(self.game_id, actor, move.amount)
        else:
            self.service.handle(self.game_id, move, actor)

    def _fact(self, data: st.DataObject) -> None:
        fact = data.draw(facts(self.state), label="fact")
        recorder = data.draw(st.sampled_from([Actor(seat=Seat(0), host=True), MASTER]))
        before = self.store.head(self.game_id)
        offered = recordable(self.state)  # what the host's panel offers
        try:
            self.service.handle(self.game_id, fact, recorder)
            accepted = True
        except CourtError as exc:
            assert exc.code != "engine_defect", exc.message
            assert self.store.head(self.game_id) == before, "a refused fact changed the log"
            accepted = False
        if type(fact) in CHOSEN:
            assert accepted == listed(offered, fact), f"{fact}: accepted {accepted}, listed not"

    def _clock(self) -> None:
        deadline = rounds.next_deadline(self.state)
        if deadline is None:
            return
        self.clock.now = max(self.clock.now, deadline)
        self.service.handle(self.game_id, CloseOverdueStep(), SPECTATOR)

    def _unlisted(self, data: st.DataObject) -> None:
        """Any command by anyone: `decide` may accept it only if it was listed."""
        state = self.state
        actor = data.draw(st.sampled_from([*self.actors(), SPECTATOR]), label="actor")
        command = data.draw(commands(state), label="command")
        try:
            decide(state, command, actor, self.clock.now)
        except CourtError:
            return
        if isinstance(command, NEVER_LISTED):
            return
        listed = {_key(m) for m in legal_commands(state, actor)}
        assert _key(command) in listed, f"{command} by {actor} is accepted but not listed"

    # -- checks -----------------------------------------------------------------------------

    def _absorb(self) -> None:
        """Fold every new record as exported (JSON there and back), as a restore would."""
        for record in self.store.read(self.game_id, after=self.version):
            line = json.loads(json.dumps(record.to_json()))
            copy = Record.from_json(line)
            event = codec.decode(copy.type, copy.schema_version, copy.data, copy.private)
            base = self.rebuilt if self.rebuilt is not None else initial(GameId(self.game_id))
            self.rebuilt = evolve(base, event)
            assert violations(self.rebuilt) == [], (copy.version, copy.type)
            self.version = copy.version

    @invariant()
    def sound_and_settled(self) -> None:
        if not self.game_id:
            return
        state = self.state
        assert violations(state) == []
        assert unsettled(state) == []
        assert state == self.rebuilt, "the court rebuilt from the exported log differs"

    @invariant()
    def nobody_stalls_and_every_listed_move_is_accepted(self) -> None:
        if not self.game_id or self.state.status is not GameStatus.PLAYING:
            return
        state = self.state
        anyone = False
        for actor in self.actors():
            for move in legal_commands(state, actor):
                anyone = True
                try:
                    decide(state, move, actor, self.clock.now)
                except CourtError as exc:
                    raise AssertionError(f"listed {move} by {actor} refused: {exc.code}") from None
        assert anyone, "the game stalled: nobody has a legal move"

    def teardown(self) -> None:
        if self.game_id:
            records = self.service.records(self.game_id)
            events = [codec.decode(r.type, r.schema_version, r.data, r.private) for r in records]
            assert replay(GameId(self.game_id), events) == self.state
        self.store.close()


# -- what the host could record, and what anyone could send --------------------------------


def facts(state: CourtState) -> st.SearchStrategy[Command]:
    """Any fact of section 9 about this court: possible or not."""
    nobles = sorted(state.nobles) or ["nobody"]
    houses = sorted(state.treasury) or ["stark"]
    villages = [v.id for v in state.ruleset.villages]
    masters = [t.id for t in state.ruleset.titles if t.master]
    # Half the time a Noble whose fate matters to the step under way (sim_facts).
    spotlight = sorted(in_the_spotlight(state)) or nobles
    noble = st.one_of(
        st.sampled_from([NobleId(n) for n in nobles]),
        st.sampled_from([NobleId(n) for n in spotlight]),
    )
    house = st.sampled_from([HouseId(h) for h in houses])
    cause = st.just("at the table")
    return st.one_of(
        st.builds(
            RecordVillageControl,
            village=st.sampled_from([VillageId(v) for v in villages]),
            house=st.one_of(st.none(), house),
            cause=cause,
        ),
        st.builds(
            RecordVillageControl, village=st.sampled_from(villages), house=house, cause=cause
        ),
        st.builds(AdjustGold, house=house, amount=st.sampled_from([-4, -1, 2, 5]), cause=cause),
        st.builds(
            RecordCapture,
            noble=noble,
            house=house,
            by=st.one_of(st.none(), noble),
            cause=cause,
        ),
        st.builds(RecordRelease, noble=noble, cause=cause),
        st.builds(RecordEscape, noble=noble, cause=cause),
        st.builds(
            RecordDeath,
            noble=noble,
            kind=st.sampled_from([k.value for k in DeathKind]),
            cause=cause,
        ),
        st.builds(
            AddNoble,
            house=house,
            noble=st.sampled_from([NobleId(f"newcomer-{n}") for n in range(4)]),
            name=st.just("A Newcomer"),
            gender=st.sampled_from(["lord", "lady"]),
            attributes=st.sampled_from([(), ("cruel",), ("heart_breaker",), ("bastard",)]),
            cause=cause,
        ),
        st.builds(
            JoinSmallCouncil,
            noble=noble,
            title=st.sampled_from([TitleId(t) for t in masters]),
            cause=cause,
        ),
        st.builds(GrantMotherOfDragons, noble=noble, cause=cause),
        st.builds(HeirBorn, noble=noble, cause=cause),
        st.builds(RecordWallSupplies, amount=st.integers(1, 6), house=house, cause=cause),
    )


def commands(state: CourtState) -> st.SearchStrategy[Command]:
    """Any command a client could send, with the court's own ids in it."""
    nobles = st.sampled_from([NobleId(n) for n in sorted(state.nobles)])
    titles = st.sampled_from([TitleId(t.id) for t in state.ruleset.titles])
    villages = st.sampled_from([VillageId(v.id) for v in state.ruleset.villages])
    offers = st.integers(1, max(1, state.next_offer))
    marker = st.builds(
        MarkerChoice,
        kind=st.sampled_from(["for", "decoy"]),
        candidate=nobles,
        salt=st.uuids().map(str),
    )
    return st.one_of(
        st.builds(StandForElection, noble=nobles),
        st.just(Pass()),
        st.builds(PlaceBallot, markers=st.lists(marker, max_size=2).map(tuple)),
        st.just(AcceptTitle()),
        st.just(RefuseTitle()),
        st.builds(ResolveTitleOverflow, title=titles, to=st.one_of(st.none(), nobles)),
        st.builds(ProposeMarriage, noble=nobles, to=nobles),
        st.builds(AnswerMarriage, accept=st.booleans()),
        st.builds(Divorce, noble=nobles),
        st.builds(EmbraceRhllor, hand_converts=st.booleans(), burn=st.one_of(st.none(), nobles)),
        st.builds(HandConversion, convert=st.booleans(), burn=st.one_of(st.none(), nobles)),
        st.builds(Pardon, noble=nobles),
        st.builds(SendToWall, noble=nobles),
        st.builds(ConcedeTitle, title=titles, to=nobles),
        st.builds(Desert, noble=nobles),
        st.builds(BuildSept, village=villages),
        st.builds(BuyFiefTitle, title=titles, noble=nobles),
        st.builds(GrantFiefTitle, title=titles, noble=nobles),
        st.just(EndPurchases()),
        st.builds(PlaceBid, amount=st.integers(-1, 30), salt=st.just("salt")),
        st.just(PassBid()),
        st.builds(ChooseCouncilSeat, noble=nobles, title=titles),
        st.just(AdvancePhase()),
        st.builds(AcceptRansom, offer=offers),
        st.builds(RefuseRansom, offer=offers),
        st.builds(WithdrawRansom, offer=offers),
        st.builds(OfferRansom, captive=nobles, gold=st.integers(0, 5), captives=st.just(())),
    )


def machine_settings(examples: int, steps: int) -> settings:
    return settings(
        max_examples=examples,
        stateful_step_count=steps,
        deadline=None,
        database=None,
        derandomize=bool(os.environ.get("CI")),
        suppress_health_check=list(HealthCheck),
    )
