"""What players type reaches the group's channel as text to read: a name that is a masked
link, a raw URL, a mention or markdown shows as typed in Discord and in Slack, and makes no
link, ping or formatting; the game's own link stays a link."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from server.notify.texts import for_slack, typed
from tests.server.http.court_client import start
from tests.server.notify.conftest import notifying_app, stop
from tests.server.notify.escaping import (
    HOSTILE,
    hostile_game,
    shown_in_discord,
    shown_in_slack,
    unescaped_marks,
)
from tests.server.notify.receiver import receiving, told
from tests.server.notify.webhooks import set_webhook


def test_hostile_names_reach_discord_and_slack_as_plain_text(tmp_path: Path) -> None:
    app = notifying_app(tmp_path, PUBLIC_URL="https://court.example")
    client = app.test_client()
    try:
        game = hostile_game(client)
        with receiving() as receiver:
            set_webhook(client, game, receiver.url)
            start(client, game)
            shown = lambda texts: told([shown_in_discord(t) for t in texts], f"Game {game.id}")  # noqa: E731
            named = lambda texts: all(  # noqa: E731
                any(t.startswith(f"It is {n}'s turn") for t in shown(texts))
                for n in HOSTILE.values()
            )
            receiver.wait_for(named)
            posts = list(receiver.posts)
    finally:
        stop(app)
    link = f"https://court.example/games/{game.id}"
    for post in posts:
        discord, slack = post["content"], post["text"]
        assert post["allowed_mentions"] == {"parse": []} and post["mrkdwn"] is False
        assert discord.endswith(f"\n{link}") and slack.endswith(f"\n{link}")  # ours: a link
        said = discord.removesuffix(f"\n{link}")
        for made in ("](", "https://", "@everyone", "@here", "<@", "<#", "**", "||", "`"):
            assert made not in unescaped_marks(said), (made, said)
        in_slack = slack.removesuffix(f"\n{link}")
        assert "<" not in in_slack and ">" not in in_slack
        assert "https://" not in in_slack and "@everyone" not in in_slack
        assert "@here" not in in_slack
        # each reads as typed
        assert shown_in_slack(in_slack) == shown_in_discord(said)
    read = told([shown_in_discord(p["content"]) for p in posts], f"Game {game.id}")
    assert any(t.startswith(f"It is {HOSTILE['stark']}'s turn") for t in read)


@pytest.mark.parametrize(
    ("name", "made"),
    [
        ("[Claim your seat](https://evil.example)", ("](", "https://")),
        ("https://evil.example/claim", ("https://",)),
        ("evil.com", ("evil.com",)),
        ("<https://evil.example|Claim your seat>", ("<https", "|C")),
        ("@everyone @here", ("@everyone", "@here")),
        ("<@123456> <@&42> <#789> <!channel>", ("<@", "<#", "<!")),
        ("**bold** __under__ *it* _it_ ~~gone~~", ("**", "__", "*i", "_i", "~~")),
        ("||spoiler|| `code` ```block```", ("||", "`")),
        ("> quote", ("> ",)),
        ("# Heading", ("# ",)),
        ("-# small", ("-#",)),
        (":smile: <:pog:123>", (":smile:", "<:")),
        ("Ann & Bob <3", ()),
        ("back\\slash\\*", ("\\*",)),
    ],
)
def test_a_typed_name_reads_as_typed_and_makes_nothing_in_discord_or_slack(
    name: str, made: tuple[str, ...]
) -> None:
    discord = typed(name)
    assert [m for m in made if m in unescaped_marks(discord)] == []
    assert shown_in_discord(discord) == name
    # Slack reads no mrkdwn in it (the payload says so): only links and mentions could be
    # made, and none is
    slack = for_slack(discord)
    assert "<" not in slack and ">" not in slack
    assert re.search(r"://|@\w|\.\w", slack) is None
    assert shown_in_slack(slack) == name


def test_the_notice_s_own_words_and_link_are_left_as_they_are() -> None:
    text = "It is Ann's turn: Warden of the North election, ballot. https://court.example/games/a"
    assert for_slack(text) == text
