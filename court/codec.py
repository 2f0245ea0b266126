"""Events to and from plain JSON data: public and private parts, upcasting of old shapes.

An upcaster turns the stored data of (type, schema_version) into the shape of
schema_version + 1; reading applies them until the current version is reached.
Stored records are never rewritten.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import fields
from enum import Enum
from functools import cache
from typing import Any

from court.errors import BadRecord
from court.events import EVENT_TYPES, TYPE_NAMES, Event

Upcaster = Callable[[Mapping[str, Any]], dict[str, Any]]
UpcasterKey = tuple[str, int]


def _decree_step_opened_v1(data: Mapping[str, Any]) -> dict[str, Any]:
    """DecreeStepOpened 1 -> 2: older steps bound no turn to a title's power (R-6.7)."""
    return {**data, "powers": [None] * len(data.get("order", ()))}


# (type name, schema version) -> function reading that shape into the next one.
UPCASTERS: dict[UpcasterKey, Upcaster] = {
    ("DecreeStepOpened", 1): _decree_step_opened_v1,
}

Converter = Callable[[Any], Any]


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
    return _identity


@cache
def _plan(name: str) -> tuple[tuple[str, Converter], ...]:
    cls = EVENT_TYPES[name][0]
    hints = typing.get_type_hints(cls)
    return tuple((f.name, _converter(hints[f.name])) for f in fields(cls))


def _plain(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, frozenset | set):
        return sorted(_plain(v) for v in value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def type_name(event: Event) -> str:
    return TYPE_NAMES[type(event)]


def schema_version(name: str) -> int:
    return EVENT_TYPES[name][1]


@cache
def _parts(name: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The names of an event type's public and private fields, in declaration order."""
    cls = EVENT_TYPES[name][0]
    names = [f.name for f in fields(cls)]
    return (
        tuple(n for n in names if n not in cls.PRIVATE),
        tuple(n for n in names if n in cls.PRIVATE),
    )


def encode(event: Event) -> tuple[str, dict[str, Any], dict[str, Any] | None]:
    """Split an event into (type name, public data, private data or None)."""
    name = type_name(event)
    public_names, private_names = _parts(name)
    public = {n: _plain(getattr(event, n)) for n in public_names}
    private = {n: _plain(getattr(event, n)) for n in private_names}
    return name, public, (private or None)


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
    try:
        cls, current = EVENT_TYPES[name]
    except KeyError:
        raise BadRecord(
            "unknown_event_type", f"The log holds an unknown event type {name!r}."
        ) from None
    merged = data if private is None else {**data, **private}
    while version < current:
        try:
            merged = upcasters[(name, version)](merged)
        except KeyError:
            raise BadRecord(
                "no_upcaster", f"No upcaster reads {name} events of schema version {version}."
            ) from None
        version += 1
    if version > current:
        raise BadRecord(
            "future_schema",
            f"{name} schema version {version} is newer than this server reads ({current}).",
        )
    plan = _plan(name)
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
