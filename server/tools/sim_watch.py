"""A simulated game's court under watch: every command goes through the real service and
store, every record is folded and checked (the invariants after each event, the follow-ups
settled after each command), counted for the run's coverage and noted for the host's
corrections; a listed move must be taken, any other command may be refused but never as an
engine defect and never changing the log. server/tools/simulate.py decides what is sent."""

from __future__ import annotations

import random

from court.commands import (
    Actor,
    CloseOverdueStep,
    Command,
    Signature,
)
from court.commands import describe as describe_command
from court.errors import CourtError
from court.events import SeatHanded
from court.evolve import evolve, initial
from court.ids import GameId
from court.log.chain import GENESIS
from court.sentences import describe
from court.soundness.invariants import violations
from court.soundness.settled import unsettled
from court.state import CourtState
from server.keys import ServerKeys
from server.messages.rebuilt import REBUILD
from server.service.court_service import CourtService, Outcome
from server.service.ports import EventStore
from server.tools.sim_checks import defect, exported_problems
from server.tools.sim_corrections import FactBook
from server.tools.sim_devices import SimDevices
from server.tools.sim_oracles import failed, known, table_problems
from server.tools.sim_table import GameSummary, SeededSecrets, SimClock, SimPresence, Written


class Stopped(Exception):
    """A listed move the court did not take: the game stops there (its problems say why)."""


class WatchedGame:
    """The service, clock and book of connections of one simulated game, and the court as
    its records were folded one by one."""

    def __init__(self, store: EventStore, seed: int, keys: ServerKeys | None) -> None:
        self.rng = random.Random(seed)
        self.clock = SimClock()
        self.presence = SimPresence()
        self.service = CourtService(
            store,
            clock=self.clock,
            secret_source=SeededSecrets(random.Random(seed ^ 0x5EED)),
            presence=self.presence,
            keys=keys,
            rebuild=REBUILD,
        )
        self.store = store
        self.state: CourtState | None = None
        self.version, self.hash = 0, GENESIS
        self.summary: GameSummary | None = None
        self.book = FactBook()
        # Its own draws: keying devices leaves the game's moves as the seed plays them.
        self.devices = SimDevices(random.Random(seed ^ 0xDE71CE))

    def _host(self) -> Actor:
        """The host as the game stands: the seat holding the role (the host's own at first)."""
        return Actor(seat=self._state().host_seat(), host=True)

    def _actors(self, state: CourtState) -> list[Actor]:
        return [Actor(seat=s, host=state.seats[s].host) for s in sorted(state.seats)]

    def _act(self, game_id: str, actor: Actor, move: Command) -> None:
        """A listed move: the court must take it; the game stops when it does not. A step
        past its deadline is closed first: a device keyed then would find a late clock wound
        again (court/decide/clocks.py restarts it with the increment)."""
        try:
            if not isinstance(move, CloseOverdueStep):
                self._keyed(game_id, actor)
            move, signed = self._signed(game_id, actor, move)
            outcome = self.service.handle(game_id, move, actor, signed)
        except Exception as exc:
            self._summary().problems.append(
                f"version {self.version}: the listed move {describe_command(move)} by {actor} "
                f"was refused: {self._why(game_id, actor, move, exc)}"
            )
            raise Stopped from exc
        self._absorb(outcome)

    def _try(self, game_id: str, actor: Actor, command: Command) -> bool:
        """A command the court may refuse (a fact, a correction, a vote on the server's word
        about a player's connections): whether it was taken. A refusal is counted by its code;
        it must leave the log as it was and never be an engine defect or a crash."""
        summary = self._summary()
        self._keyed(game_id, actor)
        before = self.service.length(game_id)
        try:
            command, signed = self._signed(game_id, actor, command)
            outcome = self.service.handle(game_id, command, actor, signed)
        except Exception as exc:
            if isinstance(exc, CourtError):
                summary.coverage.refused(exc.code, exc.message)
            if not isinstance(exc, CourtError) or exc.code == "engine_defect":
                summary.problems.append(
                    f"version {self.version}: {describe_command(command)} by {actor}: "
                    f"{self._why(game_id, actor, command, exc)}"
                )
            if self.service.length(game_id) != before:
                summary.problems.append(f"a refused {type(command).__name__} changed the log")
            return False
        self._absorb(outcome)
        return True

    def _keyed(self, game_id: str, actor: Actor) -> None:
        """The actor's device registers its key first, when his player keys it."""
        added = self.devices.registration(self._state(), actor)
        if added is None:
            return
        try:
            self._act(game_id, actor, added)
            dropped = self.devices.moved(self._state(), actor)
            if dropped is not None:
                self._act(game_id, actor, dropped)
        finally:
            self.devices.settled(actor)

    def _signed(
        self, game_id: str, actor: Actor, move: Command
    ) -> tuple[Command, Signature | None]:
        head = (self.version, self.hash)
        return self.devices.signed(self._state(), game_id, head, actor, move)

    def _why(self, game_id: str, actor: Actor, command: Command, exc: Exception) -> str:
        if not isinstance(exc, CourtError):
            return failed(exc)
        if exc.code == "engine_defect":
            return f"engine defect: {defect(self.service, game_id, command, actor, self.clock())}"
        return f"{exc.code}: {exc.message}"

    # -- checks ------------------------------------------------------------------------------

    def _absorb(self, outcome: Outcome) -> None:
        """Fold each new record, check the court after every event and the table's decisions
        over the command's records (server/tools/sim_oracles.py), count what each record
        reached (its type and the rules its line in the history applied), and note the facts
        the host might correct."""
        state, summary = self.state, self._summary()
        written: list[Written] = []
        for record in outcome.records:
            if record.version != self.version + 1:
                summary.problems.append(f"version {record.version} follows {self.version}")
            event = self.service.decode(record)
            before = state if state is not None else initial(GameId(record.game_id))
            state = evolve(before, event)
            written.append(Written(record.version, record.type, record.data, event, before, state))
            self.version, self.hash = record.version, record.hash
            summary.problems.extend(
                f"after version {record.version} ({record.type}): {v}"
                for v in violations(state, event)
            )
            summary.coverage.add(record.type, describe(record, state), record.data)
            if isinstance(event, SeatHanded):
                self.presence.back(event.seat)  # the new player has opened his link
        summary.problems.extend(
            f"after version {self.version}: {p}" for p in table_problems(self.book, written)
        )
        self.book.note(written)
        if state is not None:
            summary.problems.extend(
                f"after version {self.version}, settled: {v}" for v in unsettled(state)
            )
        self.state = state

    def finish(self, game_id: str) -> None:
        """Check the log as exported against the live court and fill in the summary."""
        summary = self._summary()
        live = self.service.current(game_id)
        summary.problems.extend(exported_problems(self.service, game_id))
        summary.known += [p for p in summary.problems if known(p) is not None]
        summary.problems = [p for p in summary.problems if known(p) is None]
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
