"""Closing steps at their deadline (R-4.3): at start-up for every game, then as they fall due.

The watcher is a publisher: after every command it learns the game's next deadline.
Closing is an ordinary command (`CloseOverdueStep`) decided on the stored state, so a
deadline closed by another process first is simply refused as not overdue. With several
processes every one of them watches every announced deadline (server/live/relay.py): the first
close wins the append, the others lose the race and are refused quietly.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence

from court.commands import SPECTATOR, CloseOverdueStep
from court.decide.rounds import next_deadline, overdue
from court.errors import CourtError
from court.ids import GameId
from court.log.chain import Record
from court.state import CourtState
from server.live.due import Due
from server.service.court_service import CourtService
from server.store.failures import DATABASE_ERRORS, log_failure

log = logging.getLogger("small_council.deadlines")
RETRY_SECONDS = 5.0  # before a close the database could not take is tried again


class DeadlineWatcher:
    def __init__(self, service: CourtService, clock: Callable[[], float] = time.time):
        self.service = service
        self.clock = clock
        self._due: Due[str] = Due("deadlines", self._close, clock)

    def publish(self, game_id: GameId, records: Sequence[Record], state: CourtState) -> None:
        if any(record.type == "GameEnded" for record in records):
            self.forget(game_id)
            log.info("game %s ended: no step of it is closed by the clock any more", game_id)
            return
        self.watch(game_id, state)

    def forget(self, game_id: str) -> None:
        """Watch no deadline of the game any more: an ended game has none left to close."""
        self._due.drop(lambda due: due == game_id)

    def watch(self, game_id: str, state: CourtState) -> None:
        deadline = next_deadline(state)
        if deadline is not None:
            self.watch_deadline(game_id, deadline)

    def watch_deadline(self, game_id: str, deadline: float) -> None:
        """Try to close the game's open step at `deadline` (once, however often it is
        announced: by this process's commands or by another process's)."""
        self._due.add(deadline, game_id)

    def close_overdue_now(self) -> int:
        """Close every overdue step of every stored game; returns how many were closed. One
        game that cannot be loaded or closed is logged and skipped: it never keeps the others
        from being served (R-4.3)."""
        closed = 0
        service = self.service
        for game_id in service.games():
            try:
                head = service.current(game_id)
            except CourtError as exc:
                log.warning("game %s cannot be loaded: %s", game_id, exc.message)
                continue
            except Exception:
                log.exception("game %s cannot be loaded", game_id)
                continue
            if overdue(head.state, self.clock()):
                closed += self._close(game_id)
            else:
                self.watch(game_id, head.state)
        return closed

    def _close(self, game_id: str) -> int:
        """Close the game's overdue step; never raises, whatever this one game does."""
        try:
            outcome = self.service.handle(game_id, CloseOverdueStep(), SPECTATOR)
        except CourtError as exc:
            # Not overdue, or over (another process may have ended it): nothing to close.
            if exc.code not in ("not_overdue", "game_ended"):
                log.warning("closing game %s: %s: %s", game_id, exc.code, exc.message)
            return 0
        except DATABASE_ERRORS as exc:
            # Logged once for the whole outage; the step is closed once the database answers.
            log_failure(log, f"closing game {game_id}", exc, self.service.database)
            self.watch_deadline(game_id, self.clock() + RETRY_SECONDS)
            return 0
        except Exception:
            log.exception("closing an overdue step of game %s failed", game_id)
            return 0
        log.info("closed an overdue step of game %s at version %s", game_id, outcome.version)
        return 1

    def start(self) -> None:
        self._due.start()

    def stop(self) -> None:
        self._due.stop()
