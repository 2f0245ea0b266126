"""The bot at the server: it makes the move of a seat the table voted to the bot, a short pause
after the court came to wait on that seat (docs/rules-map.md, "A seat played by the bot").

A publisher, as the deadline watcher is: after every append it learns whether the court waits
on a seat the bot plays, and its thread makes that move once the pause has passed. The move is
chosen on the stored head and sent as chosen on that version (`at`): if anything was appended
in between (the player came back, another process's bot moved first) it is refused as moved on
and nothing is tried again; the append that moved the game on schedules what is due next.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence

from court.commands import Actor, BotMove, Command, TakeSeatBack
from court.errors import CourtError
from court.ids import GameId, Seat
from court.log.chain import Record
from court.options.bot import awaited_bots, bot_move
from court.state import CourtState
from server.live.due import Due
from server.service.court_service import CourtService, Outcome
from server.store.failures import DATABASE_ERRORS, log_failure

log = logging.getLogger("small_council.bots")


class BotPlayer:
    def __init__(
        self,
        service: CourtService,
        pause: float = 3.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.service = service
        self.pause = pause
        self.clock = clock
        self._due: Due[tuple[str, int]] = Due("bots", self._play_due, clock)

    def publish(self, game_id: GameId, records: Sequence[Record], state: CourtState) -> None:
        self.watch(game_id, records[-1].version, state)

    def watch(self, game_id: str, version: int, state: CourtState) -> None:
        """The bot's move is due after the pause when the court at `version` waits on a seat
        it plays."""
        if awaited_bots(state):
            self._due.add(self.clock() + self.pause, (game_id, version))

    def watch_all(self) -> None:
        """At start-up: every stored game that waits on a bot (it waited while no process ran)."""
        service = self.service
        for game_id in service.games():
            try:
                head = service.current(game_id)
            except Exception:
                log.exception("game %s cannot be loaded", game_id)
                continue
            self.watch(game_id, head.version, head.state)

    def play(self, game_id: str, version: int) -> Outcome | None:
        """Make the bot's move for the court at `version`, if the game still stands there and
        waits on a seat the bot plays; never raises, whatever this one game does."""
        service = self.service
        try:
            head = service.current(game_id)
            if head.version != version:
                return None  # moved on: the append that moved it scheduled what is due now
            for seat in awaited_bots(head.state):
                move = bot_move(head.state, seat)
                if move is not None:
                    outcome = self._send(service, game_id, seat, move, version)
                    log.info("the bot moved for seat %s of game %s", seat, game_id)
                    return outcome
        except CourtError as exc:
            if exc.code != "moved_on":
                log.warning("the bot of game %s: %s: %s", game_id, exc.code, exc.message)
        except DATABASE_ERRORS as exc:
            log_failure(log, f"the bot of game {game_id}", exc, service.database)
        except Exception:
            log.exception("the bot of game %s failed", game_id)
        return None

    @staticmethod
    def _send(service: CourtService, game_id: str, seat: Seat, move: Command, at: int) -> Outcome:
        """The move as the seat's page would send it: a ballot's salts are drawn by the
        service, as for any player (R-7.1)."""
        return service.handle(game_id, BotMove(move=move, chosen_at=at), Actor(seat=seat, bot=True))

    def _play_due(self, due: tuple[str, int]) -> None:
        self.play(*due)

    def start(self) -> None:
        self._due.start()

    def stop(self) -> None:
        self._due.stop()


def taken_back(service: CourtService, game_id: str, actor: Actor) -> None:
    """The player of a seat the bot plays opened his own link: he takes the seat back before
    his page is shown (docs/rules-map.md, "A seat played by the bot"). A keyed seat's page
    sends `take_seat_back` signed itself: the server moves for no device."""
    state = service.current(game_id).state
    if actor.seat is None or actor.seat not in state.table.bots:
        return
    if state.devices.keyed(actor.holder):
        return
    try:
        service.handle(game_id, TakeSeatBack(), actor)
    except CourtError as exc:  # taken back already by another of his pages: he plays it
        log.info("seat %s of game %s taken back: %s", actor.seat, game_id, exc.code)
