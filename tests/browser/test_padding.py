"""The web client sends every sealed choice at one length (static/lib/padding.js): Chromium runs
the page's own live.js, and the WebSocket frames it sends for placements of either kind on
a short or a long id, and for bids of any amount, are measured as they leave the browser."""

from __future__ import annotations

from typing import Any

from tests.browser.court_http import HttpCourt
from tests.browser.players import open_person
from tests.live_server import LiveServer

# In the page: connect to the game as a spectator through live.js, send each payload, and
# wait for every answer (a spectator is refused, which changes nothing of what was sent).
SEND_ALL = """async ([gameId, sends]) => {
  const { connectCourt } = await import("/static/lib/live.js");
  const live = await new Promise((resolve) => {
    const court = connectCourt({
      gameId, token: () => null, onWelcome: () => resolve(court),
      onEvents: () => {}, onPresence: () => {}, onStatus: () => {},
    });
  });
  for (const [message, payload] of sends) {
    await live.send(message, payload).catch(() => null);
  }
}"""

BALLOTS = [
    {"markers": [{"kind": "for", "candidate": "robb-stark"}]},
    {"markers": [{"kind": "decoy", "candidate": "robb-stark"}]},
    {"markers": [{"kind": "for", "candidate": "jaime-lannister"}]},
    {"markers": [{"kind": "decoy", "candidate": "x" * 64}]},
    {"markers": [{"kind": "for", "candidate": "x" * 64}, {"kind": "decoy", "candidate": "a"}]},
    {"markers": []},
]
BIDS = [{"amount": 0}, {"amount": 7}, {"amount": 10_000}]


def sent_lengths(chromium: Any, server: LiveServer, sends: list[tuple[str, dict]]) -> list[int]:
    """The byte length of each frame the page sent for one of `sends`, in order."""
    game = HttpCourt(server.url)
    person = open_person(chromium, "watcher", f"{server.url}/")
    sent: list[str] = []
    person.page.on(
        "websocket", lambda ws: ws.on("framesent", lambda frame: sent.append(str(frame)))
    )
    try:
        person.page.evaluate(SEND_ALL, [game.id, [list(s) for s in sends]])
    finally:
        person.context.close()
    names = {message for message, _ in sends}
    ours = [f for f in sent if any(f'["{name}",' in f for name in names)]
    assert len(ours) == len(sends), sent
    return [len(frame.encode()) for frame in ours]


def test_the_page_sends_every_placement_and_bid_at_one_length(
    chromium: Any, server: LiveServer
) -> None:
    ballots = sent_lengths(chromium, server, [("place_ballot", b) for b in BALLOTS])
    bids = sent_lengths(chromium, server, [("place_bid", b) for b in BIDS])

    assert len(set(ballots)) == 1, ballots
    assert len(set(bids)) == 1, bids
