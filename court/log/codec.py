"""Events to and from plain JSON data: public and private parts, upcasting of old shapes.

An upcaster turns the stored data of (type, schema_version) into the shape of
schema_version + 1; `upcast` applies them until the current version is reached, for
`decode`, for the sentences and for the records shown to clients. Stored records are never
rewritten. A small frozen dataclass in an event (`Share`, `OpenedBid`, ...) is stored as a
JSON object, a list of them as a list of objects; a field it names in `OMITTED_WHEN_NONE` is
left out of the object while it is None, as records written before the field existed lack it.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import fields, is_dataclass
from enum import Enum
from typing import Any, TypeVar

from court.errors import BadRecord
from court.events import EVENT_TYPES, TYPE_NAMES, Event

Upcaster = Callable[[Mapping[str, Any]], dict[str, Any]]
UpcasterKey = tuple[str, int]


def _decree_step_opened_v1(data: Mapping[str, Any]) -> dict[str, Any]:
    """DecreeStepOpened 1 -> 2: older steps bound no turn to a title's power (R-6.7)."""
    return {**data, "powers": [None] * len(data.get("order", ()))}


def _objects(data: Mapping[str, Any], field: str, first: str, second: str) -> dict[str, Any]:
    """The data with its `field` of pairs [[a, b], ...] as objects [{first: a, second: b}, ...].
    Anything else (a field missing, a malformed pair) is left as it is, for decode to refuse
    rather than guessed at."""
    pairs = data.get(field)
    if not isinstance(pairs, list):
        return dict(data)
    objects = [
        {first: p[0], second: p[1]} if isinstance(p, list) and len(p) == 2 else p for p in pairs
    ]
    return {**data, field: objects}


def _income_paid_v1(data: Mapping[str, Any]) -> dict[str, Any]:
    """IncomePaid 1 -> 2: each House's income an object {house, gold} (R-2.2)."""
    return _objects(data, "amounts", "house", "gold")


def _ballot_opened_v1(data: Mapping[str, Any]) -> dict[str, Any]:
    """BallotOpened 1 -> 2: each player's votes an object {seat, votes} (R-7.2)."""
    return _objects(data, "weights", "seat", "votes")


def _ballots_revealed_v1(data: Mapping[str, Any]) -> dict[str, Any]:
    """BallotsRevealed 1 -> 2: each candidate's count an object {noble, votes} (R-7.1 step 5).
    Schema 1 records hold the round only from some point on; where it is missing it was never
    recorded, and reads as None."""
    return {**_objects(data, "votes", "noble", "votes"), "round": data.get("round")}


def _septs_pillaged_v1(data: Mapping[str, Any]) -> dict[str, Any]:
    """SeptsPillaged 1 -> 2: each House's share an object {house, gold} (R-6.2)."""
    return _objects(data, "shares", "house", "gold")


def _game_ended_v1(data: Mapping[str, Any]) -> dict[str, Any]:
    """GameEnded 1 -> 2: each player's victory points an object {seat, points} (R-4.7)."""
    return _objects(data, "points", "seat", "points")


def _game_created_v1(data: Mapping[str, Any]) -> dict[str, Any]:
    """GameCreated 1 -> 2: games from before private games were all on the front page and
    had no invite secret."""
    return {**data, "listed": True}


def _gold_paid_v1(data: Mapping[str, Any]) -> dict[str, Any]:
    """GoldPaid 1 -> 2: payments before the bank held a price bought what came with them."""
    return {**data, "held": False}


def _council_seat_lapsed_v1(data: Mapping[str, Any]) -> dict[str, Any]:
    """CouncilSeatLapsed 1 -> 2: a seat that lapsed before refunds kept its price (R-4.6 as
    it then stood): nothing came back."""
    return {**data, "refund": 0}


def _game_created_v2(data: Mapping[str, Any]) -> dict[str, Any]:
    """GameCreated 2 -> 3: games from before names had none (shown as "Game <id>")."""
    return {**data, "name": None}


def _game_started_v1(data: Mapping[str, Any]) -> dict[str, Any]:
    """GameStarted 1 -> 2: the time of the start was not recorded (0.0)."""
    return {**data, "at": 0.0}


def _seat_handed_v1(data: Mapping[str, Any]) -> dict[str, Any]:
    """SeatHanded 1 -> 2: the version of the hand-over was not recorded (0)."""
    return {**data, "at_version": 0}


def _seat_handed_v2(data: Mapping[str, Any]) -> dict[str, Any]:
    """SeatHanded 2 -> 3: the time of the hand-over was not recorded (0.0)."""
    return {**data, "at": 0.0}


def _replace_vote_cast_v1(data: Mapping[str, Any]) -> dict[str, Any]:
    """ReplaceVoteCast 1 -> 2: every vote to replace a player was for a new link."""
    return {**data, "bot": False}


