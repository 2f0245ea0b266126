"""A log of devices' keys, for the golden fold: seats, the seatless host and the game master
keyed, moves signed, a further key signed by a first, a key dropped, and keys going with a seat
handed on, a seat given up, the host taking a seat and the host role moving."""

from __future__ import annotations

from dataclasses import replace

from court.commands import (
    Actor,
    DropDeviceKey,
    HandHost,
    HandSeat,
    LeaveSeat,
    Pass,
    SignedMove,
    StartGame,
)
from court.decide.signed import decide_move
from court.events import Event
from court.ids import Seat
from tests.court.given import GAME, HOST, Table, created, joined, seat
from tests.court.signing import Device

MASTER = Actor(master=True)


def _moved(table: Table, move: object, actor: Actor) -> None:
    events, _ = decide_move(table.state, move, actor)  # type: ignore[arg-type]
    table.add(*events)


def _signs(device: Device, command: object, holder: str, message: str) -> SignedMove:
    return device.signs(command, GAME, holder, message)  # type: ignore[arg-type]


def device_keys() -> list[Event]:
    host, master, one, two, three, spare = (Device(n) for n in range(41, 47))
    mastered = replace(created(4), game_master_name="Maester", game_master_token_sha256="m" * 64)
    table = Table(mastered, joined(1), joined(2), joined(3))
    _moved(table, host.registers(), HOST)
    _moved(table, master.registers(), MASTER)
    _moved(table, one.registers(), seat(1))
    _moved(table, three.registers(), seat(3))
    _moved(table, _signs(one, spare.registers(), "seat:1", "add_device_key"), seat(1))
    drop = DropDeviceKey(key_id=one.key_id)
    _moved(table, _signs(spare, drop, "seat:1", "drop_device_key"), seat(1))
    _moved(table, _signs(three, LeaveSeat(), "seat:3", "leave"), seat(3))  # seat 3's key goes
    table.add(replace(joined(0, host=True), seat=Seat(4)))  # the host sits: his role's key goes
    table.add(replace(joined(3), seat=Seat(5), token_sha256="5" * 64))
    _moved(table, two.registers(), seat(2))
    _moved(table, HandHost(seat=Seat(2)), seat(4, host=True))  # seat 4 plays unsigned
    _moved(table, _signs(two, StartGame(), "seat:2", "start"), seat(2, host=True))
    while table.state.decree is not None and table.state.decree.current is not None:
        current = table.state.decree.current
        device = {1: spare, 2: two}.get(current)
        move = Pass() if device is None else _signs(device, Pass(), f"seat:{current}", "pass")
        _moved(table, move, seat(current, host=current == 2))
    handed = HandSeat(seat=Seat(1), token_sha256="e" * 64, player_name="Eve", at_version=0)
    _moved(table, _signs(two, handed, "seat:2", "hand_seat"), seat(2, host=True))
    assert set(table.state.devices.by_id) == {master.key_id, two.key_id}, table.state.devices
    return table.events
