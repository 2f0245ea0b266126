"""The table around a simulated game: its clock and seeded secrets, its book of connections,
where the round stands when a fact is recorded, the records a command wrote as they are folded,
and the summary a game leaves (its problems, its facts, and what it reached:
server/tools/coverage.py)."""

from __future__ import annotations

import random
import secrets
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from court.events import Event
from court.ids import Seat
from court.state import CourtState
from server.tools.coverage import Coverage

START_TIME = 1_800_000_000.0


def critical(state: CourtState) -> bool:
    """A moment where a fact changes what a step does: a decree turn acting through a title
    (R-6.7), an election under way (R-7.2), a title choice waiting, the council seat's sale
    (its reveal drops the bids of Houses left without a Warden off the council) and its
    buyer choosing his Warden (R-4.6)."""
    decree = state.decree
    return (
        state.pending is not None
        or state.election is not None
        or (decree is not None and decree.power is not None)
        or state.auction is not None
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


@dataclass(frozen=True, slots=True)
class Written:
    """A record a command wrote, as the simulation folds it: the court before and after it."""

    version: int
    type: str
    data: dict[str, Any]
    event: Event
    before: CourtState
    after: CourtState


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


class SimPresence:
    """The book of connections of a simulated table, as the service asks it about the host and
    about a seat the others would replace: a seat's player leaves and comes back when the
    simulation says so; a seat handed to a new player is present."""

    def __init__(self) -> None:
        self.gone: dict[Seat, float] = {}

    def leave(self, seat: Seat, now: float) -> None:
        self.gone.setdefault(seat, now)

    def back(self, seat: Seat) -> None:
        self.gone.pop(seat, None)

    def away_since(self, seat: Seat | None) -> float | None:
        return None if seat is None else self.gone.get(seat)

    def host_away_since(
        self, game_id: str, host_seat: Seat | None, not_before: float
    ) -> float | None:
        since = self.away_since(host_seat)
        return None if since is None else max(since, not_before)


@dataclass
class GameSummary:
    game_id: str
    players: int
    seed: int
    variants: dict[str, bool]
    profile: str = "default"
    status: str = ""
    round: int = 0
    records: int = 0
    moves: int = 0
    facts: int = 0
    facts_refused: int = 0
    timeouts: int = 0
    winners: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    # Problems of breaches already reproduced by a finding test (server/tools/sim_oracles.py).
    known: list[str] = field(default_factory=list)
    # Facts recorded (or refused) at each moment of the round (see `moment`), and the
    # corrections proposed and taken to a vote at each, or after later records.
    moments: Counter[str] = field(default_factory=Counter)
    corrections: Counter[str] = field(default_factory=Counter)
    coverage: Coverage = field(default_factory=Coverage)

    def line(self) -> str:
        on = ",".join(v for v, used in self.variants.items() if used) or "none"
        winners = ",".join(self.winners) or "-"
        return (
            f"game {self.game_id} seed {self.seed}: {self.players} players, variants {on}, "
            f"profile {self.profile}, {self.status} in round {self.round}, {self.records} "
            f"events, {self.moves} moves, {self.facts} facts ({self.facts_refused} refused), "
            f"{self.timeouts} timeouts, winners {winners}, known findings {len(self.known)}, "
            f"problems {len(self.problems)}"
        )
