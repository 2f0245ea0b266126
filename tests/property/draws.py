"""What the property machine sends: any command of the catalogue, its fields drawn from the
court at hand, so a new message is played without a word written here.

A field's values are chosen by the command and the field's name where one command means
something of its own by it (a new Noble's id, a death's kind), then by the field's name, then
by its type; a field of a type nobody knows fails `drawable`, and with it a test.
"""

from __future__ import annotations

import base64
import dataclasses
import types
import typing
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import strategies as st

from config.profile_rules import NOT_DRAWN
from court.commands import (
    AddNoble,
    AdjustGold,
    ClaimSeat,
    Command,
    DeathKind,
    JoinSmallCouncil,
    MarkerChoice,
    OfferRansom,
    PlaceBid,
    RecordDeath,
    RecordWallSupplies,
)
from court.ids import HouseId, NobleId, Seat, TitleId, VillageId
from court.model.devices import key_id_of
from court.model.profile import AS_WRITTEN, SETTINGS
from court.state import CourtState, NobleStatus
from server.messages.catalogue import CATALOGUE
from server.messages.facts import FACTS
from server.tools.sim_facts import in_the_spotlight

Strategy = st.SearchStrategy[Any]
# One device's public key, the same in every run (base64 of 32 raw bytes).
DEVICE_KEY = base64.b64encode(
    Ed25519PrivateKey.from_private_bytes(bytes(32)).public_key().public_bytes_raw()
).decode()
# What the host records (section 9) and what anyone else may send, as the catalogue sorts them.
FACT_COMMANDS = tuple(m.command for m in FACTS)
OTHER_COMMANDS = tuple(m.command for m in CATALOGUE.values() if m not in FACTS)


def _court(state: CourtState, *, spotlight: bool) -> dict[type, Strategy]:
    """Values of each kind of id, from this court; a fact's Noble is half the time one whose
    fate matters to the step under way (sim_facts)."""
    names = sorted(state.nobles) or ["nobody"]
    nobles = st.sampled_from([NobleId(n) for n in names])
    if spotlight:
        nobles = st.one_of(
            nobles, st.sampled_from([NobleId(n) for n in sorted(in_the_spotlight(state)) or names])
        )
    return {
        NobleId: nobles,
        HouseId: st.sampled_from([HouseId(h) for h in sorted(state.treasury) or ["stark"]]),
        TitleId: st.sampled_from([TitleId(t.id) for t in state.ruleset.titles]),
        VillageId: st.sampled_from([VillageId(v.id) for v in state.ruleset.villages]),
        Seat: st.sampled_from([Seat(s) for s in sorted(state.seats) or [0]]),
        bool: st.booleans(),
        int: st.integers(-1, 30),
    }


def _by_name(state: CourtState) -> dict[str, Strategy]:
    return {
        "cause": st.just("at the table"),
        "salt": st.uuids().map(str),
        "offer": st.integers(1, max(1, state.next_offer)),
        "gender": st.sampled_from(["lord", "lady"]),
        "attributes": st.sampled_from([(), ("cruel",), ("heart_breaker",), ("bastard",)]),
        "name": st.just("A Newcomer"),
        "player_name": st.one_of(st.none(), st.just("A Newcomer")),
        "token_sha256": st.just("0" * 64),
        "invite": st.none(),
        "seat_order": st.none(),
        # Filled in by the service, never by a client: anything the engine may be handed.
        "host_away_since": st.one_of(st.none(), st.floats(0, 1e9, allow_nan=False)),
        "at_version": st.integers(0, 1000),
        "away_since": st.one_of(st.none(), st.floats(0, 1e9, allow_nan=False)),
        # A correction's record, read from the log by the service: the machine sends none.
        "recorded": st.none(),
        "before": st.none(),
        "court_before": st.none(),
        "later": st.just(()),
        "head": st.integers(0, 1000),
        # What a device signed of its own secrets: none (an unsigned sender) or one no marker
        # or bid opens, so the machine meets `bad_commitment` too.
        "committed": st.one_of(st.none(), st.just(({"commitment": "0" * 64, "candidate": None},))),
        "commitment": st.one_of(st.none(), st.just("0" * 64)),
        # The key that signed a device's key: the engine's, from the signed move.
        "signer": st.none(),
        "public_key": st.sampled_from([DEVICE_KEY, "not a key", ""]),
        "key_id": st.sampled_from([key_id_of(DEVICE_KEY) or "", "0" * 16, "?"]),
    }


