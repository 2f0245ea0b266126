"""A game's webhook, set by its host, and the publisher that fills the outbox with the notices
of each command (server/notify/texts.py) for the games that have one.

The publisher runs under the game's lock after every command of every game, so a game without
a webhook costs one lookup in a set held in memory; the set is read from the database at
start-up, changed at once by this process's hosts and read again by the sender every few
seconds (another process's host may have set one). The webhook URL is read back by nobody but
the host, and never logged.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence

from court.chain import Record
from court.errors import CourtError
from court.ids import GameId
from court.state import CourtState
from server.notify.delivery import Post, post
from server.notify.sender import OutboxSender
from server.notify.sends import HOUR_MS, SendGate
from server.notify.texts import game_page, notices_of, typed
from server.notify.urls import Resolver, UrlPolicy, check_url, pin, resolve
from server.store.notices import Notice, NoticeStore
from server.store.sends import Limit, Scope

TEST_TEXT = "Small Council: this channel will be told whose turn it is in game {game}."
TEST = "webhook_test"  # what the sends' limits count a test post as
# Test posts in an hour, at most: a game's host tests his own channel a few times, and nobody
# makes the court post to a stranger's URL over and over from one game or from many.
TEST_LIMITS = {
    Limit(Scope.GAME, 10, HOUR_MS): (
        "webhook_tests_game",
        "This game's webhook was tested 10 times in the last hour: try again later.",
    ),
    Limit(Scope.TARGET, 30, HOUR_MS): (
        "webhook_tests_url",
        "This webhook was tested 30 times in the last hour: try again later.",
    ),
}


class Notifier:
    """The outbox's publisher and the host's webhook setting."""

    def __init__(
        self,
        notices: NoticeStore,
        policy: UrlPolicy,
        *,
        gate: SendGate,
        clock: Callable[[], float] = time.time,
        resolver: Resolver = resolve,
        public_url: str = "",
    ) -> None:
        self.notices = notices
        self.policy = policy
        self.gate = gate  # the limits on test posts
        self.clock = clock
        self.resolver = resolver
        self.public_url = public_url
        self.sender: OutboxSender | None = None  # woken after an insert
        self._games: frozenset[str] = frozenset()
        self._turns: dict[str, str | None] = {}  # the last turn told, per game
        self._guard = threading.Lock()

    def load(self) -> None:
        """Read which games have a webhook (start-up, and every few seconds after)."""
        self._games = frozenset(self.notices.games_with_webhooks())

    def publish(self, game_id: GameId, records: Sequence[Record], state: CourtState) -> None:
        if game_id not in self._games:
            return
        with self._guard:
            found, self._turns[game_id] = notices_of(
                game_id, records, state, self._turns.get(game_id)
            )
        if found:
            self.notices.enqueue([self._linked(n) for n in found], self._ms())
            if self.sender is not None:
                self.sender.wake()

    def _linked(self, notice: Notice) -> Notice:
        if not self.public_url:
            return notice
        link = game_page(self.public_url, notice.game_id)
        return Notice(notice.game_id, notice.key, f"{notice.text} {link}")

    # -- the host's setting -------------------------------------------------

    def set_webhook(self, game_id: str, url: str) -> None:
        """Keep the game's webhook, checked (urls.py): its notices start with the next turn."""
        checked = check_url(url, self.policy, self.resolver)
        self.notices.set_webhook(game_id, checked, self._ms())
        with self._guard:
            self._games = self._games | {game_id}
            self._turns.pop(game_id, None)

    def remove_webhook(self, game_id: str) -> bool:
        removed = self.notices.remove_webhook(game_id)
        with self._guard:
            self._games = self._games - {game_id}
            self._turns.pop(game_id, None)
        return removed

    def webhook(self, game_id: str) -> str | None:
        return self.notices.webhook(game_id)

    def send_test(self, game_id: str, url: str, timeout: float, send: Post = post) -> None:
        """Post a test message to `url` now (the host waits for the answer), within
        TEST_LIMITS (CourtError past one); DeliveryFailed says why it did not arrive."""
        target = pin(url, self.policy, self.resolver)
        reached = self.gate.reserve(TEST, game_id, None, target.url, self._ms(), list(TEST_LIMITS))
        if reached is not None:
            raise CourtError(*TEST_LIMITS[reached])
        send(target, TEST_TEXT.format(game=typed(game_id)), timeout)

    def _ms(self) -> int:
        return int(self.clock() * 1000)
