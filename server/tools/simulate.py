"""Simulated games: whole games played with random legal moves and random recorded facts,
through the real service and event store, checking the court after every event.

Each game draws its rules profile: every setting from its allowed values (court/profile.py),
recorded in its first event as any profile is. Every move is drawn from `rules.legal_commands`
(server/tools/sim_moves.py picks it as a table would), so a listed move the court refuses is a
defect and is reported. Facts are drawn by `sim_facts` at every moment of the round (mid decree
step, mid ballot, while a title choice waits, during the sale) and may be impossible: a refused
fact must leave the log as it was. Seats change hands now and then, in the lobby and in play.
After every event the court keeps its invariants (the event's own included), after every command
its follow-ups settled it (court/settled.py) and someone can move (no game may stall, R-4.3);
after the game the state rebuilt from the export equals the live one. Same seed, same log.
"""

from __future__ import annotations

import json
import random
from typing import Any

from config.profile_rules import random_profile
from court import invites
from court.audit import audit
from court.chain import Record
from court.commands import (
    SPECTATOR,
    Actor,
    ChangeListing,
    CloseOverdueStep,
    Command,
    LeaveSeat,
    PlaceBallot,
    PlaceBid,
    RemoveSeat,
    StartGame,
    VoteToEnd,
)
from court.decide import rounds
from court.errors import CourtError
from court.evolve import evolve, replay
from court.ids import GameId, Seat
from court.invariants import violations
from court.rules import legal_commands
from court.sentences import describe
from court.settled import unsettled
from court.state import CourtState, GameStatus
from server.keys import ServerKeys
from server.ports import EventStore, token_digest
from server.replay import Head
from server.service import CourtService, Outcome
from server.store.sql import SqlEventStore
from server.tools.sim_facts import random_fact
from server.tools.sim_moves import pick, seat_change
from server.tools.sim_table import (
    GameSummary,
    SeededSecrets,
    SimClock,
    SimPresence,
    critical,
    moment,
)

DEADLINE_SECONDS = 120
VARIANTS = ("nights_watch", "title_concession", "sealed_ballots", "clocks")
# Every mix of the variants, mix n using variant i when bit i of n is set.
MIXES: tuple[dict[str, bool], ...] = tuple(
    {v: bool(n >> i & 1) for i, v in enumerate(VARIANTS)} for n in range(2 ** len(VARIANTS))
)
# The order a run plays the mixes in: every variant at once, none, each alone, then the
# others, so that the first games of any run play every variant.
MIX_ORDER = tuple(sorted(range(len(MIXES)), key=lambda n: (n != 15, n != 0, n.bit_count(), n)))
# Seconds between two moves: mostly quick, now and then long enough for a deadline to pass.
PAUSES = (1, 1, 2, 3, 5, 8, DEADLINE_SECONDS + 1)
# How often the host records a fact instead of a move being made: mostly in the phases played
# at the table, but at every other moment too.
TABLE_FACT_RATE = 0.6
FACT_RATE = 0.12
CRITICAL_FACT_RATE = 0.35
# How often a seat changes hands during play, and a lobby sees players come and go.
SEAT_RATE = 0.01
LOBBY_CHURN = 0.5


