"""Simulated games: whole games played with random legal moves and random recorded facts,
through the real service and event store, checking the court after every event.

Every move is drawn from `rules.legal_commands`, so a listed move the court refuses is a
defect and is reported. Facts are drawn by `sim_facts` at every moment of the round (mid
decree step, mid ballot, while a title choice waits, during the sale) and may be impossible:
a refused fact must leave the log as it was. After every command the server's follow-ups
must have settled the court (`invariants.unsettled`) and someone must be able to move (no
game may stall, R-4.3). After the game, the state rebuilt from the exported log must equal
the live state. A seed makes a game repeatable: same seed, same log.
"""

from __future__ import annotations

import json
import random
import secrets
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from court import invites
from court.audit import audit
from court.chain import Record
from court.commands import (
    SPECTATOR,
    Actor,
    CloseOverdueStep,
    Command,
    PlaceBallot,
    PlaceBid,
    StartGame,
)
from court.decide import rounds
from court.errors import CourtError
from court.evolve import evolve, replay
from court.ids import GameId, Seat
from court.invariants import unsettled, violations
from court.rules import legal_commands
from court.state import CourtState, GameStatus
from server.ports import EventStore
from server.replay import Head
from server.service import CourtService, Outcome
from server.store.sql import SqlEventStore
from server.tools.sim_facts import random_fact

START_TIME = 1_800_000_000.0
DEADLINE_SECONDS = 120
VARIANTS = ("nights_watch", "title_concession", "sealed_ballots", "clocks")
# Every mix of the variants, in a fixed order: game n of a run with `--variants all` plays
# mix n % 16.
MIXES: tuple[dict[str, bool], ...] = tuple(
    {v: bool(n >> i & 1) for i, v in enumerate(VARIANTS)} for n in range(2 ** len(VARIANTS))
)
# Seconds between two moves: mostly quick, now and then long enough for a deadline to pass.
PAUSES = (1, 1, 2, 3, 5, 8, DEADLINE_SECONDS + 1)
# How often the host records a fact instead of a move being made: mostly in the phases played
# at the table, but at every other moment too.
TABLE_FACT_RATE = 0.6
FACT_RATE = 0.12
CRITICAL_FACT_RATE = 0.35


def critical(state: CourtState) -> bool:
    """A moment where a fact changes what a step does: a decree turn acting through a title
    (R-6.7), an election under way (R-7.2), a title choice waiting."""
    decree = state.decree
    return (
        state.pending is not None
        or state.election is not None
        or (decree is not None and decree.power is not None)
    )


def moment(state: CourtState) -> str:
    """Where the round stands, to tell at which moments facts were recorded."""
    if state.pending is not None:
        return f"title choice ({state.pending.kind.value})"
    if state.election is not None:
        return f"election {state.election.stage.value}"
    if state.decree is not None:
        return "marriage proposal" if state.proposal is not None else f"decree {state.decree.id}"
    if state.auction is not None:
        return "council seat sale" if state.auction.winner is None else "council seat choice"
    if state.purchase_turns is not None:
        return "purchase turns"
    return f"phase {state.phase.value if state.phase else '-'}"


class SeededSecrets:
    """Tokens, dice seeds and salts from a seeded generator: a simulated game is repeatable.
    Never used for real games, whose secrets come from the system."""

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng

    def _hex(self, bits: int) -> str:
        return f"{self._rng.getrandbits(bits):0{bits // 4}x}"

    def token(self) -> str:
        return self._hex(256)

    def game_id(self) -> str:
        # Fresh each time: the same seed may be played again into the same database.
        return secrets.token_hex(6)

    def seed(self) -> str:
        return self._hex(256)

    def salt(self) -> str:
        return self._hex(128)


class SimClock:
    def __init__(self, start: float = START_TIME) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now


@dataclass
class GameSummary:
    game_id: str
    players: int
    seed: int
    variants: dict[str, bool]
    status: str = ""
    round: int = 0
    records: int = 0
    moves: int = 0
    facts: int = 0
    facts_refused: int = 0
    timeouts: int = 0
    winners: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    # Facts recorded (or refused) at each moment of the round (see `moment`).
    moments: Counter[str] = field(default_factory=Counter)

    def line(self) -> str:
        on = ",".join(v for v, used in self.variants.items() if used) or "none"
        winners = ",".join(self.winners) or "-"
        return (
            f"game {self.game_id} seed {self.seed}: {self.players} players, variants {on}, "
            f"{self.status} in round {self.round}, {self.records} events, {self.moves} moves, "
            f"{self.facts} facts ({self.facts_refused} refused), {self.timeouts} timeouts, "
            f"winners {winners}, problems {len(self.problems)}"
        )


