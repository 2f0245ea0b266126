"""Every command reaches the rules of exactly one subdomain (court/decide/dispatch.py): the
union of each module of court/commands/ names every command the module declares, and the
ten unions make the one `Command` union without overlap."""

from __future__ import annotations

import dataclasses
import inspect
from types import ModuleType
from typing import Any, get_args

import pytest

from court.commands import (
    Command,
    bots,
    command,
    decrees,
    devices,
    elections,
    nobles,
    purchases,
    rounds,
    seats,
    setup,
    table,
    titles,
)
from court.decide import dispatch

SUBDOMAINS: list[tuple[ModuleType, Any]] = [
    (setup, dispatch.SetupCommand),
    (rounds, dispatch.RoundCommand),
    (elections, dispatch.ElectionCommand),
    (titles, dispatch.TitleCommand),
    (decrees, dispatch.DecreeCommand),
    (nobles, dispatch.NobleCommand),
    (purchases, dispatch.PurchaseCommand),
    (seats, dispatch.SeatCommand),
    (table, dispatch.TableCommand),
    (devices, dispatch.DeviceCommand),
    # The bot's move holds any command, so it is declared beside the union of them all.
    (bots, bots.TakeSeatBack),
    (command, command.BotMove),
]
# Parts of a command, not commands: the markers a PlaceBallot carries, the villages of a
# RecordVillages.
PARTS = {"MarkerChoice", "VillageChange"}


def _members(union: Any) -> tuple[Any, ...]:
    """The commands of a subdomain's union; a subdomain of one command names it alone."""
    return get_args(union) or (union,)


@pytest.mark.parametrize(("module", "union"), SUBDOMAINS, ids=lambda v: getattr(v, "__name__", ""))
def test_each_subdomains_union_names_every_command_its_module_declares(
    module: ModuleType, union: Any
) -> None:
    declared = {
        cls.__name__
        for _, cls in inspect.getmembers(module, inspect.isclass)
        if dataclasses.is_dataclass(cls) and cls.__module__ == module.__name__
    } - PARTS
    assert {cls.__name__ for cls in _members(union)} == declared


def test_every_command_belongs_to_exactly_one_subdomain() -> None:
    grouped = [command for _, union in SUBDOMAINS for command in _members(union)]
    assert sorted(c.__name__ for c in grouped) == sorted(c.__name__ for c in get_args(Command))
    assert len(grouped) == len(set(grouped))
