"""A court state to and from plain JSON data: the snapshots that let a long game be rebuilt from
a recent state instead of from its first event.

A snapshot is a cache, never the truth: it is stored beside the log with the version and the
hash of the record it was folded up to, and with the `FORMAT` it was written under; a snapshot
of another format (a server whose fold or state differs) or of another log is never read back.
Dataclasses become objects, maps become lists of [key, value] pairs (keys keep their type),
enums their values, tuples and sets lists; reading follows the type hints of the state's classes.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Callable
from enum import Enum
from functools import cache
from typing import Any

from court.state import CourtState

Reader = Callable[[Any], Any]

# The format of the snapshots this code writes and reads back. Bump it whenever the same stored
# log would fold into another state (a change in court/evolve, in decoding or in an upcaster)
# or the state's shape changes: every snapshot written under the old number is then ignored and
# its game folded again. A change that keeps every fold's result keeps the number, and the
# snapshots. tests/court/test_fold_golden.py holds the fold of fixed logs to this number.
FORMAT = 12


def _stored(cls: type) -> tuple[dataclasses.Field[Any], ...]:
    """The fields a snapshot holds: every field but the indexes a class rebuilds itself
    (declared with compare=False)."""
    return tuple(f for f in dataclasses.fields(cls) if f.compare)


_NAMES: dict[type, tuple[str, ...] | None] = {}


def _names(cls: type) -> tuple[str, ...] | None:
    """The stored field names of a dataclass; None for any other type."""
    if cls not in _NAMES:
        _NAMES[cls] = tuple(f.name for f in _stored(cls)) if dataclasses.is_dataclass(cls) else None
    return _NAMES[cls]


def to_plain(value: Any) -> Any:
    """`value` as JSON-ready data."""
    cls = type(value)
    convert = _CONVERTERS.get(cls)
    if convert is None:
        convert = _CONVERTERS[cls] = _converter(cls)
    return convert(value)


def _converter(cls: type) -> Callable[[Any], Any]:
    """How `to_plain` writes a value of `cls`: the choice hangs on the type alone, so it is
    made once a type (a snapshot writes thousands of values of a dozen types)."""
    if issubclass(cls, str | int | float | bool) and not issubclass(cls, Enum):
        return _identity
    names = _names(cls)
    if names is not None:
        return lambda value: {name: to_plain(getattr(value, name)) for name in names}
    if issubclass(cls, Enum):
        return lambda value: value.value
    if issubclass(cls, dict):
        return lambda value: [[to_plain(k), to_plain(v)] for k, v in value.items()]
    if issubclass(cls, frozenset | set):
        # A set iterates in an order that hangs on its hashes and its history: written sorted,
        # the same court makes the same text in every process, as the log's codec writes it.
        return lambda value: sorted((to_plain(v) for v in value), key=_order)
    if issubclass(cls, tuple | list):
        return lambda value: [to_plain(v) for v in value]
    return _identity


def _order(plain: Any) -> str:
    return json.dumps(plain, sort_keys=True)


_CONVERTERS: dict[type, Callable[[Any], Any]] = {}


def state_to_plain(state: CourtState, rules: Any = None) -> dict[str, Any]:
    """`to_plain(state)`; `rules` is the plain form of its ruleset when the caller has it
    already (a game's ruleset never changes, so it need not be written out again)."""
    names = _names(CourtState) or ()
    plain = {name: to_plain(getattr(state, name)) for name in names if name != "rules"}
    plain["rules"] = to_plain(state.rules) if rules is None else rules
    return plain


def _identity(value: Any) -> Any:
    return value


def _optional(inner: Reader) -> Reader:
    return lambda v: None if v is None else inner(v)


def _union(args: tuple[Any, ...]) -> Reader:
    inner = [a for a in args if a is not type(None)]
    if len(inner) != 1:
        return _identity  # e.g. `str | int`: JSON keeps the type itself
    read = reader(inner[0])
    return _identity if read is _identity else _optional(read)


def _tuple(args: tuple[Any, ...]) -> Reader:
    if len(args) == 2 and args[1] is Ellipsis:
        item = reader(args[0])
        return lambda v: tuple(item(x) for x in v)
    items = tuple(reader(a) for a in args)
    return lambda v: tuple(read(x) for read, x in zip(items, v, strict=True))


def _mapping(args: tuple[Any, ...]) -> Reader:
    key, val = (reader(a) for a in args) if args else (_identity, _identity)
    return lambda v: {key(k): val(x) for k, x in v}


def _dataclass(cls: type) -> Reader:
    hints = typing.get_type_hints(cls)
    plan = tuple((f.name, reader(hints[f.name])) for f in _stored(cls))
    return lambda v: cls(**{name: read(v[name]) for name, read in plan})


@cache
def reader(hint: Any) -> Reader:
    """A function turning plain data back into the Python shape `hint` names."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return _union(args)
    if origin is tuple:
        return _tuple(args)
    if origin is frozenset:
        item = reader(args[0])
        return lambda v: frozenset(item(x) for x in v)
    if origin is dict:
        return _mapping(args)
    if isinstance(hint, type) and issubclass(hint, Enum):
        return hint
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _dataclass(hint)
    supertype = getattr(hint, "__supertype__", None)
    return _identity if supertype is None else reader(supertype)


def from_plain(data: Any) -> CourtState:
    """The state `to_plain` wrote."""
    state: CourtState = reader(CourtState)(data)
    return state


def _shape(hint: Any, seen: set[type]) -> str:
    """The shape of a type as text: field names and types, followed into dataclasses."""
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        if hint in seen:
            return hint.__qualname__
        seen.add(hint)
        hints = typing.get_type_hints(hint)
        inner = ",".join(f"{f.name}:{_shape(hints[f.name], seen)}" for f in _stored(hint))
        return f"{hint.__qualname__}{{{inner}}}"
    if isinstance(hint, type) and issubclass(hint, Enum):
        return f"{hint.__qualname__}[{','.join(str(m.value) for m in hint)}]"
    args = typing.get_args(hint)
    if args:
        return f"{typing.get_origin(hint)}[{','.join(_shape(a, seen) for a in args)}]"
    return str(hint)


def shape() -> str:
    """The state's shape as text. A snapshot written when it looked different cannot be read
    back, so a change of it goes with a new `FORMAT` (the fold's golden test holds it there)."""
    return _shape(CourtState, set())
