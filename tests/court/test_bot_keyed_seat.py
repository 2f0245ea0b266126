"""The bot plays a seat whose player keyed his device (R-9.2): its moves are the server's, made
unsigned and marked by the `BotPlayed` before them, and `verify` believes them as such; a
record of that seat outside the bot's move still needs a key of the seat."""

from __future__ import annotations

from court.audit import audit
from court.commands import Actor, StartGame, VoteToReplace
from court.decide.signed import decide_move
from court.events import BotPlayed
from tests.court.chained_logs import Line, chained, rechain
from tests.court.fold_bots import GONE, until_the_bot_is_awaited
from tests.court.given import Table, created, joined, seat
from tests.court.signing import Device

PHONE = Device(31)


def keyed_seat_played_by_bot() -> tuple[Table, int, int]:
    """A game of 4 where seat 3's phone keyed the seat, the table voted the bot in for it and
    the bot made a move: the table, the index of the key's record and of `BotPlayed`."""
    host = seat(0, host=True)
    table = Table(
        created(4, table_votes__replace_after=600),
        joined(0, host=True),
        *(joined(i) for i in range(1, 4)),
    )
    table.act(StartGame(), host, now=1000.0)
    key = len(table.events)
    events, _ = decide_move(table.state, PHONE.registers(), seat(3), 1000.0)
    table.add(*events)
    bot = VoteToReplace(seat=GONE, bot=True, away_since=1100.0)
    table.act(bot, seat(1), now=1800.0)
    table.act(bot, seat(2), now=1810.0)
    move = until_the_bot_is_awaited(table, host)
    played = len(table.events)
    events, _ = decide_move(table.state, move, Actor(seat=GONE, bot=True), 1850.0)
    table.add(*events)
    return table, key, played


def logged(table: Table, key: int, played: int) -> list[Line]:
    """The log as the service writes it: the key and the bot's move recorded for seat 3, the
    bot's records at one time."""
    lines = chained(table.events)
    lines[key]["seat"] = GONE
    for line in lines[played:]:
        line["seat"], line["recorded_at"] = GONE, "2026-11-24T10:30:00.000000Z"
    return lines


def test_the_bot_moves_a_keyed_seat_unsigned_and_verify_believes_it_the_servers() -> None:
    """Given seat 3 keyed and played by the bot, when the bot makes its move unsigned, then the
    court takes it after a `BotPlayed`, and the log passes every check."""
    table, key, played = keyed_seat_played_by_bot()

    assert isinstance(table.events[played], BotPlayed)
    assert table.state.devices.keyed("seat:3")
    result = audit(rechain(logged(table, key, played)))
    assert result.ok, result


def test_a_record_of_the_keyed_seat_outside_the_bots_move_is_caught() -> None:
    """A record slipped in for seat 3 at another time than the bot's move is no move of the
    bot's: no key of seat 3 signed it."""
    table, key, played = keyed_seat_played_by_bot()
    lines = logged(table, key, played)
    assert len(lines) > played + 1, "the bot's move led to a record after its BotPlayed"
    lines[played + 1]["recorded_at"] = "2026-11-24T10:31:00.000000Z"

    result = audit(rechain(lines))

    assert not result.ok and result.check == "signatures", result
    assert result.bad_version == played + 2
    assert "no key of seat 3 signed" in result.reason
