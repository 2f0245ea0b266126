"""A game's name in what reaches the players away from the page: each webhook notice is led by
it, escaped like every typed name (a name that is a link or a mention makes none), and the
reminders by mail name the game by it in their subject and text."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from tests.server.http.court_client import lobby_game, start
from tests.server.http.north_election import to_the_north_election
from tests.server.notify.conftest import notifying_app, stop
from tests.server.notify.escaping import shown_in_discord, shown_in_slack, unescaped_marks
from tests.server.notify.mailing import ANN, CANDIDACY, mail_app, verified
from tests.server.notify.mailing import stop as stop_mail
from tests.server.notify.receiver import receiving
from tests.server.notify.smtp import smtp_receiving
from tests.server.notify.webhooks import set_webhook

HOSTILE = "[Claim](https://evil.example) @everyone **x**"


def test_each_notice_is_led_by_the_game_s_name_as_typed_and_making_nothing(
    tmp_path: Path,
) -> None:
    app = notifying_app(tmp_path, PUBLIC_URL="https://court.example")
    client = app.test_client()
    try:
        game = lobby_game(client, name=HOSTILE)
        with receiving() as receiver:
            set_webhook(client, game, receiver.url)
            start(client, game)
            receiver.wait_for(lambda texts: any("'s turn" in t for t in texts))
            posts = list(receiver.posts)
    finally:
        stop(app)
    assert any(f"{HOSTILE}: It is " in shown_in_discord(p["content"]) for p in posts)
    for post in posts:
        discord, slack = post["content"], post["text"]
        assert shown_in_discord(discord).startswith(f"{HOSTILE}: ")
        assert shown_in_slack(slack).startswith(f"{HOSTILE}: ")
        said = unescaped_marks(discord.split("\nhttps://court.example/")[0])
        for made in ("](", "https://", "@everyone", "**"):
            assert made not in said, (made, discord)
        assert "@everyone" not in slack and "https://evil" not in slack


def test_a_reminder_by_mail_names_the_game(tmp_path: Path) -> None:
    with smtp_receiving() as smtp:
        app = mail_app(tmp_path, smtp)
        client = app.test_client()
        try:
            lobby = lobby_game(client, name="The Red Wedding")
            game = replace(lobby, started=start(client, lobby))
            verified(client, game, "lannister", ANN, smtp)
            to_the_north_election(client, game)
            smtp.wait_for(lambda mails: any(CANDIDACY in m.text for m in mails))
        finally:
            stop_mail(app)
        [turn] = [m for m in smtp.to(ANN) if CANDIDACY in m.text]
        assert turn.subject == "Your turn in Small Council “The Red Wedding”"
        assert "it is your turn in “The Red Wedding”: " in turn.text