class Simulation:
    """One simulated game; `run()` plays it and returns its summary."""

    def __init__(
        self,
        store: EventStore,
        ruleset: dict[str, Any],
        *,
        players: int,
        rounds: int,
        seed: int,
        variants: dict[str, bool] | None = None,
        fact_rate: float = FACT_RATE,
        max_commands: int = 20_000,
    ) -> None:
        self.rng = random.Random(seed)
        self.clock = SimClock()
        self.service = CourtService(
            store, clock=self.clock, secret_source=SeededSecrets(random.Random(seed ^ 0x5EED))
        )
        self.store, self.ruleset = store, ruleset
        self.players, self.rounds, self.seed = players, rounds, seed
        self.variants = variants
        self.fact_rate, self.max_commands = fact_rate, max_commands
        self.state: CourtState | None = None
        self.version = 0
        self.invite: str | None = None
        self.summary: GameSummary | None = None

    # -- the game ----------------------------------------------------------------------------

    def run(self) -> GameSummary:
        drawn = {v: self.rng.random() < 0.5 for v in VARIANTS}
        variants = dict(self.variants) if self.variants is not None else drawn
        deadlines = {k: DEADLINE_SECONDS for k in ("candidacy", "ballot", "decree", "purchase")}
        deadlines["title_choice"] = DEADLINE_SECONDS
        game_id, _token, created = self.service.create_game(
            ruleset=self.ruleset,
            players=self.players,
            host_name="Simulated host",
            variants=variants,
            deadlines=deadlines,
        )
        self.summary = summary = GameSummary(game_id, self.players, self.seed, variants)
        self._absorb(created)
        self.invite = invites.of(created.state)
        host = self._seat_everyone(game_id)
        self._act(game_id, host, StartGame())
        for _ in range(self.max_commands):
            if not self._step(game_id, host):
                break
        else:
            summary.problems.append(f"the game did not finish in {self.max_commands} commands")
        self.finish(game_id)
        return summary

    def _seat_everyone(self, game_id: str) -> Actor:
        houses = self.rng.sample([h["id"] for h in self.ruleset["roster"]["houses"]], self.players)
        host = Actor(host=True)
        for index, house in enumerate(houses):
            joiner = host if index == 0 else SPECTATOR
            _token, outcome = self.service.join(
                game_id, joiner, house=house, player_name=f"Player {index + 1}", invite=self.invite
            )
            self._absorb(outcome)
        return Actor(seat=Seat(0), host=True)

    def _step(self, game_id: str, host: Actor) -> bool:
        """One command; False when the game is over or has played its rounds."""
        state = self._state()
        if state.status is not GameStatus.PLAYING or state.round > self.rounds:
            return False
        if rounds.overdue(state, self.clock()):
            self._act(game_id, host, CloseOverdueStep())
            self._summary().timeouts += 1
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
        moves = [
            (actor, move)
            for actor in self._actors(state, host)
            for move in legal_commands(state, actor)
        ]
        if not moves:
            # Someone always has a move (a pass at least): a court waiting for nobody stalls.
            self._summary().problems.append(
                f"version {self.version}: the game stalled: nobody has a legal move "
                f"({moment(state)})"
            )
            return False
        actor, move = self.rng.choice(moves)
        self._act(game_id, actor, move)
        self._summary().moves += 1
        self.clock.now += self.rng.choice(PAUSES)
        return True

    def _actors(self, state: CourtState, host: Actor) -> list[Actor]:
        return [host if s == host.seat else Actor(seat=Seat(s)) for s in sorted(state.seats)]

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
            outcome = self.service.handle(game_id, fact, Actor(host=True))
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
        """Fold each new record and check the court after every event."""
        state = self.state
        for record in outcome.records:
            if record.version != self.version + 1:
                self._summary().problems.append(f"version {record.version} follows {self.version}")
            event = self.service.decode(record)
            state = (
                evolve(state, event)
                if state is not None
                else replay(GameId(record.game_id), (event,))
            )
            self.version = record.version
            self._summary().problems.extend(
                f"after version {record.version} ({record.type}): {v}"
                for v in violations(state, event)
            )
        if state is not None:
            self._summary().problems.extend(
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
        cold = CourtService(self.store)
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
) -> GameSummary:
    """Play one seeded game to its end or through `rounds` rounds; its summary. Without
    `variants` the seed draws them."""
    simulation = Simulation(
        store, ruleset, players=players, rounds=rounds, seed=seed, variants=variants
    )
    try:
        return simulation.run()
    except CourtError:  # a listed move refused: already named in the summary's problems
        summary = simulation.summary
        assert summary is not None
        simulation.finish(summary.game_id)
        summary.status = "stopped"
        return summary