def _seat_replaced_v1(data: Mapping[str, Any]) -> dict[str, Any]:
    """SeatReplaced 1 -> 2: every replacement handed the seat to a new link."""
    return {**data, "bot": False}


def _seat_handed_v3(data: Mapping[str, Any]) -> dict[str, Any]:
    """SeatHanded 3 -> 4: a hand-over kept the seat's votes, banks and standing as they were
    (no new player had to open his link)."""
    return {**data, "fresh": False}


def _game_ended_v2(data: Mapping[str, Any]) -> dict[str, Any]:
    """GameEnded 2 -> 3: a game ended with winners by the victory check (R-4.7), and without
    any by the table's vote: no other end existed."""
    return {**data, "how": "victory" if data.get("winners") else "table"}


def _host_vote_cast_v1(data: Mapping[str, Any]) -> dict[str, Any]:
    """HostVoteCast 1 -> 2: the time of the vote was not recorded (such a vote never counts)."""
    return {**data, "at": None}


def _host_vote_cast_v2(data: Mapping[str, Any]) -> dict[str, Any]:
    """HostVoteCast 2 -> 3: since when the host was away, as the vote counted it, was not
    recorded."""
    return {**data, "host_away_since": None}


def _host_taken_over_v1(data: Mapping[str, Any]) -> dict[str, Any]:
    """HostTakenOver 1 -> 2: every seat voted and counted; neither the voters nor the host's
    absence were recorded."""
    return {**data, "voters": [], "host_away_since": None}


def _title_returned_v1(data: Mapping[str, Any]) -> dict[str, Any]:
    """TitleReturned 1 -> 2: no title came back with its price before refunds (R-3.6)."""
    return {**data, "refund": 0}


def _title_slots_exceeded_v1(data: Mapping[str, Any]) -> dict[str, Any]:
    """TitleSlotsExceeded 1 -> 2: the price of the title that came was not recorded; it was
    never refunded."""
    return {**data, "price": 0}


# (type name, schema version) -> function reading that shape into the next one.
UPCASTERS: dict[UpcasterKey, Upcaster] = {
    ("DecreeStepOpened", 1): _decree_step_opened_v1,
    ("IncomePaid", 1): _income_paid_v1,
    ("BallotOpened", 1): _ballot_opened_v1,
    ("BallotsRevealed", 1): _ballots_revealed_v1,
    ("SeptsPillaged", 1): _septs_pillaged_v1,
    ("GameEnded", 1): _game_ended_v1,
    ("GameCreated", 1): _game_created_v1,
    ("GoldPaid", 1): _gold_paid_v1,
    ("CouncilSeatLapsed", 1): _council_seat_lapsed_v1,
    ("GameCreated", 2): _game_created_v2,
    ("GameStarted", 1): _game_started_v1,
    ("SeatHanded", 1): _seat_handed_v1,
    ("SeatHanded", 2): _seat_handed_v2,
    ("SeatHanded", 3): _seat_handed_v3,
    ("GameEnded", 2): _game_ended_v2,
    ("HostVoteCast", 1): _host_vote_cast_v1,
    ("HostVoteCast", 2): _host_vote_cast_v2,
    ("ReplaceVoteCast", 1): _replace_vote_cast_v1,
    ("SeatReplaced", 1): _seat_replaced_v1,
    ("HostTakenOver", 1): _host_taken_over_v1,
    ("TitleReturned", 1): _title_returned_v1,
    ("TitleSlotsExceeded", 1): _title_slots_exceeded_v1,
}

Converter = Callable[[Any], Any]
T = TypeVar("T")


def _per_class(build: Callable[[type], T]) -> Callable[[type], T]:
    """`build` run once per class, its answer kept (functools.cache, typed for classes)."""
    kept: dict[type, T] = {}

    def get(cls: type) -> T:
        if cls not in kept:
            kept[cls] = build(cls)
        return kept[cls]

    return get


def _identity(value: Any) -> Any:
    return value


