"""Simulated games: whole games played with random legal moves and random recorded facts,
through the real service and event store, checking the court after every event.

Each game draws its rules profile: every setting from its allowed values (court/model/profile.py),
recorded in its first event as any profile is. Every move is drawn from `rules.legal_commands`
(server/tools/sim_moves.py picks it as a table would), so a listed move the court refuses is a
defect and is reported. Facts are drawn by `sim_facts` at every moment of the round (mid decree
step, mid ballot, while a title choice waits, during the sale) and may be impossible: a refused
fact must leave the log as it was. Seats change hands now and then, in the lobby and in play;
players close their pages and come back, and the table decides together (sim_votes.py): the
others vote to replace a player gone for the profile's time, a table tired of its game votes to
end it, and the host corrects facts he recorded (sim_corrections.py) while the seats answer.
After every event the court keeps its invariants (the event's own included); after every command
the server's follow-ups must have settled the court (`court/soundness/settled.py`) and someone must
be able to move (no game may stall, R-4.3). After the game, the state rebuilt from the exported log
must equal the live state. A seed makes a game repeatable: same seed, same log.
"""

from __future__ import annotations

import random
from typing import Any

from config.profile_rules import random_profile
from court.commands import (
    SPECTATOR,
    Actor,
    ChangeListing,
    CloseOverdueStep,
    CreateGame,
    JoinSeat,
    LeaveSeat,
    ProposeCorrection,
    RemoveSeat,
    StartGame,
    VoteToReplace,
)
from court.decide import rounds, table_votes
from court.ids import HouseId, Seat
from court.model import invites
from court.options.legal import legal_commands
from court.state import CourtState, GameStatus
from server.keys import ServerKeys
from server.service.ports import EventStore
from server.tools.sim_bots import bot_turn, bot_vote, returning
from server.tools.sim_corrections import random_correction, second_thought
from server.tools.sim_facts import random_fact
from server.tools.sim_moves import host_vote, pick, seat_change
from server.tools.sim_table import GameSummary, critical, moment
from server.tools.sim_votes import absence, gone_long, rename, replace_vote
from server.tools.sim_watch import Stopped, WatchedGame

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
# How often the table does something besides the game, and what: a player leaves or comes
# back, a seat votes to replace one who is gone, the host corrects a fact or renames the game.
TABLE_RATE = 0.05
TABLE_ACTIONS = {"absence": 4.0, "replace": 3.0, "correct": 3.0, "rename": 0.3}
# How often a player who is away keeps away while the others have moves to make; when only he
# has, how often the table waits for him (time passes, or it votes him out) instead.
STAYS_AWAY, WAITS = 0.9, 0.5
WAITING = (60, 300, 900)
# How many tables tire of their game and vote to end it, from a round drawn for each.
TIRED_RATE = 0.15


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


