"""The end of the game by mail: a seeded game the simulator plays to its end (R-4.7, R-4.8),
every seat away from the table with a verified address, reaches a local SMTP receiver with each
seat's "is over" mail, telling the winners and the standings in plain words, the results
revealed on the way, and its turns no more often than the gap."""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from config.rulesdata import load_ruleset
from court.ids import GameId
from court.log.chain import Record
from court.state import CourtState
from server.keys import InstanceSecret
from server.notify.mail import SmtpSettings
from server.notify.reminders import MailSettings, Reminders, digest
from server.notify.sender import OutboxSender, SendSettings
from server.notify.sends import SendGate
from server.notify.urls import UrlPolicy
from server.store.mail import Given, MailStore
from server.store.sql import SqlEventStore
from server.tools.simulate import Simulation
from tests.server.notify.smtp import SmtpReceiver, smtp_receiving

WON_AT_A_CHECK = 3  # a seed whose three-player game is won at a victory check


class SeatsGiveAddresses:
    """A publisher after the reminders': once every seat is taken, each seat's player gives
    seat<N>@example.org and opens the mailed link (its code's digest, as the route keeps it);
    a player given a seat handed to him (simulated tables hand seats on) gives it again."""

    def __init__(self, mail: MailStore, reminders: Reminders, players: int) -> None:
        self.mail, self.reminders, self.players = mail, reminders, players
        self.tokens: dict[int, str] = {}  # seat -> the token that gave its address
        self.holders: dict[int, int] = {}  # seat -> how many players gave an address for it

    def publish(self, game_id: GameId, records: Sequence[Record], state: CourtState) -> None:
        if len(state.seats) < self.players:
            return
        now = int(time.time() * 1000)
        fresh = {s: i for s, i in state.seats.items() if self.tokens.get(s) != i.token_sha256}
        for seat, info in fresh.items():
            code = f"code-{seat}"
            given = Given(
                token_sha256=info.token_sha256,
                address=f"seat{seat}@example.org",
                code_sha256=digest(code),
                code_expires=now + 60_000,
            )
            self.mail.set_address(game_id, seat, given, now)
            assert self.reminders.mail.verify(game_id, digest(code), now)
            self.tokens[seat] = info.token_sha256
            self.holders[seat] = self.holders.get(seat, 0) + 1
        if fresh:
            self.reminders.load()


@pytest.fixture
def smtp() -> Iterator[SmtpReceiver]:
    with smtp_receiving() as receiver:
        yield receiver


def test_every_seat_away_is_mailed_the_end_of_the_game(tmp_path: Path, smtp: SmtpReceiver) -> None:
    store = SqlEventStore(f"sqlite:///{tmp_path}/end.db")
    store.create_schema()
    server = SmtpSettings(
        host="127.0.0.1", port=smtp.port, security="none", sender="court@example.org"
    )
    mailing = MailSettings(smtp=server, public_url="https://court.example.org", turn_gap=3600.0)
    gate = SendGate(store.sends, InstanceSecret.random().mac)
    reminders = Reminders(store.mail, mailing, gate=gate, connected=lambda game_id: ())
    simulation = Simulation(
        store, load_ruleset("default"), players=3, rounds=40, seed=WON_AT_A_CHECK
    )
    giving = SeatsGiveAddresses(store.mail, reminders, players=3)
    simulation.service.publishers += [reminders, giving]
    sender = OutboxSender(
        store.mail, UrlPolicy(), SendSettings(timeout=2.0, backoff=0.05), deliver=reminders.deliver
    )
    try:
        summary = simulation.run()
        while sender.send_due():
            pass

        assert summary.status == "ended" and summary.winners, summary
        ended = [r for r in store.read(summary.game_id) if r.type == "GameEnded"]
        assert len(ended) == 1
        # the game as its name calls it in the end (the simulated host renames it now and then)
        named = ("GameCreated", "GameRenamed")
        name = [r.data.get("name") for r in store.read(summary.game_id) if r.type in named][-1]
        called = f"“{name}”" if name else f"game {summary.game_id}"
        assert len(giving.holders) == 3
        for seat in sorted(giving.holders):  # the seats the simulated table took
            mails = smtp.to(f"seat{seat}@example.org")
            [over] = [m for m in mails if m.subject.endswith("is over")]
            assert called in over.subject and " won " in over.text
            # The last notice reads as a sentence with the standings, without rule ids.
            assert "Standings: " in over.text and "R-" not in over.text
            assert f"https://court.example.org/games/{summary.game_id}" in over.text
            assert any(m.subject.startswith("Results") for m in mails)
            # one "your turn" an hour at most to each player of the seat: the whole game is
            # played within one
            turns = sum(m.subject.startswith("Your turn") for m in mails)
            assert turns <= giving.holders[seat], (turns, giving.holders)
        rows = store.mail.rows(summary.game_id)
        assert rows and all(r["state"] == "sent" for r in rows)
    finally:
        store.close()
