"""One sentence per event type, for the history: every type of the registry has its own, in
the sentence module of its subdomain, and reads a record of it as a non-empty sentence."""

from __future__ import annotations

import importlib
import inspect
import typing
from dataclasses import fields, is_dataclass
from enum import Enum
from typing import Any

import pytest

from court.events import EVENT_TYPES, TYPE_NAMES, Event
from court.log.chain import Record
from court.sentences import SENTENCES, describe, names
from court.state import CourtState
from tests.court.given import GAME, given, started
from tests.court.single_records import record_of

SUBDOMAINS = ("setup", "rounds", "elections", "titles", "nobles", "purchases", "decrees", "seats")

# A sample of each id (section 1 of the rules' roster and map), by id type.
IDS = {
    "GameId": GAME,
    "HouseId": "stark",
    "NobleId": "robb-stark",
    "TitleId": "warden-north",
    "VillageId": "winterfell",
    "Seat": 0,
}
# One object with every key a sentence reads from an object field (a Noble brought into play,
# a marker, a bid, a title's power).
OBJECT = {
    "id": "rickon-stark",
    "name": "Rickon Stark",
    "seat": 0,
    "amount": 3,
    "void": False,
    "commitment": "c0",
    "candidate": "robb-stark",
    "kind": "for",
    "salt": "s0",
    "title": "king",
    "noble": "robb-stark",
}
SCALARS: dict[Any, Any] = {str: "the reason", int: 2, float: 1.0, bool: True}


def sample(hint: Any) -> Any:
    """A value of the type `hint` names, made of the samples above."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is typing.Union or type(hint).__name__ == "UnionType":
        return sample(next(a for a in args if a is not type(None)))
    if origin is tuple:
        return (sample(args[0]),) if args[1:] == (Ellipsis,) else tuple(map(sample, args))
    if origin is frozenset:
        return frozenset({sample(args[0])})
    if isinstance(hint, type) and issubclass(hint, Enum):
        return next(iter(hint))
    if origin is dict:
        return dict(OBJECT)
    if getattr(hint, "__supertype__", None) is not None:
        return IDS[hint.__name__]
    if is_dataclass(hint):
        return example(hint)
    return SCALARS[hint]


def example(cls: type) -> Any:
    hints = typing.get_type_hints(cls)
    return cls(**{f.name: sample(hints[f.name]) for f in fields(cls)})


@pytest.fixture(scope="module")
def court() -> CourtState:
    return given(*started(3))


def test_every_event_type_has_its_own_sentence() -> None:
    """No known type falls back on the generic "<type> (version n)"."""
    assert set(SENTENCES) == set(EVENT_TYPES)


@pytest.mark.parametrize("subdomain", SUBDOMAINS)
def test_each_sentence_module_tells_the_events_of_its_own_subdomain(subdomain: str) -> None:
    """court/sentences/ mirrors court/events/: a module's table holds exactly the events the
    events module of the same name declares."""
    events = importlib.import_module(f"court.events.{subdomain}")
    sentences = importlib.import_module(f"court.sentences.{subdomain}")
    declared = {
        TYPE_NAMES[cls]
        for _, cls in inspect.getmembers(events, inspect.isclass)
        if issubclass(cls, Event) and cls.__module__ == events.__name__
    }
    assert set(sentences.SENTENCES) == declared


@pytest.mark.parametrize("name", list(EVENT_TYPES))
def test_each_event_type_reads_as_a_sentence(court: CourtState, name: str) -> None:
    record = record_of(example(EVENT_TYPES[name][0]))
    text = describe(record, court)
    assert isinstance(text, str) and text.strip()
    assert text != f"{name} (version 9)." and text.endswith(".")


def test_a_type_this_server_does_not_know_is_named_as_it_is(court: CourtState) -> None:
    unknown = record_of(example(EVENT_TYPES["SeatLeft"][0]))
    unknown = Record(
        **{**{k: getattr(unknown, k) for k in Record.__dataclass_fields__}, "type": "DragonHatched"}
    )
    assert describe(unknown, court) == "DragonHatched (version 9)."


def test_names_read_as_the_browser_writes_them(court: CourtState) -> None:
    """A seat nobody holds is "Seat n" counted from 1, as static/lib/names.js writes it; ids read
    as their names from the roster, the titles and the map."""
    assert names.player(court, 0) == "Player 1 (House Stark)"
    assert names.player(court, 5) == "Seat 6"
    assert names.players(court, []) == "nobody"
    assert names.noble(court, "robb-stark") == "Robb Stark"
    assert names.title(court, "warden-north") == "Warden of the North"
    assert names.village(court, "winterfell") == "Winterfell"
    assert names.gold(1) == "1 Gold Dragon" and names.gold(3) == "3 Gold Dragons"
    assert names.step("false_idols") == "1.1.2 False idols"


def test_a_reveal_names_the_winner_and_his_votes(court: CourtState) -> None:
    """R-7.1 step 5: the sentence gives the round, the title, the winner and his votes."""
    reveal = example(EVENT_TYPES["BallotsRevealed"][0])
    assert describe(record_of(reveal), court) == (
        "Round 2, Warden of the North: Robb Stark elected with 2 votes."
    )