def _converter(hint: Any) -> Converter:
    """A function turning JSON data back into the Python shape `hint` names."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        conv = _converter(inner[0]) if len(inner) == 1 else _identity
        if conv is _identity:
            return _identity
        return lambda v: None if v is None else conv(v)
    if origin is tuple:
        item = _converter(args[0]) if args else _identity
        if item is _identity:
            return tuple
        return lambda v: tuple(item(x) for x in v)
    if origin is frozenset:
        item = _converter(args[0])
        return lambda v: frozenset(item(x) for x in v)
    if isinstance(hint, type) and issubclass(hint, Enum):
        return hint
    supertype = getattr(hint, "__supertype__", None)
    if supertype is not None:
        return _converter(supertype)
    if isinstance(hint, type) and is_dataclass(hint):
        return _object_converter(hint)
    return _identity


def _object_converter(cls: type) -> Converter:
    """A JSON object back into a value dataclass of an event (`{"noble": ..., "votes": 3}`)."""
    plan = dict(_plan(cls))

    def convert(value: Any) -> Any:
        if not isinstance(value, Mapping):
            raise TypeError(f"{cls.__name__} is an object, not {type(value).__name__}")
        unknown = sorted(set(value) - set(plan))
        if unknown:
            raise TypeError(f"{cls.__name__} has no fields {unknown}")
        return cls(**{key: plan[key](item) for key, item in value.items()})

    return convert


@_per_class
def _plan(cls: type) -> tuple[tuple[str, Converter], ...]:
    hints = typing.get_type_hints(cls)
    return tuple((f.name, _converter(hints[f.name])) for f in fields(cls))


@_per_class
def _names(cls: type) -> tuple[tuple[str, bool], ...]:
    """Each field's name, and whether the object leaves it out while it is None."""
    omitted: frozenset[str] = getattr(cls, "OMITTED_WHEN_NONE", frozenset())
    return tuple((f.name, f.name in omitted) for f in fields(cls))


def _plain(value: Any) -> Any:
    if value is None or type(value) in (str, int, bool, float):
        return value
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, frozenset | set):
        return sorted(_plain(v) for v in value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if is_dataclass(value):
        shown = ((n, getattr(value, n), omit) for n, omit in _names(type(value)))
        return {n: _plain(v) for n, v, omit in shown if not (omit and v is None)}
    return value


def type_name(event: Event) -> str:
    return TYPE_NAMES[type(event)]


def schema_version(name: str) -> int:
    return EVENT_TYPES[name][1]


@_per_class
def parts(cls: type) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The names of an event class's public and private fields, in declaration order."""
    private: frozenset[str] = getattr(cls, "PRIVATE", frozenset())
    names = [f.name for f in fields(cls)]
    return (
        tuple(n for n in names if n not in private),
        tuple(n for n in names if n in private),
    )


def encode(event: Event) -> tuple[str, dict[str, Any], dict[str, Any] | None]:
    """Split an event into (type name, public data, private data or None)."""
    public_names, private_names = parts(type(event))
    public = {n: _plain(getattr(event, n)) for n in public_names}
    private = {n: _plain(getattr(event, n)) for n in private_names}
    return type_name(event), public, (private or None)


def upcast(
    name: str,
    version: int,
    data: Mapping[str, Any],
    upcasters: Mapping[UpcasterKey, Upcaster] = UPCASTERS,
) -> Mapping[str, Any]:
    """A record's stored data (its public part, or public and private merged) in the current
    shape of its type: the one way old shapes are read, by `decode` and by the sentences.
    Data already in the current shape comes back as it was given, not copied."""
    try:
        current = EVENT_TYPES[name][1]
    except KeyError:
        raise BadRecord(
            "unknown_event_type", f"The log holds an unknown event type {name!r}."
        ) from None
    shaped = data
    while version < current:
        try:
            step = upcasters[(name, version)]
        except KeyError:
            raise BadRecord(
                "no_upcaster", f"No upcaster reads {name} events of schema version {version}."
            ) from None
        shaped = step(dict(shaped))
        version += 1
    if version > current:
        raise BadRecord(
            "future_schema",
            f"{name} schema version {version} is newer than this server reads ({current}).",
        )
    return shaped


def decode(
    name: str,
    version: int,
    data: Mapping[str, Any],
    private: Mapping[str, Any] | None,
    upcasters: Mapping[UpcasterKey, Upcaster] = UPCASTERS,
) -> Event:
    """Rebuild an event from its stored parts, upcasting an old shape first.

    A record whose private part was withheld decodes with those fields empty;
    such an event is for display and verification, never for rebuilding state.
    """
    merged = upcast(name, version, data if private is None else {**data, **private}, upcasters)
    cls = EVENT_TYPES[name][0]
    plan = _plan(cls)
    if len(merged) > len(plan):
        extra = sorted(set(merged) - {key for key, _ in plan})
        raise BadRecord("bad_event_data", f"A {name} record has unknown fields {extra}.")
    try:
        kwargs = {
            key: conv(merged[key]) if key in merged else _missing(cls, key) for key, conv in plan
        }
        return cls(**kwargs)
    except (TypeError, ValueError) as exc:
        raise BadRecord("bad_event_data", f"A {name} record cannot be read: {exc}.") from None


def _missing(cls: type[Event], key: str) -> Any:
    if key in cls.PRIVATE:
        return None
    raise TypeError(f"field {key!r} is missing")
