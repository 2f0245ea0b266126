"""A game's webhook and what it is told (its digest, digest.py), set by its host, and the
publisher that fills the outbox with the notices of each command for the games that have one.

The publisher runs under the game's lock after every command of every game, so a game without
a webhook costs one lookup in a set held in memory; the set is read from the database at
start-up, changed at once by this process's hosts and read again by the sender every few
seconds (another process's host may have set one). Each notice is due a few seconds after
it is made (`group`), so that what follows within them goes out in the same post. The webhook
URL is read back by nobody but the host, and never logged.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence

from court.errors import CourtError
from court.ids import GameId
from court.log.chain import Record
from court.state import CourtState
from server.notify.delivery import Post, post
from server.notify.digest import TOLD, Digest, Told, notices_of
from server.notify.sender import OutboxSender
from server.notify.sends import HOUR_MS, SendGate
from server.notify.texts import game_page, post_text, typed
from server.notify.urls import Resolver, UrlPolicy, check_url, pin, resolve
from server.store.notices import HELD, NoticeStore
from server.store.sends import Limit, Scope

TEST_TEXT = "this channel is set up: Small Council will post here {told}."
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
        group: float = 0.0,
    ) -> None:
        """`group`: seconds each notice waits for those that follow it into the same post."""
        self.notices = notices
        self.policy = policy
        self.gate = gate  # the limits on test posts
        self.clock = clock
        self.resolver = resolver
        self.public_url = public_url
        self.group = group
        self.sender: OutboxSender | None = None  # woken after an insert
        self._games: dict[str, Digest] = {}  # the games with a webhook, and their digests
        self._told: dict[str, Told] = {}  # what each game's chat was told of last
        self._guard = threading.Lock()

    def load(self) -> None:
        """Read which games have a webhook (start-up, and every few seconds after)."""
        self._games = {g: _digest(d) for g, d in self.notices.games_with_webhooks().items()}

    def publish(self, game_id: GameId, records: Sequence[Record], state: CourtState) -> None:
        digest = self._games.get(game_id)
        if digest is None:
            return
        with self._guard:
            told = self._told.get(game_id, Told())
            found, self._told[game_id] = notices_of(game_id, records, state, told, digest)
        now = self._ms()
        due = now + int(self.group * 1000)
        released = self.notices.release(game_id, due) if found.release else 0
        self.notices.enqueue(found.held, now, HELD)
        self.notices.enqueue(found.now, now, due)
        if (released or found.now) and self.sender is not None:
            self.sender.wake()

    def compose(self, game_id: str, lead: str, texts: Sequence[str]) -> str:
        """A post of the game's notices (the sender's): under its lead, with its link."""
        link = game_page(self.public_url, game_id) if self.public_url else ""
        return post_text(lead, texts, link)

    # -- the host's setting -------------------------------------------------

    def set_webhook(self, game_id: str, url: str, digest: Digest = Digest.STEPS) -> None:
        """Keep the game's webhook, checked (urls.py), and what it is told: its notices start
        with the next turn. Notices held for a step's summary go out now unless step
        summaries are still wanted."""
        checked = check_url(url, self.policy, self.resolver)
        self.notices.set_webhook(game_id, checked, self._ms(), digest.value)
        if digest is not Digest.STEPS:
            self.notices.release(game_id, self._ms())
        with self._guard:
            self._games = {**self._games, game_id: digest}
            self._told.pop(game_id, None)

    def remove_webhook(self, game_id: str) -> bool:
        removed = self.notices.remove_webhook(game_id)
        self.notices.release(game_id, self._ms())  # to be marked failed: no webhook is left
        with self._guard:
            self._games = {g: d for g, d in self._games.items() if g != game_id}
            self._told.pop(game_id, None)
        return removed

    def webhook(self, game_id: str) -> str | None:
        return self.notices.webhook(game_id)

    def setting(self, game_id: str) -> tuple[str | None, Digest]:
        """The game's webhook URL (None: none) and what it is told."""
        return self.notices.webhook(game_id), _digest(self.notices.digest(game_id))

    def send_test(
        self, game_id: str, url: str, name: str, timeout: float, send: Post = post
    ) -> None:
        """Post a test message to `url` now, naming the game `name` and what the chat will be
        told (the host waits for the answer), within TEST_LIMITS (CourtError past one);
        DeliveryFailed says why it did not arrive."""
        target = pin(url, self.policy, self.resolver)
        reached = self.gate.reserve(TEST, game_id, None, target.url, self._ms(), list(TEST_LIMITS))
        if reached is not None:
            raise CourtError(*TEST_LIMITS[reached])
        told = TOLD[_digest(self.notices.digest(game_id))]
        send(target, self.compose(game_id, typed(name), [TEST_TEXT.format(told=told)]), timeout)

    def _ms(self) -> int:
        return int(self.clock() * 1000)


def _digest(stored: str | None) -> Digest:
    """A stored digest; a value this server does not know reads as step summaries."""
    try:
        return Digest(stored or Digest.STEPS)
    except ValueError:
        return Digest.STEPS