class Simulation(WatchedGame):
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
        super().__init__(store, seed, keys)
        self.ruleset = ruleset
        self.players, self.rounds, self.seed = players, rounds, seed
        self.variants, self.random_rules = variants, random_rules
        self.fact_rate, self.max_commands = fact_rate, max_commands
        self.invite: str | None = None
        self.tired_from: int | None = None
        # The bot's choices draw apart: a game no seat votes the bot into plays as it did.
        self.bot_rng = random.Random(f"bot-{seed}")

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
        create = CreateGame(
            ruleset=ruleset,
            players=self.players,
            host_name="Simulated host",
            variants=variants,
            deadlines=deadlines,
        )
        created = self.service.handle(None, create, Actor(host=True))
        game_id = created.state.game_id
        self.summary = summary = GameSummary(
            game_id, self.players, self.seed, variants, ruleset["profile"]["name"]
        )
        if self.rng.random() < TIRED_RATE:
            self.tired_from = self.rng.randint(1, self.rounds)
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
        join = JoinSeat(house=HouseId(house), player_name=name, invite=self.invite)
        outcome = self.service.handle(game_id, join, joiner)
        self._absorb(outcome)
        return max(self._state().seats)

    def _step(self, game_id: str) -> bool:
        """One command; False when the game is over or has played its rounds."""
        state = self._state()
        if state.status is not GameStatus.PLAYING or state.round > self.rounds:
            return False
        if rounds.overdue(state, self.clock()):
            self._act(game_id, self._host(), CloseOverdueStep())
            self._summary().timeouts += 1
            return True
        if self._bot(game_id, state):
            return True
        if self.rng.random() < SEAT_RATE:
            self._change_seat(game_id, state)
            return True
        if self.rng.random() < TABLE_RATE:
            self._table(game_id, state)
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
        return self._move(game_id, state)

    def _move(self, game_id: str, state: CourtState) -> bool:
        """A listed move, mostly by a player who is here; False when the game stalls."""
        moves = [(a, m) for a in self._actors(state) for m in legal_commands(state, a)]
        if all(isinstance(m, table_votes.LISTED) for _, m in moves):
            # Someone always has a move (a pass at least): a court waiting for nobody stalls.
            # The table's votes keep no game moving: they are open all game long.
            self._summary().problems.append(
                f"version {self.version}: the game stalled: nobody has a legal move "
                f"({moment(state)})"
            )
            return False
        gone = self.presence.gone
        present = [(a, m) for a, m in moves if a.seat not in gone]
        if all(isinstance(m, table_votes.LISTED) for _, m in present):
            # Only a player who is away can move the game on.
            if self.rng.random() < WAITS:
                self._wait(game_id, state)
                return True
        elif len(present) < len(moves) and self.rng.random() < STAYS_AWAY:
            moves = present
        tired = self.tired_from is not None and state.round >= self.tired_from
        actor, move = pick(state, self.rng, moves, tired=tired)
        if actor.seat is not None:
            self.presence.back(actor.seat)
        self._act(game_id, actor, move)
        self._summary().moves += 1
        self.clock.now += self.rng.choice(PAUSES)
        return True

    def _bot(self, game_id: str, state: CourtState) -> bool:
        """A player back at a seat the bot plays takes it over, or the bot makes its move."""
        move = returning(state, self.presence) or bot_turn(
            state, self.bot_rng, self.version, self.service.secrets.salt
        )
        if move is not None:
            self._act(game_id, *move)
        return move is not None

    def _wait(self, game_id: str, state: CourtState) -> None:
        """The table waits for a player who is away: it votes him out when he has been gone
        for the profile's time (a new host first, if he holds the role), or time passes."""
        now = self.clock()
        vote = None
        if any(gone_long(state, self.presence, s, now) for s in self.presence.gone):
            vote = replace_vote(state, self.rng, self.presence, now)
        elif state.host_seat() in self.presence.gone:
            change = host_vote(state, self.rng, self.presence, now)
            if change is not None:
                self._try(game_id, *change)
                return
        if vote is None:
            self.clock.now += self.rng.choice(WAITING)
        else:
            self._replace(game_id, vote)

    def _table(self, game_id: str, state: CourtState) -> None:
        """What the table does besides the game: a player leaves or comes back, a seat votes
        to replace one who is gone (R-9.2), the host corrects a fact (R-9.1) or renames the
        game; many of these are refused, which must leave the log as it was."""
        actions = list(TABLE_ACTIONS)
        action = self.rng.choices(actions, weights=list(TABLE_ACTIONS.values()))[0]
        now = self.clock()
        if action == "absence":
            absence(state, self.rng, self.presence, now)
        elif action == "replace":
            vote = replace_vote(state, self.rng, self.presence, now)
            if vote is not None:
                self._replace(game_id, vote)
        elif action == "correct":
            # A host mostly lets the table answer one correction before he proposes another.
            if state.table.correction is None or self.rng.random() < 0.1:
                self._correct(game_id, state, random_correction(state, self.rng, self.book))
        else:
            self._try(game_id, *rename(state, self.rng))

    def _correct(self, game_id: str, state: CourtState, fix: ProposeCorrection) -> None:
        """The host proposes a correction; one the court takes to a vote is counted by the
        moment of the round it came at, and by whether records followed the one it names."""
        head = self.book.head
        if self._try(game_id, self._host(), fix):
            taken = self._summary().corrections
            taken[moment(state)] += 1
            taken["after later records" if fix.version < head else "of the last"] += 1

    def _replace(self, game_id: str, vote: tuple[Actor, Seat]) -> None:
        actor, seat = vote
        bot = bot_vote(self._state(), self.bot_rng, seat)
        self._try(game_id, actor, VoteToReplace(seat=seat, bot=bot))

    def _change_seat(self, game_id: str, state: CourtState) -> None:
        """A seat handed to a new device, the host role handed on, or a vote for a new host."""
        change = seat_change(state, self.rng, self.presence, self.clock())
        if change is not None:
            self._act(game_id, *change)

    def _record_fact(self, game_id: str, state: CourtState) -> None:
        summary = self._summary()
        summary.moments[moment(state)] += 1
        fact = random_fact(state, self.rng, summary.facts + summary.facts_refused)
        since = self.book.head
        if not self._try(game_id, self._host(), fact):
            summary.facts_refused += 1
            return
        summary.facts += 1
        # The host may see at once that he misread the table: he proposes to correct the
        # fact before anything else is recorded (unless a correction is already open).
        now = self._state()
        if now.table.correction is None:
            fix = second_thought(now, self.rng, self.book, since)
            if fix is not None:
                self._correct(game_id, now, fix)


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
    except Stopped:  # a listed move refused: already named in the summary's problems
        summary = simulation.summary
        assert summary is not None
        simulation.finish(summary.game_id)
        summary.status = "stopped"
        return summary