def plan(n: int, counts: list[int], mixes: list[dict[str, bool]] | None) -> tuple[int, Any]:
    """Game n's player count and variant mix (None: its seed draws them). Over len(mixes) x
    len(counts) games every mix plays with every count, and the first len(mixes) games play
    every mix."""
    if mixes is None:
        return counts[n % len(counts)], None
    turn = n % (len(mixes) * len(counts))
    mix = turn % len(mixes)
    return counts[(mix + turn // len(mixes)) % len(counts)], mixes[mix]


def every_mix() -> list[dict[str, bool]]:
    """Every mix of the variants, in the order a run plays them."""
    return [MIXES[n] for n in MIX_ORDER]


class Simulation:
    """One simulated game; `run()` plays it and returns its summary. With `random_rules` the
    game's profile is `ruleset`'s with every setting drawn; otherwise it is played as given,
    its deadlines short enough to pass."""

    def __init__(
        self,
        store: EventStore,
        ruleset: dict[str, Any],
        *,
        players: int,
        rounds: int,
        seed: int,
        variants: dict[str, bool] | None = None,
        random_rules: bool = True,
        fact_rate: float = FACT_RATE,
        max_commands: int = 20_000,
        keys: ServerKeys | None = None,
    ) -> None:
        self.rng = random.Random(seed)
        self.clock = SimClock()
        self.presence = SimPresence()
        self.service = CourtService(
            store,
            clock=self.clock,
            secret_source=SeededSecrets(random.Random(seed ^ 0x5EED)),
            presence=self.presence,
            keys=keys,
        )
        self.store, self.ruleset = store, ruleset
        self.players, self.rounds, self.seed = players, rounds, seed
        self.variants, self.random_rules = variants, random_rules
        self.fact_rate, self.max_commands = fact_rate, max_commands
        self.state: CourtState | None = None
        self.version = 0
        self.invite: str | None = None
        self.summary: GameSummary | None = None

    # -- the game ----------------------------------------------------------------------------

    def run(self) -> GameSummary:
        drawn = {v: self.rng.random() < 0.5 for v in VARIANTS}
        variants = dict(self.variants) if self.variants is not None else drawn
        ruleset, deadlines = (
            self.ruleset,
            dict.fromkeys(
                ("candidacy", "ballot", "decree", "purchase", "title_choice"), DEADLINE_SECONDS
            ),
        )
        if self.random_rules:
            profile = random_profile(ruleset["profile"], self.rng, self.players)
            ruleset, deadlines = {**ruleset, "profile": profile}, {}
        game_id, _token, created = self.service.create_game(
            ruleset=ruleset,
            players=self.players,
            host_name="Simulated host",
            variants=variants,
            deadlines=deadlines,
        )
        self.summary = summary = GameSummary(
            game_id, self.players, self.seed, variants, ruleset["profile"]["name"]
        )
        self._absorb(created)
        self.invite = invites.of(created.state)
        self._seat_everyone(game_id)
        self._act(game_id, self._host(), StartGame())
        for _ in range(self.max_commands):
            if not self._step(game_id):
                break
        else:
            summary.problems.append(f"the game did not finish in {self.max_commands} commands")
        self.finish(game_id)
        return summary

    def _seat_everyone(self, game_id: str) -> None:
        """The host takes seat 0; the others join; in one lobby of two, the game goes on the
        front page and off again, and a player leaves or is removed and another comes."""
        houses = [h["id"] for h in self.ruleset["roster"]["houses"]]
        chosen = self.rng.sample(houses, self.players)
        spare = [h for h in houses if h not in chosen]
        churn = self.rng.random() < LOBBY_CHURN
        for index, house in enumerate(chosen):
            self._join(game_id, house, index, Actor(host=True) if index == 0 else SPECTATOR)
            if churn and index == 0:
                self._act(game_id, self._host(), ChangeListing(listed=True))
                self._act(game_id, self._host(), ChangeListing(listed=False))
                self._act(game_id, self._host(), RemoveSeat(seat=self._join(game_id, spare[0])))
                self._act(game_id, Actor(seat=self._join(game_id, spare[0])), LeaveSeat())

    def _join(self, game_id: str, house: str, index: int = -1, joiner: Actor = SPECTATOR) -> Seat:
        name = f"Player {index + 1}" if index >= 0 else "A passer-by"
        _token, outcome = self.service.join(
            game_id, joiner, house=house, player_name=name, invite=self.invite
        )
        self._absorb(outcome)
        return max(self._state().seats)

    def _host(self) -> Actor:
        """The host as the game stands: the seat holding the role (the host's own at first)."""
        return Actor(seat=self._state().host_seat(), host=True)

    def _step(self, game_id: str) -> bool:
        """One command; False when the game is over or has played its rounds."""
        state = self._state()
        if state.status is not GameStatus.PLAYING or state.round > self.rounds:
            return False
        if rounds.overdue(state, self.clock()):
            self._act(game_id, self._host(), CloseOverdueStep())
            self._summary().timeouts += 1
            return True
        if self.rng.random() < SEAT_RATE:
            self._change_seat(game_id, state)
            return True
        # Facts are mostly recorded in the phases played at the table, and more often
        # while a title's power, a candidacy or a title choice hangs on a Noble's fate.
        if state.phase in rounds.HOST_PHASES:
            rate = TABLE_FACT_RATE
        elif critical(state):
            rate = CRITICAL_FACT_RATE
        else:
            rate = self.fact_rate
        if self.rng.random() < rate:
            self._record_fact(game_id, state)
            return True
        # A simulated table plays its game out: no vote to end it (listed all game long).
        moves = [(a, m) for a in self._actors(state) for m in legal_commands(state, a)]
        moves = [(a, m) for a, m in moves if not isinstance(m, VoteToEnd)]
        if not moves:
            # Someone always has a move (a pass at least): a court waiting for nobody stalls.
            self._summary().problems.append(
                f"version {self.version}: the game stalled: nobody has a legal move "
                f"({moment(state)})"
            )
            return False
        actor, move = pick(state, self.rng, moves)
        self._act(game_id, actor, move)
        self._summary().moves += 1
        self.clock.now += self.rng.choice(PAUSES)
        return True

    def _actors(self, state: CourtState) -> list[Actor]:
        return [Actor(seat=s, host=state.seats[s].host) for s in sorted(state.seats)]

    def _change_seat(self, game_id: str, state: CourtState) -> None:
        """A seat handed to a new device, the host role handed on, or a vote for a new host."""
        digest = token_digest(self.service.secrets.token())
        change = seat_change(state, self.rng, digest, self.presence, self.clock())
        if change is not None:
            self._act(game_id, *change)

    def _act(self, game_id: str, actor: Actor, move: Command) -> None:
        """A listed move: the court must take it."""
        try:
            if isinstance(move, PlaceBallot):
                markers = [(m.kind, m.candidate) for m in move.markers]
                outcome, _receipt = self.service.place_ballot(game_id, actor, markers)
            elif isinstance(move, PlaceBid):
                outcome, _receipt = self.service.place_bid(game_id, actor, move.amount)
            else:
                outcome = self.service.handle(game_id, move, actor)
        except CourtError as exc:
            self._summary().problems.append(
                f"version {self.version}: the listed move {type(move).__name__} was refused: "
                f"{exc.code}: {exc.message}"
            )
            raise
        self._absorb(outcome)

    def _record_fact(self, game_id: str, state: CourtState) -> None:
        summary = self._summary()
        summary.moments[moment(state)] += 1
        fact = random_fact(state, self.rng, summary.facts + summary.facts_refused)
        before = self.service.length(game_id)
        try:
            outcome = self.service.handle(game_id, fact, self._host())
        except CourtError as exc:
            summary.facts_refused += 1
            if exc.code == "engine_defect":
                summary.problems.append(
                    f"version {self.version}: {type(fact).__name__} met an engine defect"
                )
            if self.service.length(game_id) != before:
                summary.problems.append(f"a refused {type(fact).__name__} changed the log")
            return
        summary.facts += 1
        self._absorb(outcome)

    # -- checks ------------------------------------------------------------------------------

    def _absorb(self, outcome: Outcome) -> None:
        """Fold each new record, check the court after every event, and count what the record
        reached: its type and the rules its line in the history applied."""
        state, summary = self.state, self._summary()
        for record in outcome.records:
            if record.version != self.version + 1:
                summary.problems.append(f"version {record.version} follows {self.version}")
            event = self.service.decode(record)
            state = (
                evolve(state, event)
                if state is not None
                else replay(GameId(record.game_id), (event,))
            )
            self.version = record.version
            summary.problems.extend(
                f"after version {record.version} ({record.type}): {v}"
                for v in violations(state, event)
            )
            summary.coverage.add(record.type, describe(record, state), record.data)
        if state is not None:
            summary.problems.extend(
                f"after version {self.version}, settled: {v}" for v in unsettled(state)
            )
        self.state = state

    def _rebuilt(self, game_id: str, exported: list[dict[str, Any]], live: Head) -> list[str]:
        """Rebuild the court through the service's replay path three ways — imported from the
        export into a new database, cold from this one's snapshots, and from the first event
        at a few versions — and say where one differs from the live court."""
        problems = []
        scratch = SqlEventStore("sqlite://")
        try:
            scratch.create_schema()
            imported = CourtService(scratch, snapshot_every=self.service.replay.every)
            imported.import_log(exported)
            if imported.current(game_id).state != live.state:
                problems.append("the state rebuilt from the export differs from the live one")
        finally:
            scratch.close()
        cold = CourtService(self.store, keys=self.service.keys)
        if cold.current(game_id).state != live.state:
            problems.append("the state rebuilt from the snapshots differs from the live one")
        whole = CourtService(self.store, snapshot_every=0)
        for version in sorted({1, live.version // 2, live.version - 1, live.version} - {0}):
            if cold.state_at(game_id, version) != whole.state_at(game_id, version):
                problems.append(f"version {version} rebuilt from a snapshot differs")
        return problems

    def finish(self, game_id: str) -> None:
        """Check the log as exported against the live court and fill in the summary."""
        summary = self._summary()
        live = self.service.current(game_id)
        exported = [json.loads(json.dumps(r.to_json())) for r in self.service.records(game_id)]
        records = [Record.from_json(line) for line in exported]
        checked = audit(records)
        if not checked.ok:
            summary.problems.append(
                f"the exported log fails verification at version {checked.bad_version}: "
                f"{checked.check}: {checked.reason}"
            )
        summary.problems.extend(self._rebuilt(game_id, exported, live))
        if self.state != live.state:
            summary.problems.append("the state folded event by event differs from the live one")
        state = live.state
        summary.status, summary.round, summary.records = (
            state.status.value,
            state.round,
            live.version,
        )
        summary.winners = [state.seats[s].house for s in state.winners]

    def _state(self) -> CourtState:
        assert self.state is not None
        return self.state

    def _summary(self) -> GameSummary:
        assert self.summary is not None
        return self.summary


def simulate(
    store: EventStore,
    ruleset: dict[str, Any],
    *,
    players: int,
    rounds: int,
    seed: int,
    variants: dict[str, bool] | None = None,
    random_rules: bool = True,
    keys: ServerKeys | None = None,
) -> GameSummary:
    """Play one seeded game to its end or through `rounds` rounds; its summary. Without
    `variants` the seed draws them; with `random_rules` the seed draws every setting of its
    profile too. `keys`: the server's, for games kept in its database."""
    simulation = Simulation(
        store,
        ruleset,
        players=players,
        rounds=rounds,
        seed=seed,
        variants=variants,
        random_rules=random_rules,
        keys=keys,
    )
    try:
        return simulation.run()
    except CourtError:  # a listed move refused: already named in the summary's problems
        summary = simulation.summary
        assert summary is not None
        simulation.finish(summary.game_id)
        summary.status = "stopped"
        return summary
