"""Every command reaches the rules of exactly one subdomain (court/decide/dispatch.py)."""

from __future__ import annotations

from typing import get_args

from court.commands import Command
from court.decide import dispatch

SUBDOMAINS = (
    dispatch.SetupCommand,
    dispatch.RoundCommand,
    dispatch.ElectionCommand,
    dispatch.TitleCommand,
    dispatch.DecreeCommand,
    dispatch.NobleCommand,
    dispatch.PurchaseCommand,
)


def test_every_command_belongs_to_exactly_one_subdomain() -> None:
    grouped = [command for subdomain in SUBDOMAINS for command in get_args(subdomain)]
    assert sorted(c.__name__ for c in grouped) == sorted(c.__name__ for c in get_args(Command))
