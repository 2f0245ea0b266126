"""The bot plays a seat whose player keyed his device (R-9.2): its moves are the server's, made
unsigned and marked by the `BotPlayed` before them, and `verify` believes them as such; a
record of that seat outside the bot's move still needs a key of the seat."""

from __future__ import annotations

from typing import Any

import pytest

from court.audit import audit
from court.commands import (
    Actor,
    DropDeviceKey,
    SignedMove,
    StartGame,
    TakeSeatBack,
    VoteToReplace,
)
from court.decide.signed import decide_move
from court.errors import CourtError
from court.events import BotPlayed
from server.messages.rebuilt import REBUILD
from server.service.ports import time_of
from tests.court.chained_logs import Line, chained, rechain
from tests.court.fold_bots import GONE, until_the_bot_is_awaited
from tests.court.given import GAME, Table, created, joined, seat
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


NEW_PHONE = Device(32)
BACK_AT = "2026-11-24T10:40:00.000000Z"


def signed_line_by_line(lines: list[Line], start: int) -> None:
    """Seat 3's signed moves from `start` on, as the service writes them: each record of the
    seat's, at the time it was decided (`BACK_AT`)."""
    for line in lines[start:]:
        line["seat"], line["recorded_at"] = GONE, BACK_AT


def test_a_returning_player_keys_his_new_device_and_takes_his_seat_back_signed() -> None:
    """Given seat 3 keyed and played by the bot (R-9.2), when its player, back on a new
    device, registers that device's key signed by his old one while the bot still plays, and
    then takes his seat back signed by the new one, then the court takes both as his and
    `verify` decides them again to exactly the records stored."""
    table, key, played = keyed_seat_played_by_bot()
    at = time_of(BACK_AT)
    player = seat(3)
    start = len(table.events)
    version, head = len(table.events), rechain(logged(table, key, played))[-1].hash
    register = new_phone_vouched(version=version, head=head)
    table.add(*decide_move(table.state, register, player, at)[0])
    lines = logged(table, key, played)
    signed_line_by_line(lines, start)
    version, head = len(lines), rechain(lines)[-1].hash
    back = NEW_PHONE.signs(
        TakeSeatBack(), GAME, "seat:3", "take_seat_back", version=version, head=head
    )
    table.add(*decide_move(table.state, back, player, at)[0])

    assert GONE not in table.state.table.bots
    assert NEW_PHONE.key_id in table.state.devices.by_id
    lines = logged(table, key, played)
    signed_line_by_line(lines, start)
    result = audit(rechain(lines), rebuild=REBUILD)
    assert result.ok, result


def test_the_bot_signs_nothing_and_keys_no_device() -> None:
    """The bot's moves are the server's (R-9.2): it never sends a move a device signed, and
    never registers or drops a key of the seat it plays, signed or not."""
    table, _, _ = keyed_seat_played_by_bot()
    bot = Actor(seat=GONE, bot=True)
    signed = new_phone_vouched()

    for move in (signed, NEW_PHONE.registers(), DropDeviceKey(key_id=PHONE.key_id)):
        with pytest.raises(CourtError) as refused:
            decide_move(table.state, move, bot, 1900.0)
        assert refused.value.code == "bot_signs_nothing"


def new_phone_vouched(**seen: Any) -> SignedMove:
    """The new phone's key for seat 3, signed by the old phone (on the head it `seen`)."""
    return PHONE.signs(
        NEW_PHONE.registers(),
        GAME,
        "seat:3",
        "add_device_key",
        {"public_key": NEW_PHONE.public_key},
        **seen,
    )
