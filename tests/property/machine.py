"""A stateful property test of the court: Hypothesis plays a game through the real service
and store, under a rules profile drawn for the example (every setting from its allowed values,
court/model/profile.py), picking at every step any move `rules.legal_commands` offers a seat, the
host or the game master (ransoms of gold, of captives and of both among them, R-8.2), any fact
the host could record at that moment (mid decree step, mid ballot, while a title choice waits),
the clock running past a deadline, a person's key gathering a token or letting a link go
(court/model/links.py), or a move nobody listed; and what the table does around the game at any
moment: players close their pages and come back, time passes, the seats vote to replace one
gone for the profile's time or to end the game or for a new host (R-9.2), the host renames the
game and proposes corrections of any record of the log (R-9.1), now and then of the fact he has
just recorded (a candidate's death mid-election among them), which the seats answer and he
withdraws as listed moves.

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
from court.commands import (
    SPECTATOR,
    Actor,
    AddDeviceKey,
    AddSeatLink,
    ClaimSeat,
    CloseOverdueStep,
    Command,
    CreateGame,
    DeathKind,
    DropDeviceKey,
    DropSeatLink,
    HandHost,
    HandSeat,
    JoinSeat,
    OfferRansom,
    Pass,
    PlaceBallot,
    PlaceBid,
    ProposeCorrection,
    RecordDeath,
    RecordVillageControl,
    RemoveSeat,
    RenameGame,
    StartGame,
    VoteForHost,
    VoteToEnd,
    VoteToReplace,
    digest,
)
from court.decide import decide, rounds, table_votes
from court.errors import CourtError
from court.evolve import evolve, initial, replay
from court.ids import GameId, HouseId, Seat
from court.log import codec
from court.log.chain import Record
from court.model.links import LinkEnd
from court.model.tokens import actor_of, tokens_in_use
from court.options.legal import legal_commands
from court.options.recordable import recordable
from court.soundness.invariants import violations
from court.soundness.settled import unsettled
from court.state import CourtState, GameStatus
from server.service.court_service import CourtService
from server.store.sql import SqlEventStore
from server.tools.sim_corrections import CORRECTABLE, FactBook
from server.tools.sim_oracles import failed, known, table_problems
from server.tools.sim_table import SimPresence, Written
from server.tools.sim_votes import NAMES
from server.tools.simulate import VARIANTS
from tests.court.given import drawn
from tests.court.recordable_check import CHOSEN, listed
from tests.fakes import CountingSecrets, FixedClock
from tests.property.draws import commands, facts, profiles

DEADLINE = 60
DEFAULT = load_ruleset()
MASTER = Actor(master=True)
# What to do at a step, and how often: moves most, facts often, the clock, the keys and the
# table around the game now and then.
ACTIONS = ["move"] * 6 + ["fact"] * 3 + ["clock"] + ["unlisted"] * 2 + ["key"] + ["table"] * 2
# What the table does around the game (`CourtMachine._table`), and how often.
TABLE = ["absence"] * 3 + ["time", "replace", "replace", "end", "host", "rename"] + ["correct"] * 4
# Commands `decide` may accept although no list offers them: what moves seats and the host role
# between players (a new player's name is typed, R-9.2) and the game's name (no moves of the
# game, as court/options/legal.py says), a vote to replace a player (it hangs on the server's word
# on his connections), a correction (free-form, as the facts are) and the close of an overdue step
# (the clock's, which anyone may send), and a device's keys (the server's, no move of the game).
# Facts are the host's account of the table (section 9), drawn apart.
NEVER_LISTED = (
    AddDeviceKey,
    DropDeviceKey,
    HandSeat,
    ClaimSeat,
    HandHost,
    VoteForHost,
    RemoveSeat,
    RenameGame,
    CloseOverdueStep,
    VoteToReplace,
    ProposeCorrection,
)
# What the table decides together is always open to a seat (a vote to end the game): it is
# never what keeps a game moving, and drawn as often as a move it would end most games early:
# the table action casts it now and then; listed, it is still checked to be accepted.
TABLE_VOTES = table_votes.LISTED


def _key(command: Command) -> Any:
    """A move as listed and as sent compare equal: salts are the server's, a bid's amount is
    the player's to type (1 and the whole treasury are listed), markers come in any order,
    a ballot without a marker is the pass that is listed (R-7.1 step 3), and a ransom is
    listed by what it is made of: gold, captives or both (R-8.2), its amounts and its
    captives the player's to choose."""
    if isinstance(command, OfferRansom):
        return ("ransom", command.captive, command.gold > 0, bool(command.captives))
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
        self.presence = SimPresence()
        self.service = CourtService(
            self.store,
            clock=self.clock,
            secret_source=CountingSecrets(),
            presence=self.presence,
        )
        self.game_id = ""
        self.rebuilt: CourtState | None = None
        self.version = 0
        self.steps = 0
        self.book = FactBook()

    # -- the game ---------------------------------------------------------------------------

    @initialize(
        players=st.integers(3, 6),
        variants=st.fixed_dictionaries({v: st.booleans() for v in VARIANTS}),
        houses=st.permutations(["stark", "lannister", "tyrell", "martell", "greyjoy", "baratheon"]),
        spread=st.lists(st.integers(0, 6), min_size=40, max_size=40),
        profile=profiles(DEFAULT["profile"]),
    )
    def create(
        self,
        players: int,
        variants: dict[str, bool],
        houses: list[str],
        spread: list[int],
        profile: dict[str, Any],
    ) -> None:
        # The host sets every step's deadline when he creates the game, so that the
        # clock always has a step to close.
        deadlines = dict.fromkeys(
            ("candidacy", "ballot", "decree", "title_choice", "purchase"), DEADLINE
        )
        create = CreateGame(
            ruleset={**DEFAULT, "profile": profile},
            players=players,
            host_name="Host",
            variants=variants,
            deadlines=deadlines,
            game_master_name="Maester",
            game_master_token_sha256=digest("master-token"),
            listed=True,
        )
        game_id = self.service.handle(None, create, Actor(host=True)).state.game_id
        self.game_id = game_id
        for n, house in enumerate(houses[:players]):
            self.service.handle(
                game_id,
                JoinSeat(house=HouseId(house), player_name=f"Player {n}"),
                Actor(host=True) if n == 0 else SPECTATOR,
            )
        host = Actor(seat=Seat(0), host=True)
        self.service.handle(game_id, StartGame(), host)
        self._absorb()
        # The table has spread over the map before the court meets: Warden elections
        # and all that follows them come within a few rounds.
        for village, pick in zip(self.state.ruleset.villages, spread, strict=False):
            fact = RecordVillageControl(
                village=village.id, house=HouseId(houses[pick % players]), cause="the war so far"
            )
            self.service.handle(game_id, fact, host)
            self._absorb()  # a command at a time: what each wrote is its own (sim_oracles.py)

    @property
    def state(self) -> CourtState:
        return self.service.current(self.game_id).state

    def actors(self) -> list[Actor]:
        state = self.state
        seats = [Actor(seat=s, host=state.seats[s].host) for s in sorted(state.seats)]
        # A seat the bot plays: its player (who may take it back) and the bot (its moves).
        bots = [Actor(seat=s, bot=True) for s in sorted(state.table.bots)]
        return [*seats, *bots, MASTER]

    def host(self) -> Actor:
        """The host as the game stands: the seat holding the role (seat 0 at first)."""
        return Actor(seat=self.state.host_seat(), host=True)

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
        elif action == "key":
            self._key(data)
        elif action == "table":
            self._table(data)
        else:
            self._unlisted(data)
        self._absorb()

    @precondition(lambda self: self.game_id and self.state.status is GameStatus.ENDED)
    @rule(data=st.data())
    def after_the_end(self, data: st.DataObject) -> None:
        """An ended game takes nothing more: every command and fact is refused (R-4.7), but
        the host's new name for it, which is no move of the game."""
        state = self.state
        actor = data.draw(st.sampled_from([*self.actors(), SPECTATOR]), label="actor")
        command = data.draw(st.one_of(commands(state), facts(state)), label="command")
        if isinstance(command, RenameGame):
            return
        before = self.store.head(self.game_id)
        try:
            self.service.handle(self.game_id, command, actor)
        except CourtError as exc:
            assert exc.code != "engine_defect", exc.message
            assert self.store.head(self.game_id) == before
        else:
            assert isinstance(command, RenameGame), f"{command} by {actor} accepted after the end"
            self._absorb()
        assert not any(legal_commands(state, a) for a in self.actors())

    def _move(self, data: st.DataObject) -> None:
        """A listed move: first who and what kind of move (so that a step offering forty
        marriages does not drown its pass), then which."""
        state = self.state
        kinds: dict[tuple[Actor, str], list[Command]] = {}
        for actor in self.actors():
            for move in legal_commands(state, actor):
                if not isinstance(move, VoteToEnd):
                    kinds.setdefault((actor, type(move).__name__), []).append(move)
        assert kinds, "the game stalled: nobody has a legal move"
        actor, kind = data.draw(st.sampled_from(sorted(kinds, key=str)), label="kind")
        move = data.draw(st.sampled_from(kinds[(actor, kind)]), label="move")
        self.service.handle(self.game_id, move, actor)

    def _fact(self, data: st.DataObject) -> None:
        """Any fact, or, while an election is under way, the death of a Noble standing in it
        as often (R-7.2): the host may correct it at once (`_second_thought`)."""
        state = self.state
        drawn = facts(state)
        standing = state.election.standing if state.election is not None else ()
        if standing:
            falls = st.builds(
                RecordDeath,
                noble=st.sampled_from(standing),
                kind=st.sampled_from([k.value for k in DeathKind]),
                cause=st.just("fell at the table"),
            )
            drawn = st.one_of(drawn, falls)
        fact = data.draw(drawn, label="fact")
        recorder = data.draw(st.sampled_from([self.host(), MASTER]))
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
        if accepted and data.draw(st.booleans(), label="second thought"):
            self._absorb()  # a command at a time: what each wrote is its own (sim_oracles.py)
            self._second_thought(data, 0 if before is None else before.version)

    def _second_thought(self, data: st.DataObject, since: int) -> None:
        """The host sees at once that he misread the table: he proposes to correct the fact
        just recorded before anything else is (a candidate's death among them, whose
        candidacy comes back if the seats answer before the election moves on, R-9.1)."""
        records = self.store.read(self.game_id, after=since)
        facts = [r.version for r in records if r.type in CORRECTABLE]
        if not facts:
            return
        self._refusable(self.host(), data.draw(self._corrections(facts[-1:]), label="at once"))

    def _clock(self) -> None:
        deadline = rounds.next_deadline(self.state)
        if deadline is None:
            return
        self.clock.now = max(self.clock.now, deadline)
        self.service.handle(self.game_id, CloseOverdueStep(), SPECTATOR)

    def _table(self, data: st.DataObject) -> None:
        """What the table does around the game, at any moment: a player closes his page or
        comes back, time passes, a seat votes to replace a player, to end the game or for a new
        host, the host renames the game or proposes a correction of any record. The court may
        refuse each, but never as an engine defect and never changing the log."""
        state = self.state
        what = data.draw(st.sampled_from(TABLE), label="table")
        seats = sorted(state.seats)
        seat = data.draw(st.sampled_from(seats), label="seat")
        if what == "absence":
            if seat in self.presence.gone:
                self.presence.back(seat)
            else:
                self.presence.leave(seat, self.clock.now)
            return
        if what == "time":
            self.clock.now += data.draw(st.sampled_from([60, 900, 3600]), label="seconds")
            return
        if what == "rename":
            self._refusable(self.host(), RenameGame(name=data.draw(st.sampled_from(NAMES))))
        elif what == "end":
            self._refusable(Actor(seat=seat), VoteToEnd(end=data.draw(st.booleans())))
        elif what == "host":
            choice = data.draw(st.sampled_from([None, *seats]), label="for")
            self._refusable(Actor(seat=seat), VoteForHost(seat=choice))
        elif what == "replace":
            target = data.draw(st.sampled_from(seats))
            bot = data.draw(st.booleans(), label="bot")
            self._refusable(Actor(seat=seat), VoteToReplace(seat=target, bot=bot))
        else:
            self._refusable(self.host(), data.draw(self._corrections(), label="correction"))

    def _corrections(self, only: list[int] | None = None) -> st.SearchStrategy[ProposeCorrection]:
        """A correction of any record of the log, mostly one of a death, a village or Gold
        Dragons (R-9.1), to any value; with `only`, of one of those records."""
        records = list(self.store.read(self.game_id))
        facts = [r.version for r in records if r.type in CORRECTABLE] or [1]
        versions = st.one_of(st.sampled_from(facts), st.integers(0, len(records) + 1))
        return st.builds(
            ProposeCorrection,
            version=versions if only is None else st.sampled_from(only),
            house=st.one_of(st.none(), st.sampled_from(sorted(self.state.treasury))),
            amount=st.one_of(st.none(), st.integers(-5, 10)),
            cause=st.just("misread"),
        )

    def _refusable(self, actor: Actor, command: Command) -> None:
        """A command the court may refuse, but never as an engine defect, and never by failing
        but where a finding test already reproduces the failure; either way the log stays."""
        before = self.store.head(self.game_id)
        try:
            self.service.handle(self.game_id, command, actor)
        except CourtError as exc:
            assert exc.code != "engine_defect", f"{command} by {actor}: {exc.message}"
            assert self.store.head(self.game_id) == before, "a refused command changed the log"
        except Exception as exc:  # only a failure a finding test reproduces (sim_oracles.py)
            assert known(failed(exc)), f"{command} by {actor}: {failed(exc)}"
            assert self.store.head(self.game_id) == before, "a failed command changed the log"

    def _key(self, data: st.DataObject) -> None:
        """A key gathers any token the game opens (a seat's, the host's, the game master's or
        a link) and hands out a link that stands for what it stands for; or the key service
        lets any standing link go, with the links made from it."""
        state = self.state
        links = sorted(k.number for k in state.links.by_token.values())
        if links and data.draw(st.booleans(), label="drop"):
            number = data.draw(st.sampled_from(links), label="link")
            reason = data.draw(st.sampled_from(list(LinkEnd)), label="reason")
            self.service.handle(self.game_id, DropSeatLink(link=number, reason=reason), SPECTATOR)
            assert all(k.number != number for k in self.state.links.by_token.values())
            return
        token = data.draw(st.sampled_from(sorted(tokens_in_use(state))), label="token")
        actor = actor_of(state, token)
        assert actor is not None
        link = f"{state.links.added + 1:064x}"
        self.service.handle(self.game_id, AddSeatLink(link_sha256=link), actor)
        assert actor_of(self.state, link) == actor_of(self.state, token)

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
        """Fold every new record as exported (JSON there and back), as a restore would, and
        check the table's decisions over them beyond the invariants (R-9.1, R-9.2: breaches
        a finding test already reproduces aside)."""
        written = []
        for record in self.store.read(self.game_id, after=self.version):
            line = json.loads(json.dumps(record.to_json()))
            copy = Record.from_json(line)
            event = codec.decode(copy.type, copy.schema_version, copy.data, copy.private)
            base = self.rebuilt if self.rebuilt is not None else initial(GameId(self.game_id))
            self.rebuilt = evolve(base, event)
            assert violations(self.rebuilt, event) == [], (copy.version, copy.type)
            self.version = copy.version
            written.append(Written(copy.version, copy.type, copy.data, event, base, self.rebuilt))
        found = [p for p in table_problems(self.book, written) if known(p) is None]
        assert found == [], found
        self.book.note(written)

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
                anyone = anyone or not isinstance(move, TABLE_VOTES)
                try:
                    decide(state, drawn(move), actor, self.clock.now)
                except CourtError as exc:
                    raise AssertionError(f"listed {move} by {actor} refused: {exc.code}") from None
        assert anyone, "the game stalled: nobody has a legal move"

    def teardown(self) -> None:
        if self.game_id:
            records = self.service.records(self.game_id)
            events = [codec.decode(r.type, r.schema_version, r.data, r.private) for r in records]
            assert replay(GameId(self.game_id), events) == self.state
        self.store.close()


def machine_settings(examples: int, steps: int) -> settings:
    return settings(
        max_examples=examples,
        stateful_step_count=steps,
        deadline=None,
        database=None,
        derandomize=bool(os.environ.get("CI")),
        suppress_health_check=list(HealthCheck),
    )


# How many games the property tests play, and how many steps each (`bench/soak.py` plays more).
EXAMPLES = int(os.environ.get("COURT_MACHINE_EXAMPLES", "40"))
STEPS = int(os.environ.get("COURT_MACHINE_STEPS", "250"))