def _by_command(state: CourtState) -> dict[tuple[type, str], Strategy]:
    masters = [TitleId(t.id) for t in state.ruleset.titles if t.master]
    # a ransom is for a captive, paid in captives: drawn mostly among the court's.
    held = sorted(n.id for n in state.nobles.values() if n.status is NobleStatus.CAPTIVE)
    captives = st.sampled_from(held or sorted(state.nobles) or [NobleId("nobody")])
    return {
        (OfferRansom, "captive"): captives,
        (OfferRansom, "captives"): st.lists(captives, max_size=2, unique=True).map(tuple),
        (MarkerChoice, "kind"): st.sampled_from(["for", "decoy"]),
        (RecordDeath, "kind"): st.sampled_from([k.value for k in DeathKind]),
        (AddNoble, "noble"): st.sampled_from([NobleId(f"newcomer-{n}") for n in range(4)]),
        (JoinSmallCouncil, "title"): st.sampled_from(masters),
        (AdjustGold, "amount"): st.sampled_from([-4, -1, 2, 5]),
        (RecordWallSupplies, "amount"): st.integers(1, 6),
        (PlaceBid, "amount"): st.integers(-1, 30),
        (PlaceBid, "salt"): st.just("salt"),
        (OfferRansom, "gold"): st.integers(0, 5),
        # A name is shaped by the message's schema before the engine reads it.
        (ClaimSeat, "player_name"): st.just("A Newcomer"),
    }


class Draws:
    """The strategies of one court: `command(cls)` draws any command of that class."""

    def __init__(self, state: CourtState, *, spotlight: bool = False) -> None:
        self.types = _court(state, spotlight=spotlight)
        self.names = _by_name(state)
        self.commands = _by_command(state)

    def command(self, cls: type) -> Strategy:
        hints = typing.get_type_hints(cls)
        fields = {f.name: self.field(cls, f.name, hints[f.name]) for f in dataclasses.fields(cls)}
        return st.builds(cls, **fields)

    def field(self, cls: type, name: str, hint: Any) -> Strategy:
        if (cls, name) in self.commands:
            return self.commands[(cls, name)]
        if name in self.names:
            return self.names[name]
        return self.of_type(hint, f"{cls.__name__}.{name}")

    def of_type(self, hint: Any, where: str) -> Strategy:
        origin, args = typing.get_origin(hint), typing.get_args(hint)
        if origin in (typing.Union, types.UnionType):
            return st.one_of(*(self.of_type(a, where) for a in args))
        if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
            return st.lists(self.of_type(args[0], where), max_size=2).map(tuple)
        if hint is type(None):
            return st.none()
        if hint in self.types:
            return self.types[hint]
        if dataclasses.is_dataclass(hint):
            return self.command(hint)
        raise TypeError(f"no values known for {where} ({hint!r}): name them in draws.py")


def any_of(state: CourtState, classes: tuple[type, ...], *, spotlight: bool = False) -> Strategy:
    draws = Draws(state, spotlight=spotlight)
    return st.one_of(*(draws.command(cls) for cls in classes))


def facts(state: CourtState) -> st.SearchStrategy[Command]:
    """Any fact of section 9 about this court: possible or not."""
    return any_of(state, FACT_COMMANDS, spotlight=True)


def commands(state: CourtState) -> st.SearchStrategy[Command]:
    """Any other command a client could send, with the court's own ids in it."""
    return any_of(state, OTHER_COMMANDS)


def profiles(profile: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    """`profile` with every setting drawn from its allowed values (court/model/profile.py), as
    config/profile_rules.py draws one for simulated games; the First Player's place is drawn
    below 3, a place of every game."""
    sections: dict[str, dict[str, Strategy]] = {}
    for setting in SETTINGS:
        choices = list(setting.allowed.choices())
        written = profile.get(setting.section, {}).get(setting.key)
        drawn = st.sampled_from([written if c == AS_WRITTEN else c for c in choices])
        if (setting.section, setting.key) in NOT_DRAWN or not choices:
            drawn = st.just(written)
        if (setting.section, setting.key) == ("players", "first_player_seat"):
            drawn = st.integers(0, 2)
        sections.setdefault(setting.section, {})[setting.key] = drawn
    return st.fixed_dictionaries(
        {name: st.fixed_dictionaries(keys) for name, keys in sections.items()}
    ).map(lambda drawn: {**profile, **drawn, "name": "random"})
